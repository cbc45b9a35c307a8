// PROX Jacobi and Gauss-Seidel with every r-factor strategy, on problems with a unique solution.
#include <gtest/gtest.h>

#include <cmath>

#include "contactlab/world.h"
#include "solvers/contact_solver.h"
#include "solvers/prox/prox_operators.h"
#include "solvers/prox/prox_solver.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

using test::solveFromZero;

SolverSettings tightSettings(const std::string& solver, RFactorStrategy strategy) {
  SolverSettings s;
  s.solver = solver;
  s.prox.rFactor = strategy;
  s.maxIterations = 20000;
  s.tolAbs = 1e-13;
  s.tolRel = 0.0;
  s.stallWindow = 0;
  return s;
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
      s.prox.rFactor = strategy;
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
      s.prox.rFactor = strategy;
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

// The outer loop of Alg. 1-2 on a scripted sweep: while the r-factor scale is above 0.3 each sweep
// after the first from a restored iterate triples the merit (divergence), below it the merit halves.
// The loop must reject every diverging sweep, go back to the best iterate, shrink R by nu (0.9 for
// Local) each time, and return an iterate that was accepted.
class ScriptedSweep final : public ProxSolver {
 public:
  ScriptedSweep() : ProxSolver(ProxAlgorithm::GaussSeidel) {}

 protected:
  void setIterate(const ContactProblem&, const Eigen::VectorXd& lambda) override {
    value_ = lambda[0];
    sweepsSinceRestore_ = 0;
  }
  double sweep(const ContactProblem&, const RFactors& r) override {
    ++sweepsSinceRestore_;
    value_ += 1.0;
    return std::pow(r.scale() > 0.3 ? 3.0 : 0.5, sweepsSinceRestore_);
  }
  void keepBestIterate() override { best_ = value_; }
  void restoreBestIterate(const ContactProblem&) override {
    value_ = best_;
    sweepsSinceRestore_ = 0;
  }
  void getIterate(Eigen::VectorXd& lambda) const override { lambda.setConstant(value_); }

 private:
  double value_ = 0.0, best_ = 0.0;
  int sweepsSinceRestore_ = 0;
};

TEST(ProxSolvers, DivergenceRollsBackAndShrinksR) {
  const auto p = test::makeColumnProblem(2, 1);
  SolverSettings settings = tightSettings("prox-gs", RFactorStrategy::Local);
  settings.tolAbs = 1e-3;
  ScriptedSweep solver;
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(p.problem.numRows());
  const SolveReport report = solver.solve(p.problem, settings, lambda);
  // 0.9^k > 0.3 for k <= 11: twelve roll-backs bring the scale to 0.9^12 = 0.28.
  EXPECT_EQ(report.rollbacks, 12);
  EXPECT_TRUE(report.converged());
  double scale = 1.0;
  for (std::size_t i = 1; i < report.rFactorHistory.size(); ++i) {
    const double now = report.rFactorHistory[i];
    EXPECT_TRUE(now == report.rFactorHistory[i - 1] || std::abs(now - 0.9 * report.rFactorHistory[i - 1]) < 1e-15) << i;
    scale = now;
  }
  EXPECT_NEAR(scale, std::pow(0.9, 12), 1e-12);
  // Every diverging sweep was undone. At each of the twelve scales above 0.3 the first sweep after
  // the restore (merit 3, within twice the best 3) is accepted and the second (merit 9) rejected;
  // then the merit halves until it is below 1e-3. Each accepted sweep adds 1 to the warm start 0.
  const int convergingSweeps = static_cast<int>(std::ceil(std::log(1e-3) / std::log(0.5)));
  EXPECT_EQ(lambda[0], 12.0 + convergingSweeps);
}

// Jacobi's step is split among the contacts of a body (ProxJacobi): without that, the Local and
// Blocked r-factors made the sweep swing on a falling pile, and the lambda it stopped at injected
// energy until the state overflowed (within 150 steps for 100 bodies). With restitution 0 contacts
// can only take energy out: kinetic plus potential energy never rises above where it started.
TEST(ProxSolvers, JacobiKeepsAFallingPileBounded) {
  for (RFactorStrategy strategy : {RFactorStrategy::Local, RFactorStrategy::Blocked}) {
    WorldSettings settings;
    settings.solver.solver = "prox-jacobi";
    settings.solver.prox.rFactor = strategy;
    World world(buildBuiltinScene("pile", {{"count", 100}}, 1), settings);
    const double initial = world.kineticEnergy() + world.potentialEnergy();
    double largestGain = 0.0;
    int steps = 0;
    for (; steps < 150; ++steps) {
      world.step();
      largestGain = std::max(largestGain, world.kineticEnergy() + world.potentialEnergy() - initial);
    }
    EXPECT_LT(largestGain, 1e-6 * initial) << rFactorName(strategy);
    EXPECT_GT(world.lastMetrics().contacts, 100) << "the pile must have landed";
  }
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
