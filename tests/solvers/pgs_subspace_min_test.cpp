// PGS with subspace minimization (solvers/pgs_subspace_min.h).
#include "solvers/pgs_subspace_min.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/contact_problems.h"

namespace contactlab {
namespace {

using test::solveFromZero;

double merit(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  BodySpaceRows rows;
  rows.bind(problem);
  rows.setIterate(lambda);
  return PgsSubspaceMinimization::fischerMerit(rows, lambda);
}

SolverSettings pgsTo(double tolerance) {
  SolverSettings s;
  s.solver = "pgs";
  s.maxIterations = 200000;
  s.tolAbs = tolerance;
  s.tolRel = 0.0;
  s.stallWindow = 0;
  return s;
}

// The acceptance test: PGS-SM converges on small stacked problems (a column of 3-5 boxes)
// to the solution PGS reaches with its merit below 1e-12.
TEST(PgsSubspaceMinimization, ConvergesOnSmallStacksToThePgsSolution) {
  for (int count = 3; count <= 5; ++count)
    for (unsigned seed : {1u, 2u, 3u}) {
      const auto p = test::makeColumnProblem(count, seed);
      SolveReport pgsReport;
      const Eigen::VectorXd reference = solveFromZero(p.problem, pgsTo(1e-12), &pgsReport);
      ASSERT_TRUE(pgsReport.converged());
      SolverSettings s;
      s.solver = "pgs-sm";
      s.maxIterations = 2000;
      s.tolAbs = 1e-24;  // psi is half a sum of squared velocities: ||phi|| < 1.4e-12 m/s
      s.tolRel = 0.0;
      s.stallWindow = 0;
      SolveReport report;
      const Eigen::VectorXd lambda = solveFromZero(p.problem, s, &report);
      EXPECT_EQ(report.convergence, Convergence::Absolute) << count << " boxes, seed " << seed;
      EXPECT_LT((lambda - reference).cwiseAbs().maxCoeff(), 1e-8 * reference.cwiseAbs().maxCoeff())
          << count << " boxes, seed " << seed;
      // The subspace steps are the point: PGS-SM gets there in fewer iterations than PGS.
      EXPECT_LT(report.iterations, pgsReport.iterations) << count << " boxes, seed " << seed;
    }
}

// psi vanishes at the solution of the box problem (PGS run tight) and not elsewhere.
TEST(PgsSubspaceMinimization, FischerMeritIsZeroOnlyAtTheSolution) {
  const ContactProblem problem = test::makeRandomProblem(10, 3, 0.3);
  const Eigen::VectorXd solution = solveFromZero(problem, pgsTo(1e-14));
  EXPECT_LT(merit(problem, solution), 1e-24);
  for (int i = 0; i < solution.size(); ++i) {
    Eigen::VectorXd moved = solution;
    moved[i] += 1e-3;
    EXPECT_GT(merit(problem, moved), 1e-12) << "row " << i;
  }
}

TEST(PgsSubspaceMinimization, IterationCountsDoNotDependOnTheUnitOfMass) {
  const auto grams = test::makeColumnProblem(6, 5, 1.0);
  const auto tonnes = test::makeColumnProblem(6, 5, 1000.0);
  SolverSettings s;
  s.solver = "pgs-sm";
  s.tolAbs = 1e-10;
  SolveReport light, heavy;
  const Eigen::VectorXd lambdaLight = solveFromZero(grams.problem, s, &light);
  const Eigen::VectorXd lambdaHeavy = solveFromZero(tonnes.problem, s, &heavy);
  EXPECT_EQ(light.iterations, heavy.iterations);
  EXPECT_LT((lambdaHeavy / 1000.0 - lambdaLight).cwiseAbs().maxCoeff(), 1e-9 * lambdaLight.cwiseAbs().maxCoeff());
}

TEST(PgsSubspaceMinimization, WarmStartFromTheSolutionStopsAtOnce) {
  const auto p = test::makeColumnProblem(5, 11);
  Eigen::VectorXd lambda = solveFromZero(p.problem, pgsTo(1e-14));
  SolverSettings s;
  s.solver = "pgs-sm";
  const SolveReport report = makeSolver("pgs-sm")->solve(p.problem, s, lambda);
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(report.convergence, Convergence::Absolute);
}

// Sec. 4.3's fall-back: whatever happens in the subspace steps, the solve returns the best iterate
// it saw, and the reported residual is its merit.
TEST(PgsSubspaceMinimization, ReturnsTheBestIterate) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const ContactProblem problem = test::makeRandomProblem(18, seed, 0.5);
    SolverSettings s;
    s.solver = "pgs-sm";
    s.pgsSm.pgsSweeps = 3;  // a poor active set for the subspace steps to start from
    s.tolAbs = 0.0;
    s.tolRel = 0.0;
    s.stallWindow = 0;
    s.maxIterations = 40;
    SolveReport report;
    const Eigen::VectorXd lambda = solveFromZero(problem, s, &report);
    ASSERT_EQ(report.residualHistory.size(), 40u);
    const double best = *std::min_element(report.residualHistory.begin(), report.residualHistory.end());
    EXPECT_LE(report.residual, best);
    EXPECT_NEAR(merit(problem, lambda), report.residual, 1e-12 * (1.0 + report.residual));
  }
}

}  // namespace
}  // namespace contactlab
