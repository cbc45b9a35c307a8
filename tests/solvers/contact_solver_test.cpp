// What every registered solver reports about its time (engine/src/solvers/contact_solver.cpp, the
// registry; SolveReport in contactlab/metrics.h).
#include <gtest/gtest.h>

#include <limits>
#include <span>
#include <vector>

#include "solvers/contact_solver.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

// The iterating part of a solve is timed inside the solve's own clock: filled (above zero) once a
// sweep ran, and never more than the whole solve.
TEST(ContactSolver, EverySolverTimesItsIterationsWithinTheSolve) {
  const auto p = test::makeColumnProblem(6, 3);
  for (const SolverDescription& description : solverNames()) {
    SolverSettings settings;
    settings.solver = description.name;
    settings.tolAbs = 0.0;  // exactly maxIterations sweeps
    settings.tolRel = 0.0;
    settings.stallWindow = 0;
    settings.maxIterations = 20;
    const auto solver = makeSolver(description.name);
    ASSERT_NE(solver, nullptr) << description.name;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(p.problem.numRows());
    const SolveReport report = solver->solve(p.problem, settings, lambda);
    ASSERT_GT(report.iterations, 0) << description.name;
    EXPECT_GT(report.iterationSeconds, 0.0) << description.name;
    EXPECT_LE(report.iterationSeconds, report.seconds) << description.name;
  }
}

SolverSettings stallOnly(int window) {
  SolverSettings settings;
  settings.tolAbs = settings.tolRel = 0.0;
  settings.stallWindow = window;
  return settings;
}

// stoppingTest's stall test: the least merit of the last `window` sweeps must be below half the
// least merit before them, or the solve has stalled.
TEST(StoppingTest, ASolveStallsWhenItsWindowDoesNotHalveTheLeastMerit) {
  const SolverSettings settings = stallOnly(3);
  const std::vector<double> halving{8, 4, 2, 1};
  for (std::size_t n = 1; n <= halving.size(); ++n)
    EXPECT_EQ(stoppingTest(settings, std::span(halving).first(n)), Convergence::None) << n;
  // 1.1 / 2 / 1.9 stay above half of 1 (the least before): stalled once the window is past them.
  const std::vector<double> flat{1, 1.1, 2, 1.9};
  EXPECT_EQ(stoppingTest(settings, std::span(flat).first(3)), Convergence::None);  // no sweep before the window
  EXPECT_EQ(stoppingTest(settings, flat), Convergence::Stalled);
  // A merit that rises first (a warm start's small first sweep) and then halves is not stalled.
  const std::vector<double> rising{1, 3, 2, 0.4};
  EXPECT_EQ(stoppingTest(settings, rising), Convergence::None);
  // Exactly half is not below half.
  const std::vector<double> half{1, 0.9, 0.7, 0.5};
  EXPECT_EQ(stoppingTest(settings, half), Convergence::Stalled);
}

TEST(StoppingTest, RolledBackSweepsCountAsNoMeritAndAWindowOfZeroNeverStalls) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> merits{nan, 1, 0.9, 0.8, 0.7};
  EXPECT_EQ(stoppingTest(stallOnly(3), merits), Convergence::Stalled);
  const std::vector<double> nanInWindow{1, nan, nan, 0.4};
  EXPECT_EQ(stoppingTest(stallOnly(3), nanInWindow), Convergence::None);
  EXPECT_EQ(stoppingTest(stallOnly(0), std::vector<double>(100, 1.0)), Convergence::None);
}

TEST(StoppingTest, TheAbsoluteTestComesFirstThenThePapersRelativeTest) {
  SolverSettings settings = stallOnly(2);
  settings.tolAbs = 1e-3;
  settings.tolRel = 1e-2;
  EXPECT_EQ(stoppingTest(settings, std::vector<double>{1, 1, 1, 5e-4}), Convergence::Absolute);
  EXPECT_EQ(stoppingTest(settings, std::vector<double>{1, 0.5, 0.4, 0.399}), Convergence::Relative);
  EXPECT_EQ(stoppingTest(settings, std::vector<double>{1, 0.5, 0.4, 0.3}), Convergence::Stalled);
  EXPECT_EQ(stoppingTest(settings, std::vector<double>{}), Convergence::None);
}

}  // namespace
}  // namespace contactlab
