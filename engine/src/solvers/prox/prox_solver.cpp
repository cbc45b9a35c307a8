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
  const double fixedScale = fixedLocalRScale(settings);
  const bool adaptive = fixedScale <= 0.0;
  rFactors_.initialize(adaptive ? settings.rFactor : RFactorStrategy::Local, problem);
  if (!adaptive) rFactors_.setScale(fixedScale);
  report.initialGlobalR = rFactors_.initialGlobalR();
  prepare(problem, rFactors_);
  setIterate(problem, lambda);
  keepBestIterate();

  // Alg. 1-2, line 1: r^0 = infinity, so the first sweep is always accepted.
  double previousMerit = std::numeric_limits<double>::infinity();
  double bestMerit = std::numeric_limits<double>::infinity();
  while (report.iterations < settings.maxIterations) {
    const double scaleUsed = rFactors_.scale();
    const double merit = sweep(problem, rFactors_);
    ++report.iterations;
    report.residualHistory.push_back(merit);
    report.rFactorHistory.push_back(scaleUsed);

    // Lines 11-13: divergence (or a non-finite merit) rolls back and shrinks R.
    // Departure from the paper, which calls any r^{k+1} > r^k divergence: the infinity-norm merit
    // of a convergent sweep can grow for several sweeps before it falls (the sweep operator is not
    // normal), and since the merit shrinks with R, every false alarm makes the next likelier until
    // R collapses and the iteration stalls (tests/solvers/prox/prox_solvers_test.cpp shows it on a
    // column of boxes). We call it divergence when the merit exceeds kDivergenceGrowth times the
    // best merit seen; a diverging iteration grows geometrically and trips this within a few
    // sweeps, and we roll back to the best iterate (the warm start until a sweep is accepted, so
    // a first sweep that overflows is rolled back too).
    if (!std::isfinite(merit) || (adaptive && merit > kDivergenceGrowth * bestMerit)) {
      ++report.rollbacks;
      restoreBestIterate(problem);
      if (!adaptive) break;
      rFactors_.backtrack();
      previousMerit = bestMerit;
      continue;
    }
    if (merit <= bestMerit) {
      bestMerit = merit;
      keepBestIterate();
    }
    report.residual = merit;
    report.convergence = stoppingTest(settings, previousMerit, merit);
    previousMerit = merit;
    if (report.converged()) break;
  }
  // A trailing rejected sweep has already rolled the iterate back to the best one.
  getIterate(lambda);
  report.seconds = watch.elapsedSeconds();
  return report;
}

}  // namespace contactlab
