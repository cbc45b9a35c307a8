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
