#include "solvers/prox/prox_solver.h"

#include <cmath>
#include <limits>

#include "core/stage_timer.h"

namespace contactlab {

SolveReport ProxSolver::solve(const ContactProblem& problem, const SolverSettings& settings,
                              Eigen::VectorXd& lambda) {
  const Stopwatch watch;
  SolveReport report;
  if (problem.numContacts() == 0) {
    report.convergence = Convergence::Absolute;
    return report;
  }
  rFactors_.initialize(settings.rFactor, problem);
  report.initialGlobalR = rFactors_.initialGlobalR();
  resetFrom(problem, lambda);
  acceptedLambda_ = lambda;

  // Alg. 1-2, line 1: r^0 = infinity, so the first sweep is always accepted.
  double acceptedMerit = std::numeric_limits<double>::infinity();
  while (report.iterations < settings.maxIterations) {
    const double scaleUsed = rFactors_.scale();
    const double merit = sweep(problem, rFactors_, lambda);
    ++report.iterations;
    report.residualHistory.push_back(merit);
    report.rFactorHistory.push_back(scaleUsed);

    // Lines 11-13: divergence (or a non-finite merit) rejects the sweep and shrinks R.
    if (!(merit <= acceptedMerit)) {
      ++report.rollbacks;
      rFactors_.backtrack();
      lambda = acceptedLambda_;
      resetFrom(problem, lambda);
      continue;
    }
    const double previousMerit = acceptedMerit;
    acceptedMerit = merit;
    acceptedLambda_ = lambda;
    report.residual = merit;
    if (settings.tolAbs > 0.0 && merit < settings.tolAbs) {
      report.convergence = Convergence::Absolute;
      break;
    }
    if (settings.tolRel > 0.0 && std::isfinite(previousMerit) &&
        std::abs(previousMerit - merit) < settings.tolRel * previousMerit) {
      report.convergence = Convergence::Relative;
      break;
    }
  }
  // A trailing rejected sweep leaves lambda at the last accepted iterate already.
  report.seconds = watch.elapsedSeconds();
  return report;
}

}  // namespace contactlab
