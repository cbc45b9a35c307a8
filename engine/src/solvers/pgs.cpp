#include "solvers/pgs.h"

#include <algorithm>
#include <limits>

namespace contactlab {

void BoxGaussSeidelSweep::prepare(const ContactProblem& problem) {
  blockA_.resize(problem.numContacts());
  for (int k = 0; k < problem.numContacts(); ++k) blockA_[k] = diagonalBlock(problem, k);
}

void BoxGaussSeidelSweep::setIterate(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  lambda_ = lambda;
  applyInvMassJt(problem, lambda_, w_);
}

double BoxGaussSeidelSweep::sweep(const ContactProblem& problem, const RFactors& r) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    const Mat4& a = blockA_[k];
    const Vec4 step = r.scale() * r.unscaledDiagonal(k);  // r_i = omega / A_ii
    const Vec4 previous = lambda_.segment<4>(4 * k);
    // v = J_k w + b_k with the latest impulses of every other contact (eq. 25).
    Vec4 v = contactVelocity(block, w_);
    Vec4 next = previous;
    // PGS-SM paper eq. 16-17 for row i: lambda_i = min(u_i, max(l_i, lambda_i - r_i v_i)), then
    // v += A_{k,i} (change) so the next row of this contact sees it.
    for (int i = 0; i < 4; ++i) {
      const double upper = i == kNormal ? kInfinity : block.friction[i - 1] * next[kNormal];
      const double lower = i == kNormal ? 0.0 : -upper;
      const double value = std::clamp(next[i] - step[i] * v[i], lower, upper);
      const double change = value - next[i];
      if (change != 0.0) {
        v += a.col(i) * change;
        next[i] = value;
      }
    }
    const Vec4 delta = next - previous;
    addInvMassJt(problem, k, delta, w_);  // eq. 26
    lambda_.segment<4>(4 * k) = next;
    merit = ProxSolver::mergeMerit(merit, block, delta);
  }
  return merit;
}

}  // namespace contactlab
