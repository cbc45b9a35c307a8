#pragma once
// PROX on a problem given only as v = W lambda + q (delassus_problem.h): the scalar sweeps of
// Alg. 1 (Jacobi) and Alg. 2 (Gauss-Seidel) over W's block rows, v_k = q_k + sum_l W_kl lambda_l,
// and PGS/PSOR's box sweep (pgs.h) on the same rows.
// ProxSolver runs them in its outer loop (stopping, roll-back), as it does the body-space sweeps.
#include <limits>
#include <vector>

#include "contactlab/solver_settings.h"
#include "problem/delassus_problem.h"
#include "solvers/prox/r_factor.h"

namespace contactlab {

// PROX paper Alg. 1, Alg. 2, and Alg. 2 with the box set row by row: PGS and PSOR (pgs.h).
enum class ProxAlgorithm { Jacobi, GaussSeidel, BoxGaussSeidel };

class ProxDelassusSweep {
 public:
  explicit ProxDelassusSweep(ProxAlgorithm algorithm) : algorithm_(algorithm) {}

  // Reads SolverSettings::problemFile.localIterations, problemFile.localTolerance and problemFile.exactLocalSolve.
  void prepare(const DelassusProblem& problem, const SolverSettings& settings);
  void setIterate(const Eigen::VectorXd& lambda) {
    lambda_ = lambda;
    previousMerit_ = std::numeric_limits<double>::infinity();
  }
  // One sweep; returns the merit of ProxSolver::mergeMerit (weights: the diagonal of W).
  double sweep(const DelassusProblem& problem, const RFactors& r);
  void keepBestIterate() { best_ = lambda_; }
  void restoreBestIterate() { lambda_ = best_; }
  void getIterate(Eigen::VectorXd& lambda) const { lambda = lambda_; }
  ProxAlgorithm algorithm() const { return algorithm_; }
  // Whether the sweep solves contacts' local problems exactly, and so (for those) without R.
  bool solvesContactsExactly() const { return exactLocalSolve_ && algorithm_ == ProxAlgorithm::GaussSeidel; }

 private:
  double sweepGaussSeidel(const DelassusProblem& problem, const RFactors& r);
  double sweepGaussSeidelOneStep(const DelassusProblem& problem, const RFactors& r);
  double sweepJacobi(const DelassusProblem& problem, const RFactors& r);
  // Contact k's local problem (the others fixed), exactly (exactLocalSolve_) or by up to
  // localIterations_ proximal steps; returns the new lambda_k.
  Vec4 solveContact(const DelassusProblem& problem, const RFactors& r, int k, const Vec4& previous) const;

  ProxAlgorithm algorithm_;
  Eigen::VectorXd lambda_, next_, best_;  // 4 per contact
  std::vector<Vec4> diagonalOfW_;         // per contact: the diagonal of W_kk (the merit's weights)
  std::vector<double> share_;             // Jacobi: per contact 1 / (blocks in its block row)
  int localIterations_ = 1;
  double localTolerance_ = 0.0;
  bool exactLocalSolve_ = false;
  double previousMerit_ = std::numeric_limits<double>::infinity();  // Gauss-Seidel: the last sweep's
};

}  // namespace contactlab
