// What every registered solver reports about its time (engine/src/solvers/contact_solver.cpp, the
// registry; SolveReport in contactlab/metrics.h).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace contactlab
