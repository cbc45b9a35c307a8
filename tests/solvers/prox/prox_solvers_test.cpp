// PROX Jacobi and Gauss-Seidel with every r-factor strategy, on problems with a unique solution.
#include <gtest/gtest.h>

#include "solvers/contact_solver.h"
#include "solvers/prox/prox_operators.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

SolverSettings tightSettings(const std::string& solver, RFactorStrategy strategy) {
  SolverSettings s;
  s.solver = solver;
  s.rFactor = strategy;
  s.maxIterations = 20000;
  s.tolAbs = 1e-13;
  s.tolRel = 0.0;
  return s;
}

Eigen::VectorXd solveFromZero(const ContactProblem& problem, const SolverSettings& settings, SolveReport* report = nullptr) {
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
  auto solver = makeSolver(settings.solver);
  const SolveReport r = solver->solve(problem, settings, lambda);
  if (report) *report = r;
  return lambda;
}

// The natural-map residual of eq. 20 with one scalar r per set (valid for any r > 0 with the
// Euclidean projection): zero exactly at a solution, independently of the solvers' r-factors.
double fixedPointResidual(const ContactProblem& problem, const Eigen::VectorXd& lambda) {
  Eigen::VectorXd w;
  applyInvMassJt(problem, lambda, w);
  double worst = 0.0;
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    const Vec4 l = lambda.segment<4>(4 * k);
    const Vec4 v = contactVelocity(block, w);
    const double rNormal = 1.0 / block.diagonalA[kNormal];
    const double rFriction = 1.0 / block.diagonalA.tail<3>().maxCoeff();
    const double normal = proxNormalCone(l[kNormal] - rNormal * v[kNormal]);
    const Vec3 friction = proxEllipsoid(l.tail<3>() - rFriction * v.tail<3>(), frictionSemiAxes(block.friction, l[kNormal]));
    worst = std::max({worst, std::abs(normal - l[kNormal]), (friction - l.tail<3>()).cwiseAbs().maxCoeff()});
  }
  return worst;
}

const RFactorStrategy kStrategies[] = {RFactorStrategy::Global, RFactorStrategy::Local, RFactorStrategy::Blocked};

TEST(ProxSolvers, AllVariantsReachTheSameUniqueSolution) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const auto p = test::makeColumnProblem(4, seed);
    const Eigen::VectorXd reference = solveFromZero(p.problem, tightSettings("prox-gs", RFactorStrategy::Local));
    ASSERT_LT(fixedPointResidual(p.problem, reference), 1e-9);
    ASSERT_GT(reference.maxCoeff(), 1.0) << "the problem must have active contacts";
    for (const char* solver : {"prox-gs", "prox-jacobi"})
      for (RFactorStrategy strategy : kStrategies) {
        SolveReport report;
        const Eigen::VectorXd lambda = solveFromZero(p.problem, tightSettings(solver, strategy), &report);
        EXPECT_TRUE(report.converged()) << solver << " " << rFactorName(strategy);
        EXPECT_LT((lambda - reference).cwiseAbs().maxCoeff(), 1e-6 * reference.cwiseAbs().maxCoeff())
            << solver << " " << rFactorName(strategy) << " seed " << seed;
      }
  }
}

TEST(ProxSolvers, WarmStartFromTheSolutionConvergesInOneIteration) {
  const auto p = test::makeColumnProblem(5, 11);
  SolverSettings loose = tightSettings("prox-gs", RFactorStrategy::Global);
  const Eigen::VectorXd solution = solveFromZero(p.problem, loose);
  for (const char* solver : {"prox-gs", "prox-jacobi"})
    for (RFactorStrategy strategy : kStrategies) {
      SolverSettings s;  // the paper's defaults: tolerances 1e-3
      s.solver = solver;
      s.rFactor = strategy;
      Eigen::VectorXd lambda = solution;
      const SolveReport report = makeSolver(solver)->solve(p.problem, s, lambda);
      EXPECT_LE(report.iterations, 1) << solver << " " << rFactorName(strategy);
      EXPECT_EQ(report.convergence, Convergence::Absolute);
    }
}

TEST(ProxSolvers, IterationCountsDoNotDependOnTheUnitOfMass) {
  for (const char* solver : {"prox-gs", "prox-jacobi"})
    for (RFactorStrategy strategy : kStrategies) {
      SolverSettings s;  // default tolerances: the absolute test is where units would matter
      s.solver = solver;
      s.rFactor = strategy;
      const auto grams = test::makeColumnProblem(6, 5, 1.0);
      const auto tonnes = test::makeColumnProblem(6, 5, 1000.0);
      SolveReport light, heavy;
      const Eigen::VectorXd lambdaLight = solveFromZero(grams.problem, s, &light);
      const Eigen::VectorXd lambdaHeavy = solveFromZero(tonnes.problem, s, &heavy);
      EXPECT_EQ(light.iterations, heavy.iterations) << solver << " " << rFactorName(strategy);
      EXPECT_EQ(light.rollbacks, heavy.rollbacks) << solver << " " << rFactorName(strategy);
      EXPECT_LT((lambdaHeavy / 1000.0 - lambdaLight).cwiseAbs().maxCoeff(), 1e-9 * lambdaLight.cwiseAbs().maxCoeff());
    }
}

TEST(ProxSolvers, ZeroToleranceNeverStopsEarly) {
  const auto p = test::makeColumnProblem(3, 4);
  SolverSettings s = tightSettings("prox-gs", RFactorStrategy::Global);
  s.tolAbs = 0.0;
  s.maxIterations = 37;
  SolveReport report;
  solveFromZero(p.problem, s, &report);
  EXPECT_EQ(report.iterations, 37);
  EXPECT_EQ(report.residualHistory.size(), 37u);
  EXPECT_EQ(report.convergence, Convergence::None);
}

TEST(ProxSolvers, DivergenceRollsBackAndShrinksR) {
  // Jacobi with the Global r on a column of bodies over-relaxes the coupled rows and must detect it.
  const auto p = test::makeColumnProblem(8, 9);
  SolveReport report;
  solveFromZero(p.problem, tightSettings("prox-jacobi", RFactorStrategy::Local), &report);
  ASSERT_GT(report.rollbacks, 0);
  EXPECT_TRUE(report.converged());
  // After every rejected sweep the r-factor scale drops by nu = 0.9 (Local).
  for (std::size_t i = 1; i < report.rFactorHistory.size(); ++i)
    EXPECT_TRUE(report.rFactorHistory[i] == report.rFactorHistory[i - 1] ||
                std::abs(report.rFactorHistory[i] - 0.9 * report.rFactorHistory[i - 1]) < 1e-15);
}

TEST(SolverRegistry, ListsTheProxSolvers) {
  const auto names = solverNames();
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names[0].name, "prox-gs");
  EXPECT_EQ(names[1].name, "prox-jacobi");
  EXPECT_EQ(makeSolver("no-such-solver"), nullptr);
}

}  // namespace
}  // namespace contactlab
