// The subspace step (subspace_step.h) against closed-form solutions of one contact in each state,
// and on BoxesStack1, where PROX-GS alone stalls.
#include "solvers/prox/subspace_step.h"

#include <gtest/gtest.h>

#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "problem/delassus_problem.h"
#include "problem/natural_map.h"
#include "support/fc3d_samples.h"

namespace contactlab {
namespace {

// One contact, W = [2 0.5 0; 0.5 1 0; 0 0 1] on (n, t, s), mu = 0.5, and q given.
DelassusProblem oneContact(double qn, double qt) {
  Mat4 w = Mat4::Identity();
  w(0, 0) = 2.0;
  w(0, 1) = w(1, 0) = 0.5;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(4);
  q[0] = qn;
  q[1] = qt;
  return makeDelassusProblem({{{0, w}}}, q, {Vec3(0.5, 0.5, 0.0)});
}

Eigen::VectorXd impulse(double n, double t) {
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(4);
  lambda[0] = n;
  lambda[1] = t;
  return lambda;
}

TEST(SubspaceStep, StickingContactIsTheLinearSolveOfItsThreeRows) {
  // q = (-1, -0.2): W_3x3 lambda = -q gives 2 n + 0.5 t = 1 and 0.5 n + t = 0.2, so
  // n = 0.9 / 1.75 and t = 0.2 - 0.5 n, inside the cone (|t| = 0.057 < mu n = 0.257).
  const DelassusProblem problem = oneContact(-1.0, -0.2);
  const double n = 0.9 / 1.75, t = 0.2 - 0.5 * n;
  ASSERT_LT(std::abs(t), 0.5 * n);  // the closed form does stick
  Eigen::VectorXd candidate;
  // From an iterate that sticks, with the wrong impulses.
  const double residual = subspaceStep(problem, problem.denseW(), impulse(0.3, 0.01), 0.0, candidate);
  EXPECT_NEAR(candidate[0], n, 1e-14);
  EXPECT_NEAR(candidate[1], t, 1e-14);
  EXPECT_LT(residual, 1e-14);
}

TEST(SubspaceStep, SlidingContactKeepsTheDirectionAndSolvesTheNormalRow) {
  // q = (-1, 3): it slides (prox_delassus_test.cpp): lambda_t = -mu lambda_n, v_n = 0:
  // 2 n - 0.5 mu n = 1, n = 1 / 1.75.
  const DelassusProblem problem = oneContact(-1.0, 3.0);
  Eigen::VectorXd candidate;
  // From an iterate on the cone's surface, pointing the right way, with the wrong size.
  const double residual = subspaceStep(problem, problem.denseW(), impulse(0.2, -0.1), 0.0, candidate);
  EXPECT_NEAR(candidate[0], 1.0 / 1.75, 1e-14);
  EXPECT_NEAR(candidate[1], -0.5 / 1.75, 1e-14);
  EXPECT_LT(residual, 1e-14);
}

TEST(SubspaceStep, WrongStatesAreCorrectedByTheNextPass) {
  // The sliding contact again, from an iterate inside the cone: the first pass solves it as
  // sticking, (n, t) = (2.5 / 1.75, -3 - 0.5 n), far outside the cone; projected onto the cone it
  // lies on the surface pointing the right way, and the second pass solves it as sliding.
  const DelassusProblem problem = oneContact(-1.0, 3.0);
  Eigen::VectorXd candidate;
  const double residual = subspaceStep(problem, problem.denseW(), impulse(0.5, 0.0), 0.0, candidate);
  EXPECT_NEAR(candidate[0], 1.0 / 1.75, 1e-12);
  EXPECT_NEAR(candidate[1], -0.5 / 1.75, 1e-12);
  EXPECT_LT(residual, 1e-12);
}

TEST(SubspaceStep, SeparatingContactsGetNoImpulse) {
  const DelassusProblem problem = oneContact(1.0, 3.0);  // q_n > 0: it opens with lambda = 0
  Eigen::VectorXd candidate;
  const double residual = subspaceStep(problem, problem.denseW(), impulse(0.0, 0.0), 0.0, candidate);
  EXPECT_EQ(candidate.norm(), 0.0);
  EXPECT_EQ(residual, 0.0);
}

TEST(SubspaceStep, ProxGsWithSubspaceStepsSolvesTheStackPlainProxGsStallsOn) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  // BoxesStack1 (52 contacts of a resting stack): PROX-GS alone is near 2e-5 after 10000 sweeps
  // (docs/fc3d.md); with a subspace step every 50 sweeps it goes below Siconos PROX's 1.15e-9.
  const DelassusProblem problem = readFc3dFile(test::fc3dPath("BoxesStack1-i100000-32.hdf5.dat"));
  SolverSettings settings;
  settings.prox.rFactor = RFactorStrategy::Local;
  settings.tolAbs = 1e-9;
  settings.tolRel = 0.0;
  settings.stallWindow = 0;
  settings.naturalMapTolerance = 1e-9;
  settings.maxIterations = 1000;
  auto solveWithInterval = [&](int interval) {
    settings.problemFile.subspaceInterval = interval;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(problem.numRows());
    const SolveReport report = makeSolver("prox-gs")->solve(problem, settings, lambda);
    return std::make_pair(report, naturalMapResidual(problem, lambda));
  };
  const auto [plain, plainResidual] = solveWithInterval(0);
  EXPECT_FALSE(plain.converged());
  EXPECT_GT(plainResidual, 1e-6);
  const auto [stepped, steppedResidual] = solveWithInterval(50);
  EXPECT_TRUE(stepped.converged());
  EXPECT_LE(stepped.iterations, 200);
  EXPECT_LT(steppedResidual, 1e-9);
}

TEST(SubspaceStep, BoxSolversTakeNone) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  // pgs and psor run PROX's outer loop on the box problem, which the step does not solve: the
  // setting must leave them exactly as they are.
  const DelassusProblem problem = readFc3dFile(test::fc3dPath("BoxesStack1-i100000-32.hdf5.dat"));
  for (const char* name : {"pgs", "psor"}) {
    SolverSettings settings;
    settings.maxIterations = 200;
    Eigen::VectorXd plain = Eigen::VectorXd::Zero(problem.numRows()), stepped = plain;
    const SolveReport plainReport = makeSolver(name)->solve(problem, settings, plain);
    settings.problemFile.subspaceInterval = 10;
    const SolveReport steppedReport = makeSolver(name)->solve(problem, settings, stepped);
    EXPECT_EQ(plainReport.iterations, steppedReport.iterations) << name;
    EXPECT_EQ(plain, stepped) << name;
  }
}

}  // namespace
}  // namespace contactlab
