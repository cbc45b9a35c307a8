// PROX-GS on a Delassus problem with SolverSettings::problemFile.localIterations > 1 (prox_delassus.cpp): the
// block Gauss-Seidel sweep solves each contact's local problem, checked against closed-form solutions.
#include "solvers/prox/prox_delassus.h"

#include <gtest/gtest.h>

#include "solvers/contact_solver.h"
#include "problem/natural_map.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

// One contact, W = [2 0.5 0; 0.5 1 0; 0 0 1] on (n, t, s), q = (-1, 3, 0), mu = 0.5. It slides
// (sticking would need |lambda_t| = 3 - 0.5 lambda_n > mu lambda_n), so lambda_t = -mu lambda_n,
// lambda_s = 0 and v_n = 0: 2 lambda_n - 0.5 mu lambda_n = 1, lambda_n = 1 / 1.75; the slip
// velocity v_t = 0.5 lambda_n + lambda_t + 3 = 3 > 0 opposes lambda_t.
DelassusProblem slidingContact() {
  Mat4 w = Mat4::Identity();
  w(0, 0) = 2.0;
  w(0, 1) = w(1, 0) = 0.5;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(4);
  q[0] = -1.0;
  q[1] = 3.0;
  return makeDelassusProblem({{{0, w}}}, q, {Vec3(0.5, 0.5, 0.0)});
}

Eigen::VectorXd oneSweep(const DelassusProblem& problem, int localIterations, bool exact = false) {
  SolverSettings settings;
  settings.problemFile.exactLocalSolve = exact;
  settings.prox.rFactor = RFactorStrategy::Local;
  settings.maxIterations = 1;
  settings.tolAbs = 0.0;
  settings.tolRel = 0.0;
  settings.stallWindow = 0;
  settings.problemFile.localIterations = localIterations;
  settings.problemFile.localTolerance = 1e-15;
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  makeSolver("prox-gs")->solve(problem, settings, lambda);
  return lambda;
}

TEST(ProxDelassusLocalIterations, OneSweepSolvesASingleContactExactly) {
  const DelassusProblem problem = slidingContact();
  const double normal = 1.0 / 1.75;
  const Eigen::Vector4d exact(normal, -0.5 * normal, 0.0, 0.0);
  const Eigen::VectorXd block = oneSweep(problem, 200);
  EXPECT_LT((block - exact).cwiseAbs().maxCoeff(), 1e-12) << block.transpose();
  EXPECT_LT(naturalMapResidual(problem, block), 1e-12);
  // Alg. 2's single step per sweep is far from it after one sweep (the friction set is still {0}).
  EXPECT_GT((oneSweep(problem, 1) - exact).cwiseAbs().maxCoeff(), 0.1);
  // The exact local solve gets it in its one step.
  EXPECT_LT((oneSweep(problem, 1, true) - exact).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(ProxDelassusLocalIterations, ReachTheSameSolutionAsAlgorithm2OnAColumn) {
  // The column problem's solution is unique (contact_problems.h), so the block sweep must find it.
  const auto p = test::makeColumnProblem(6, 4);
  const DelassusProblem d = toDelassus(p.problem);
  SolverSettings settings;
  settings.prox.rFactor = RFactorStrategy::Local;
  settings.tolAbs = 1e-13;
  settings.tolRel = 0.0;
  settings.stallWindow = 0;
  settings.maxIterations = 20000;
  Eigen::VectorXd plain = Eigen::VectorXd::Zero(d.numRows()), block = plain;
  const SolveReport plainReport = makeSolver("prox-gs")->solve(d, settings, plain);
  settings.problemFile.localIterations = 10;
  settings.problemFile.localTolerance = 0.01;
  const SolveReport blockReport = makeSolver("prox-gs")->solve(d, settings, block);
  ASSERT_TRUE(plainReport.converged());
  ASSERT_TRUE(blockReport.converged());
  EXPECT_LT((plain - block).cwiseAbs().maxCoeff(), 1e-8 * plain.cwiseAbs().maxCoeff());
  EXPECT_LT(blockReport.naturalMapResidual, 1e-10);
  // And with exact local solves (NSGS's sweep), which has no r-factor to back-track.
  settings.problemFile.exactLocalSolve = true;
  Eigen::VectorXd exact = Eigen::VectorXd::Zero(d.numRows());
  const SolveReport exactReport = makeSolver("prox-gs")->solve(d, settings, exact);
  ASSERT_TRUE(exactReport.converged());
  EXPECT_EQ(exactReport.rollbacks, 0);
  EXPECT_LT((plain - exact).cwiseAbs().maxCoeff(), 1e-8 * plain.cwiseAbs().maxCoeff());
  EXPECT_LT(exactReport.naturalMapResidual, 1e-10);
}

}  // namespace
}  // namespace contactlab
