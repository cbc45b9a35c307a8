#include "solvers/prox/prox_gauss_seidel.h"

namespace contactlab {

void ProxGaussSeidel::resetFrom(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  // Alg. 2, line 3.
  applyInvMassJt(problem, lambda, w_);
}

double ProxGaussSeidel::sweep(const ContactProblem& problem, const RFactors& r, Eigen::VectorXd& lambda) {
  double merit = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    const Vec4 previous = lambda.segment<4>(4 * k);
    // eq. 25 and lines 6-8: the friction set uses the new normal impulse.
    const Vec4 next = proxContactUpdate(block, r, k, previous, contactVelocity(block, w_), FrictionSetFrom::NewNormal);
    const Vec4 delta = next - previous;
    // eq. 26 (line 9): keep w in step with lambda.
    addInvMassJt(problem, k, delta, w_);
    lambda.segment<4>(4 * k) = next;
    merit = mergeMerit(merit, block, delta);
  }
  return merit;
}

}  // namespace contactlab
