#pragma once
#include "solvers/prox/prox_solver.h"

namespace contactlab {

// PROX Gauss-Seidel (paper Alg. 2): contacts in order, each using the freshest impulses through
// w = M^-1 J^T lambda (the factorization of eqs. 25-26).
class ProxGaussSeidel final : public ProxSolver {
 protected:
  double sweep(const ContactProblem& problem, const RFactors& r, Eigen::VectorXd& lambda) override;
  void resetFrom(const ContactProblem& problem, const Eigen::VectorXd& lambda) override;
};

}  // namespace contactlab
