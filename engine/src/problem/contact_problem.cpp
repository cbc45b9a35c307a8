#include "problem/contact_problem.h"

#include "core/thread_pool.h"

namespace contactlab {

Mat4 diagonalBlock(const ContactProblem& problem, int k) {
  const ContactBlock& block = problem.blocks[k];
  Mat4 a = Mat4::Zero();
  // Per dynamic side, J M^-1 J^T with J = [C^T, (r x C)^T; 0, n^T] (the side's sign squares away).
  auto addSide = [&](int slot, const Vec3& arm) {
    if (slot < 0) return;
    const SlotInverseMass& m = problem.inverseMass[slot];
    Eigen::Matrix<double, 4, 3> angular;
    for (int row = 0; row < 3; ++row) angular.row(row) = arm.cross(block.frame.col(row)).transpose();
    angular.row(kTorsion) = block.frame.col(0).transpose();
    a.topLeftCorner<3, 3>() += m.invMass * (block.frame.transpose() * block.frame);
    a += angular * m.invInertiaWorld * angular.transpose();
  };
  addSide(block.slotA, block.armA);
  addSide(block.slotB, block.armB);
  return a;
}

void applyInvMassJt(const ContactProblem& problem, const Eigen::VectorXd& lambda, Eigen::VectorXd& w) {
  w.setZero(6 * problem.numSlots);
  for (int k = 0; k < problem.numContacts(); ++k) addInvMassJt(problem, k, lambda.segment<4>(4 * k), w);
}

void SlotContacts::build(const ContactProblem& problem) {
  start_.assign(problem.numSlots + 1, 0);
  for (const ContactBlock& block : problem.blocks)
    for (const int slot : {block.slotA, block.slotB})
      if (slot >= 0) ++start_[slot + 1];
  for (int slot = 0; slot < problem.numSlots; ++slot) start_[slot + 1] += start_[slot];
  contacts_.resize(start_[problem.numSlots]);
  filled_.assign(start_.begin(), start_.end() - 1);
  for (int k = 0; k < problem.numContacts(); ++k)
    for (const int slot : {problem.blocks[k].slotA, problem.blocks[k].slotB})
      if (slot >= 0) contacts_[filled_[slot]++] = k;
}

void applyInvMassJt(const ContactProblem& problem, const SlotContacts& contacts, const Eigen::VectorXd& lambda,
                    Eigen::VectorXd& w, ThreadPool* pool) {
  w.resize(6 * problem.numSlots);
  constexpr int kSlotsPerChunk = 128;
  parallelFor(pool, problem.numSlots, kSlotsPerChunk, [&](int begin, int end, int) {
    for (int slot = begin; slot < end; ++slot) {
      Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
      const SlotInverseMass& m = problem.inverseMass[slot];
      for (const int* k = contacts.begin(slot); k != contacts.end(slot); ++k) {
        const ContactBlock& block = problem.blocks[*k];
        const Vec4 deltaLambda = lambda.segment<4>(4 * *k);
        const Vec3 impulse = block.frame * deltaLambda.head<3>();
        const Vec3 torsion = block.frame.col(0) * deltaLambda[kTorsion];
        if (block.slotB == slot) addSideResponse<+1>(m, block.armB, impulse, torsion, linear, angular);
        else addSideResponse<-1>(m, block.armA, impulse, torsion, linear, angular);
      }
      w.segment<3>(6 * slot) = linear;
      w.segment<3>(6 * slot + 3) = angular;
    }
  });
}

}  // namespace contactlab
