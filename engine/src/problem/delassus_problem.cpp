#include "problem/delassus_problem.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "problem/contact_problem.h"

namespace contactlab {
namespace {

using Mat46 = Eigen::Matrix<double, 4, 6>;

// J_ks, contact k's 4x6 Jacobian block on its body on one side (contact_problem.h, eq. 56):
// +[C^T, (r x C)^T; 0, n^T] for body j (side B), minus that with r_i for body i (side A).
Mat46 jacobianBlock(const ContactBlock& block, bool sideB) {
  const Vec3& arm = sideB ? block.armB : block.armA;
  Mat46 j = Mat46::Zero();
  j.topLeftCorner<3, 3>() = block.frame.transpose();
  for (int c = 0; c < 3; ++c) j.block<1, 3>(c, 3) = arm.cross(block.frame.col(c)).transpose();
  j.block<1, 3>(3, 3) = block.frame.col(0).transpose();
  return sideB ? j : Mat46(-j);
}

}  // namespace

// The block-row product of every Delassus sweep (a large share of a PROX-GS sweep;
// docs/benchmarks.md), compiled for AVX2 and for baseline x86-64 (see blockRowVelocity).
[[gnu::target_clones("avx2", "default")]] Vec4 DelassusProblem::velocity(int k, const Eigen::VectorXd& lambda) const {
  return blockRowVelocity(*this, k, lambda.data());
}

Eigen::VectorXd DelassusProblem::velocities(const Eigen::VectorXd& lambda) const {
  Eigen::VectorXd v(numRows());
  for (int k = 0; k < numContacts(); ++k) v.segment<4>(4 * k) = velocity(k, lambda);
  return v;
}

Eigen::MatrixXd DelassusProblem::denseW() const {
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(numRows(), numRows());
  for (int k = 0; k < numContacts(); ++k)
    for (int b = rowStart[k]; b < rowStart[k + 1]; ++b) w.block<4, 4>(4 * k, 4 * blockColumn[b]) = blocks[b];
  return w;
}

DelassusProblem makeDelassusProblem(std::vector<std::vector<DelassusBlockEntry>> rows, Eigen::VectorXd q,
                                    std::vector<Vec3> friction) {
  const int contacts = static_cast<int>(rows.size());
  if (q.size() != 4 * contacts || static_cast<int>(friction.size()) != contacts)
    throw std::invalid_argument("Delassus problem: " + std::to_string(contacts) + " block rows but " +
                                std::to_string(q.size()) + " entries of q and " + std::to_string(friction.size()) +
                                " friction coefficients");
  DelassusProblem p;
  p.q = std::move(q);
  p.friction = std::move(friction);
  p.diagonalIndex.resize(contacts);
  for (int k = 0; k < contacts; ++k) {
    std::vector<DelassusBlockEntry>& row = rows[k];
    row.push_back({k, Mat4::Zero()});  // the diagonal block is always stored
    std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.column < b.column; });
    for (std::size_t i = 0; i < row.size(); ++i) {
      const int column = row[i].column;
      if (column < 0 || column >= contacts)
        throw std::invalid_argument("Delassus problem: block column " + std::to_string(column) + " out of range");
      if (i > 0 && row[i - 1].column == column) {
        p.blocks.back() += row[i].block;
        continue;
      }
      if (column == k) p.diagonalIndex[k] = static_cast<int>(p.blocks.size());
      p.blockColumn.push_back(column);
      p.blocks.push_back(row[i].block);
    }
    p.rowStart.push_back(static_cast<int>(p.blocks.size()));
  }
  return p;
}

DelassusProblem toDelassus(const ContactProblem& problem) {
  const int contacts = problem.numContacts();
  // Per dynamic body: its contacts and their J_ks M_s^-1 (4x6).
  struct Touch {
    int contact;
    Mat46 jacobian, jacobianInvMass;
  };
  std::vector<std::vector<Touch>> touches(problem.numSlots);
  for (int k = 0; k < contacts; ++k) {
    const ContactBlock& block = problem.blocks[k];
    for (const bool sideB : {false, true}) {
      const int slot = sideB ? block.slotB : block.slotA;
      if (slot < 0) continue;
      const SlotInverseMass& m = problem.inverseMass[slot];
      const Mat46 j = jacobianBlock(block, sideB);
      Mat46 jm;
      jm.leftCols<3>() = m.invMass * j.leftCols<3>();
      jm.rightCols<3>() = j.rightCols<3>() * m.invInertiaWorld;  // I^-1 is symmetric
      touches[slot].push_back({k, j, jm});
    }
  }
  std::vector<std::vector<DelassusBlockEntry>> rows(contacts);
  for (const std::vector<Touch>& body : touches)
    for (const Touch& a : body)
      for (const Touch& b : body) rows[a.contact].push_back({b.contact, a.jacobianInvMass * b.jacobian.transpose()});
  Eigen::VectorXd q(4 * contacts);
  std::vector<Vec3> friction(contacts);
  for (int k = 0; k < contacts; ++k) {
    q.segment<4>(4 * k) = problem.blocks[k].b;
    friction[k] = problem.blocks[k].friction;
  }
  return makeDelassusProblem(std::move(rows), std::move(q), std::move(friction));
}

}  // namespace contactlab
