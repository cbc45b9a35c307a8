#include "solvers/prox/prox_solver.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "core/stage_timer.h"
#include "problem/natural_map.h"
#include "solvers/prox/subspace_step.h"

namespace contactlab {

// The two forms of the problem, seen by the outer loop through the same five calls.
struct ProxSolver::BodySpaceIteration {
  ProxSolver& solver;
  const ContactProblem& problem;
  void initialize(RFactors& r, RFactorStrategy strategy) {
    r.initialize(strategy, problem);
    solver.prepare(problem, r);
  }
  bool sweepUsesR() const { return true; }
  void setIterate(const Eigen::VectorXd& lambda) { solver.setIterate(problem, lambda); }
  double sweep(const RFactors& r) { return solver.sweep(problem, r); }
  void keepBestIterate() { solver.keepBestIterate(); }
  void restoreBestIterate() { solver.restoreBestIterate(problem); }
  void getIterate(Eigen::VectorXd& lambda) const { solver.getIterate(lambda); }
  double naturalMap(Eigen::VectorXd& scratch) const {
    solver.getIterate(scratch);
    return naturalMapResidual(problem, scratch);
  }
  static constexpr bool kHasSubspaceStep = false;  // it needs W, which body space never forms
};

struct ProxSolver::DelassusIteration {
  ProxDelassusSweep& sweeper;
  const DelassusProblem& problem;
  const SolverSettings& settings;
  void initialize(RFactors& r, RFactorStrategy strategy) {
    r.initialize(strategy, problem);
    sweeper.prepare(problem, settings);
  }
  bool sweepUsesR() const { return !sweeper.solvesContactsExactly(); }
  void setIterate(const Eigen::VectorXd& lambda) { sweeper.setIterate(lambda); }
  double sweep(const RFactors& r) { return sweeper.sweep(problem, r); }
  void keepBestIterate() { sweeper.keepBestIterate(); }
  void restoreBestIterate() { sweeper.restoreBestIterate(); }
  void getIterate(Eigen::VectorXd& lambda) const { sweeper.getIterate(lambda); }
  double naturalMap(Eigen::VectorXd& scratch) const {
    sweeper.getIterate(scratch);
    return naturalMapResidual(problem, scratch);
  }
  // SolverSettings::problemFile.subspaceInterval: the iterate becomes the subspace step's candidate when
  // that has the smaller natural-map residual.
  static constexpr bool kHasSubspaceStep = true;
  Eigen::MatrixXd denseW{};
  Eigen::VectorXd candidate{};
  struct SubspaceOutcome {
    bool replaced;
    double naturalMap;  // of the iterate kept
  };
  SubspaceOutcome subspaceStep(Eigen::VectorXd& scratch) {
    if (denseW.size() == 0) denseW = problem.denseW();
    const double current = naturalMap(scratch);
    const double stepped = contactlab::subspaceStep(problem, denseW, scratch, settings.naturalMapTolerance, candidate);
    if (!(stepped < current)) return {false, current};
    sweeper.setIterate(candidate);
    return {true, stepped};
  }
};

SolveReport ProxSolver::solve(const ContactProblem& problem, const SolverSettings& settings,
                              Eigen::VectorXd& lambda) {
  return run(problem.numContacts(), settings, lambda, BodySpaceIteration{*this, problem});
}

SolveReport ProxSolver::solve(const DelassusProblem& problem, const SolverSettings& settings,
                              Eigen::VectorXd& lambda) {
  return solveWithNaturalMap(problem, lambda, [&] {
    return run(problem.numContacts(), settings, lambda, DelassusIteration{delassusSweep_, problem, settings});
  });
}

template <class Iteration>
SolveReport ProxSolver::run(int contacts, const SolverSettings& settings, Eigen::VectorXd& lambda,
                            Iteration&& iteration) {
  if (contacts == 0) return emptyProblemReport();
  const Stopwatch watch;
  SolveReport report;
  // PGS and PSOR: fixed Local r-factors, no back-tracking (see fixedLocalRScale).
  const double fixedScale = fixedLocalRScale(settings);
  const bool adaptive = fixedScale <= 0.0;
  // The box solvers (PGS, PSOR) solve another problem than the Coulomb one, whose natural map need
  // not vanish at their solution: they stop on their own merit (SolverSettings::naturalMapTolerance).
  const bool coulombProblem = delassusSweep_.algorithm() != ProxAlgorithm::BoxGaussSeidel;
  const bool stopOnNaturalMap = settings.naturalMapTolerance > 0.0 && coulombProblem;
  // SolverSettings::problemFile.subspaceInterval; not for the box solvers either: the step solves the
  // Coulomb problem.
  const bool subspaceSteps = settings.problemFile.subspaceInterval > 0 && coulombProblem;
  iteration.initialize(rFactors_, adaptive ? settings.prox.rFactor : RFactorStrategy::Local);
  if (!adaptive) rFactors_.setScale(fixedScale);
  // Back-tracking changes R to tame a diverging sweep; a sweep that does not use R (exact local
  // solves) would only repeat itself, so it is treated as a fixed R.
  const bool backtracking = adaptive && iteration.sweepUsesR();
  report.initialGlobalR = rFactors_.initialGlobalR();
  iteration.setIterate(lambda);
  iteration.keepBestIterate();

  // Alg. 1-2, line 1: r^0 = infinity, so the first sweep is always accepted.
  double bestMerit = std::numeric_limits<double>::infinity();
  // The stopping test reads the merits from here on: after a roll-back or a replaced iterate it
  // starts afresh, as the paper's r^0 = infinity does.
  std::size_t testedFrom = 0;
  const Stopwatch iterating;
  while (report.iterations < settings.maxIterations) {
    const double scaleUsed = rFactors_.scale();
    const double merit = iteration.sweep(rFactors_);
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
    if (!std::isfinite(merit) || (backtracking && merit > kDivergenceGrowth * bestMerit)) {
      ++report.rollbacks;
      iteration.restoreBestIterate();
      if (!backtracking) break;  // fixed R: the same sweep would follow
      rFactors_.backtrack();
      testedFrom = report.residualHistory.size();
      continue;
    }
    if (merit <= bestMerit) {
      bestMerit = merit;
      iteration.keepBestIterate();
    }
    report.residual = merit;
    if constexpr (std::remove_reference_t<Iteration>::kHasSubspaceStep) {
      if (subspaceSteps && report.iterations % settings.problemFile.subspaceInterval == 0) {
        const auto [replaced, error] = iteration.subspaceStep(scratch_);
        if (stopOnNaturalMap && error < settings.naturalMapTolerance) {
          report.convergence = Convergence::Absolute;
          break;
        }
        if (replaced) {
          // A new start, as at the top: a roll-back returns here, divergence is judged against the
          // sweeps from here on, and this sweep's merit, which measured the replaced iterate, stops
          // nothing.
          iteration.keepBestIterate();
          bestMerit = std::numeric_limits<double>::infinity();
          testedFrom = report.residualHistory.size();
          continue;
        }
      }
    }
    const Convergence test = stoppingTest(settings, std::span(report.residualHistory).subspan(testedFrom));
    if (stopOnNaturalMap) {
      // The common merit decides (SolverSettings::naturalMapTolerance).
      if ((test != Convergence::None || report.iterations % kNaturalMapCheckInterval == 0) &&
          iteration.naturalMap(scratch_) < settings.naturalMapTolerance) {
        report.convergence = Convergence::Absolute;
        break;
      }
      continue;
    }
    report.convergence = test;
    if (report.converged()) break;
  }
  report.iterationSeconds = iterating.elapsedSeconds();
  // A trailing rejected sweep has already rolled the iterate back to the best one.
  iteration.getIterate(lambda);
  report.seconds = watch.elapsedSeconds();
  return report;
}

}  // namespace contactlab
