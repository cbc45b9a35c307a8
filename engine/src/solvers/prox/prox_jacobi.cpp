#include "solvers/prox/prox_jacobi.h"

namespace contactlab {

double ProxJacobi::sweep(const ContactProblem& problem, const RFactors& r, Eigen::VectorXd& lambda) {
  // Alg. 1, lines 3-4: w = M^-1 J^T lambda^k, then z = lambda^k - R (J w + b) per contact.
  applyInvMassJt(problem, lambda, w_);
  next_.resize(lambda.size());
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    const Vec4 previous = lambda.segment<4>(4 * k);
    // Lines 7-8: the friction set is sized by the previous normal impulse lambda_n^k.
    const Vec4 next = proxContactUpdate(block, r, k, previous, contactVelocity(block, w_), FrictionSetFrom::PreviousNormal);
    next_.segment<4>(4 * k) = next;
    merit = mergeMerit(merit, block, next - previous);
  }
  lambda.swap(next_);
  return merit;
}

}  // namespace contactlab
