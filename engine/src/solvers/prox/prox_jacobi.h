#pragma once
#include "solvers/prox/prox_solver.h"

namespace contactlab {

// PROX Jacobi (paper Alg. 1): every contact updated from the previous iterate; the sweep is
// independent per contact and so parallelizes.
class ProxJacobi final : public ProxSolver {
 protected:
  double sweep(const ContactProblem& problem, const RFactors& r, Eigen::VectorXd& lambda) override;
  void resetFrom(const ContactProblem&, const Eigen::VectorXd&) override {}

 private:
  Eigen::VectorXd next_;  // 4 * numContacts: lambda^{k+1} while lambda^k is still read
};

}  // namespace contactlab
