#pragma once
// A contact problem in the Delassus form v = W lambda + q (PROX paper eq. 22 with A = W), as the
// Siconos frictional contact files give it: no bodies, only the 4x4 blocks of W per contact pair
// (rows n, t, s, tau per contact, the ContactProblem's order), q and the friction coefficients.
//
// Three-row problems (Siconos FC3D: n, t1, t2, no torsion) are stored with the same four rows: the
// torsion row is decoupled, W_tautau = 1 and zero elsewhere in its row and column, q_tau = 0 and
// mu_tau = 0. Its friction set is then {0}, every solver returns lambda_tau = 0 and v_tau = 0, and
// the natural-map residual of that row is zero: the 4-row problem is the 3-row one, exactly.
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

struct ContactProblem;

struct DelassusProblem {
  // Block-row storage (block CSR): the nonzero blocks of block row k are blocks[rowStart[k]] ..
  // blocks[rowStart[k + 1] - 1], sorted by column (blockColumn); every row holds its diagonal block.
  std::vector<int> rowStart{0};  // numContacts() + 1 entries
  std::vector<int> blockColumn;
  std::vector<Mat4> blocks;
  std::vector<int> diagonalIndex;  // per contact: the index of W_kk in blocks
  Eigen::VectorXd q;               // 4 per contact
  std::vector<Vec3> friction;      // per contact (mu_s, mu_t, mu_tau), as ContactBlock::friction

  int numContacts() const { return static_cast<int>(rowStart.size()) - 1; }
  int numRows() const { return 4 * numContacts(); }
  const Mat4& diagonalBlock(int k) const { return blocks[diagonalIndex[k]]; }

  // v_k = q_k + sum_l W_kl lambda_l, the contact velocity of contact k (delassus_problem.cpp).
  Vec4 velocity(int k, const Eigen::VectorXd& lambda) const;
  // v = W lambda + q for all contacts.
  Eigen::VectorXd velocities(const Eigen::VectorXd& lambda) const;
  // The dense 4n x 4n W (tests, small problems).
  Eigen::MatrixXd denseW() const;
};

// v_k = q_k + sum_l W_kl lambda_l over block row k (DelassusProblem::velocity). Each 4x4 block
// times its 4-vector is four columns of four doubles scaled and added, ((W_0 l_0 + W_1 l_1) +
// W_2 l_2) + W_3 l_3 row by row, written with a four-double vector: compiled inside an AVX2 clone a
// column is one instruction, for baseline x86-64 two. Neither uses FMA, so both round alike. Forced
// inline so that the Gauss-Seidel sweep's AVX2 clone keeps the vector in registers.
[[gnu::always_inline]] inline Vec4 blockRowVelocity(const DelassusProblem& problem, int k, const double* lambda) {
  using Column = double __attribute__((vector_size(4 * sizeof(double)), aligned(sizeof(double))));
  Column v = *reinterpret_cast<const Column*>(problem.q.data() + 4 * k);
  for (int b = problem.rowStart[k]; b < problem.rowStart[k + 1]; ++b) {
    const Column* w = reinterpret_cast<const Column*>(problem.blocks[b].data());  // column-major: w[c] is column c
    const double* l = lambda + 4 * problem.blockColumn[b];
    v += ((w[0] * l[0] + w[1] * l[1]) + w[2] * l[2]) + w[3] * l[3];
  }
  return Vec4(v[0], v[1], v[2], v[3]);
}

// Builds the problem from per-row lists of (column, block): sorts each row by column, adds the
// blocks of repeated columns, and inserts a zero diagonal block where a row has none. Throws
// std::invalid_argument for a column out of range or sizes that disagree.
struct DelassusBlockEntry {
  int column = 0;
  Mat4 block = Mat4::Zero();
};
DelassusProblem makeDelassusProblem(std::vector<std::vector<DelassusBlockEntry>> rows, Eigen::VectorXd q,
                                    std::vector<Vec3> friction);

// W = J M^-1 J^T and q = b of a body-space problem. Two contacts couple (a nonzero W_kl) when they
// share a dynamic body; W_kl is the sum over the shared bodies s of J_ks M_s^-1 J_ls^T.
DelassusProblem toDelassus(const ContactProblem& problem);

}  // namespace contactlab
