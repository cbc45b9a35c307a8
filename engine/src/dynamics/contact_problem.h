#pragma once
// The contact problem of one step (PROX paper appendix A): per contact a 4-row block (n, t, s, tau)
// of J, W = M^-1 J^T, b and the friction coefficients. Rebuilt every step; solvers only read it.
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

using Mat46 = Eigen::Matrix<double, 4, 6>;
using Mat64 = Eigen::Matrix<double, 6, 4>;

// Rows of a contact block, in the order of eq. 52.
enum ContactRow { kNormal = 0, kTangentT = 1, kTangentS = 2, kTorsion = 3 };

struct ContactBlock {
  int slotA = -1;  // dynamic-body slot of body i, -1 when it does not move in the solve (static, kinematic)
  int slotB = -1;  // dynamic-body slot of body j
  Mat46 jacobianA = Mat46::Zero();  // J_{k,i}, eq. 56 (zero when slotA < 0)
  Mat46 jacobianB = Mat46::Zero();  // J_{k,j}, eq. 56
  Mat64 invMassJtA = Mat64::Zero();  // (M^-1 J^T)_{i,k}
  Mat64 invMassJtB = Mat64::Zero();  // (M^-1 J^T)_{j,k}
  Vec4 b = Vec4::Zero();             // v = A lambda + b: free contact velocity plus impact/gap terms, eq. 22
  Vec4 diagonalA = Vec4::Zero();     // diag of the 4x4 block A_kk = J_k M^-1 J_k^T
  Vec3 friction = Vec3::Zero();      // (mu_s, mu_t, mu_tau) of eq. 16; mu_tau is a length
};

struct ContactProblem {
  int numSlots = 0;  // dynamic bodies; w = M^-1 J^T lambda has 6 entries per slot: (linear, angular)
  std::vector<ContactBlock> blocks;
  int numContacts() const { return static_cast<int>(blocks.size()); }
  int numRows() const { return 4 * numContacts(); }
};

// The 4x4 diagonal block A_kk = J_ki W_ki + J_kj W_kj (needed by the Blocked r-factor, eq. 40).
Mat4 diagonalBlock(const ContactBlock& block);

// w = M^-1 J^T lambda; w has 6 * numSlots entries, lambda 4 * numContacts.
void applyInvMassJt(const ContactProblem& problem, const Eigen::VectorXd& lambda, Eigen::VectorXd& w);
// v = J w + b for contact k (the contact velocity given w = M^-1 J^T lambda).
Vec4 contactVelocity(const ContactBlock& block, const Eigen::VectorXd& w);
// Adds (M^-1 J^T)_k * deltaLambda into w (PROX Alg. 2, line 9).
void addInvMassJt(const ContactBlock& block, const Vec4& deltaLambda, Eigen::VectorXd& w);

}  // namespace contactlab
