#pragma once
#include "solvers/prox/prox_solver.h"

namespace contactlab {

// PROX Jacobi (paper Alg. 1): every contact updated from the previous iterate; the sweep is
// independent per contact and so parallelizes.
class ProxJacobi final : public ProxSolver {
 protected:
  void setIterate(const ContactProblem&, const Eigen::VectorXd& lambda) override { lambda_ = lambda; }
  double sweep(const ContactProblem& problem, const RFactors& r) override;
  void keepBestIterate() override { best_ = lambda_; }
  void restoreBestIterate(const ContactProblem&) override { lambda_ = best_; }
  void getIterate(Eigen::VectorXd& lambda) const override { lambda = lambda_; }

 private:
  // 4 * numContacts each (n, t, s, tau per contact):
  Eigen::VectorXd lambda_;  // lambda^k
  Eigen::VectorXd next_;    // lambda^{k+1} while lambda^k is still read
  Eigen::VectorXd best_;    // the iterate with the lowest merit, restored on divergence
};

}  // namespace contactlab
