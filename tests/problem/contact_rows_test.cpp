// The box-friction solvers (pgs, psor, pgs-sm, modulus-gs) on the Delassus form (contact_rows.h):
// the same iteration as on the bodies, and on the Siconos samples the box problem's solution,
// checked on the dense W, which is not the Coulomb one where a contact slides.
#include "problem/contact_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "problem/natural_map.h"
#include "support/contact_problems.h"
#include "support/fc3d_samples.h"

namespace contactlab {
namespace {

constexpr const char* kBoxSolvers[] = {"pgs", "psor", "pgs-sm", "modulus-gs"};

TEST(ContactRows, DelassusRowsAgreeWithTheBodySpaceRows) {
  const auto p = test::makeRandomContactGraphProblem(6, 3, 5);
  const DelassusProblem d = toDelassus(p.problem);
  BodySpaceRows bodies;
  DelassusRows delassus;
  bodies.bind(p.problem);
  delassus.bind(d);
  const Eigen::VectorXd lambda = Eigen::VectorXd::Random(p.problem.numRows());
  bodies.setIterate(lambda);
  const Eigen::MatrixXd dense = test::denseDelassus(p.problem);
  const double scale = dense.cwiseAbs().maxCoeff();
  Eigen::VectorXd bodyProduct, delassusProduct;
  bodies.multiply(lambda, bodyProduct);
  delassus.multiply(lambda, delassusProduct);
  EXPECT_LT((bodyProduct - dense * lambda).cwiseAbs().maxCoeff(), 1e-12 * scale * lambda.cwiseAbs().sum());
  EXPECT_LT((delassusProduct - dense * lambda).cwiseAbs().maxCoeff(), 1e-12 * scale * lambda.cwiseAbs().sum());
  for (int k = 0; k < p.problem.numContacts(); ++k) {
    EXPECT_EQ(bodies.friction(k), delassus.friction(k));
    EXPECT_LT((bodies.diagonalBlock(k) - delassus.diagonalBlock(k)).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((bodies.velocity(k, lambda) - delassus.velocity(k, lambda)).cwiseAbs().maxCoeff(), 1e-10 * scale);
  }
  // A change of one contact reaches the body-space velocities as W's column does.
  Eigen::VectorXd changed = lambda;
  const Vec4 delta(0.3, -0.2, 0.1, 0.05);
  changed.segment<4>(8) += delta;
  bodies.addChange(2, delta);
  for (int k = 0; k < p.problem.numContacts(); ++k)
    EXPECT_LT((bodies.velocity(k, changed) - delassus.velocity(k, changed)).cwiseAbs().maxCoeff(), 1e-10 * scale);
}

// The sweeps are written once for both forms: on W = J M^-1 J^T each box solver takes the same steps
// as on the bodies (up to rounding), sweep for sweep, friction and torsion included.
TEST(ContactRows, BoxSolversTakeTheBodySpaceStepsOnW) {
  for (const unsigned seed : {1u, 2u}) {
    const auto p = test::makeRandomContactGraphProblem(8, 4, seed, 0.4);
    const DelassusProblem d = toDelassus(p.problem);
    for (const char* name : kBoxSolvers) {
      SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
      SolverSettings settings;
      settings.solver = name;
      settings.tolAbs = 0.0;
      settings.tolRel = 0.0;
      settings.stallWindow = 0;
      settings.maxIterations = 40;
      Eigen::VectorXd bodies = Eigen::VectorXd::Zero(p.problem.numRows()), delassus = bodies;
      const SolveReport bodyReport = makeSolver(name)->solve(p.problem, settings, bodies);
      const SolveReport delassusReport = makeSolver(name)->solve(d, settings, delassus);
      ASSERT_EQ(bodyReport.iterations, delassusReport.iterations);
      EXPECT_LT((bodies - delassus).cwiseAbs().maxCoeff(), 1e-9 * bodies.cwiseAbs().maxCoeff());
      for (std::size_t i = 0; i < bodyReport.residualHistory.size(); ++i)
        EXPECT_NEAR(bodyReport.residualHistory[i], delassusReport.residualHistory[i],
                    1e-8 * bodyReport.residualHistory.front());
      EXPECT_EQ(delassusReport.naturalMapResidual, naturalMapResidual(d, delassus));
    }
  }
}

// The box problem's natural map on the dense W, independent of the solvers' code: per row i,
// W_ii |lambda_i - mid(l_i, lambda_i - v_i / W_ii, u_i)| with v = W lambda + q, l = 0 and u = inf for
// a normal row, +-mu lambda_n for a friction row (the torsion row's mu is 0); the largest, divided by
// 1 + ||q|| as the Coulomb residual is. Zero exactly at a solution of the box problem.
double boxResidual(const DelassusProblem& problem, const Eigen::VectorXd& lambda) {
  const Eigen::MatrixXd w = problem.denseW();
  const Eigen::VectorXd v = w * lambda + problem.q;
  double worst = 0.0;
  for (int i = 0; i < lambda.size(); ++i) {
    const int k = i / 4, row = i % 4;
    const double upper = row == kNormal ? std::numeric_limits<double>::infinity()
                                        : problem.friction[k][row - 1] * std::max(0.0, lambda[4 * k]);
    const double lower = row == kNormal ? 0.0 : -upper;
    const double projected = std::clamp(lambda[i] - v[i] / w(i, i), lower, upper);
    worst = std::max(worst, w(i, i) * std::abs(lambda[i] - projected));
  }
  return worst / (1.0 + problem.q.norm());
}

// The issue: every solver that can must accept the three-row problems. The box solvers reach the box
// problem's solution on the seven small samples (all four the same one), and that solution is not
// the Coulomb one: some contact slides there, where the box lets the friction force leave the disk
// ||r_t|| <= mu r_n or point off the sliding direction, so the Coulomb natural map stays above
// 1e-4 (docs/fc3d.md lists it per sample) while PROX-GS brings it below 1e-8.
TEST(ContactRows, BoxSolversReachTheBoxSolutionOfTheSmallSamples) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    if (sample.contacts > 9) continue;
    const DelassusProblem problem = readFc3dFile(test::fc3dPath(sample.file));
    Eigen::VectorXd pgsSolution;
    for (const char* name : kBoxSolvers) {
      SCOPED_TRACE(sample.file + " " + name);
      SolverSettings settings;
      settings.solver = name;
      settings.tolAbs = 1e-14;
      settings.tolRel = 0.0;
      settings.stallWindow = 0;
      settings.maxIterations = 100000;
      std::unique_ptr<ContactSolver> solver = makeSolver(name);
      ASSERT_TRUE(solver->acceptsDelassus());
      Eigen::VectorXd lambda;
      const SolveReport report = solver->solve(problem, settings, lambda);
      ASSERT_EQ(lambda.size(), problem.numRows());
      EXPECT_LT(boxResidual(problem, lambda), 1e-9);
      for (int k = 0; k < problem.numContacts(); ++k) EXPECT_EQ(lambda[4 * k + kTorsion], 0.0);
      EXPECT_GT(report.naturalMapResidual, 1e-4);
      if (pgsSolution.size() == 0) pgsSolution = lambda;
      EXPECT_LT((lambda - pgsSolution).cwiseAbs().maxCoeff(), 1e-7 * (1.0 + pgsSolution.cwiseAbs().maxCoeff()));
    }
    const Eigen::VectorXd u = problem.velocities(pgsSolution);
    bool slides = false;
    for (int k = 0; k < problem.numContacts(); ++k)
      slides = slides || (pgsSolution[4 * k] > 0.0 && u.segment<2>(4 * k + 1).norm() > 1e-6 * (1.0 + problem.q.norm()));
    EXPECT_TRUE(slides) << sample.file;
  }
}

}  // namespace
}  // namespace contactlab
