// The common merit (engine/src/solvers/natural_map.cpp): the cone projection against a brute-force
// minimization, the README formula on the FC3D samples, and zero exactly at solutions.
#include "solvers/natural_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "solvers/delassus_problem.h"
#include "support/contact_problems.h"
#include "support/fc3d_samples.h"

namespace contactlab {
namespace {

bool inCone(const Vec4& x, const Vec3& mu, double slack) {
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    if (mu[i] > 0.0) sum += (x[1 + i] / mu[i]) * (x[1 + i] / mu[i]);
    else if (x[1 + i] != 0.0) return false;
  }
  return std::sqrt(sum) <= x[0] * (1 + slack) + slack;
}

// A point of the cone's surface: x_n = s, x_f = s diag(mu) (unit vector at angles a, b).
Vec4 surfacePoint(double s, double a, double b, const Vec3& mu) {
  return Vec4(s, s * mu[0] * std::cos(a) * std::cos(b), s * mu[1] * std::sin(a) * std::cos(b), s * mu[2] * std::sin(b));
}

// min over the surface and the apex of ||x - z||: a grid, then a pattern search that halves its
// steps, on (s, a, b). Independent of the secular equation the projection solves.
double bruteForceDistance(const Vec4& z, const Vec3& mu) {
  const auto distance = [&](double s, double a, double b) { return (surfacePoint(std::max(s, 0.0), a, b, mu) - z).norm(); };
  double best = z.norm(), bs = 0.0, ba = 0.0, bb = 0.0;  // the apex
  const double scale = z.norm() + 1.0;
  for (int i = 0; i <= 40; ++i)
    for (int j = 0; j < 48; ++j)
      for (int l = -12; l <= 12; ++l) {
        const double s = scale * i / 20.0, a = 2 * M_PI * j / 48, b = M_PI / 2 * l / 12;
        if (const double d = distance(s, a, b); d < best) best = d, bs = s, ba = a, bb = b;
      }
  double step[3] = {scale / 20.0, 2 * M_PI / 48, M_PI / 24};
  for (int round = 0; round < 200; ++round) {
    bool improved = false;
    for (int c = 0; c < 3; ++c)
      for (const double sign : {-1.0, 1.0}) {
        double p[3] = {bs, ba, bb};
        p[c] += sign * step[c];
        if (const double d = distance(p[0], p[1], p[2]); d < best) best = d, bs = std::max(p[0], 0.0), ba = p[1], bb = p[2], improved = true;
      }
    if (!improved)
      for (double& s : step) s *= 0.5;
  }
  return best;
}

TEST(NaturalMap, ConeProjectionAgreesWithBruteForceMinimization) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.05, 1.5);
  int outside = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Vec3 mu = trial % 3 == 0 ? Vec3(positive(rng), positive(rng), 0.0) : Vec3(positive(rng), positive(rng), positive(rng));
    const Vec4 z(unit(rng), 2 * unit(rng), 2 * unit(rng), 2 * unit(rng));
    const Vec4 x = projectOntoFrictionCone(z, mu);
    SCOPED_TRACE(testing::Message() << "z " << z.transpose() << " mu " << mu.transpose() << " x " << x.transpose());
    EXPECT_TRUE(inCone(x, mu, 1e-12));
    Vec4 zPinned = z;
    for (int i = 0; i < 3; ++i)
      if (mu[i] == 0.0) zPinned[1 + i] = 0.0;
    if (inCone(zPinned, mu, 0.0)) {
      EXPECT_EQ(x, zPinned);
      continue;
    }
    ++outside;
    // A projection onto the pinned subspace first (mu_tau = 0) adds its distance in quadrature.
    const double ours = (x - z).norm();
    const double brute = bruteForceDistance(z, mu);
    EXPECT_LE(ours, brute + 1e-12);
    EXPECT_NEAR(ours, brute, 1e-7 * (1 + ours));
  }
  EXPECT_GT(outside, 30);
}

TEST(NaturalMap, IsotropicConeReducesToTheClosedForm) {
  // mu_s = mu_t, mu_tau = 0 takes the closed form; the general root search gives the same point.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    const double mu = 0.1 + 0.9 * std::abs(unit(rng));
    const Vec4 z(unit(rng), unit(rng), unit(rng), 0.0);
    const Vec4 closed = projectOntoFrictionCone(z, Vec3(mu, mu, 0.0));
    const Vec4 searched = projectOntoFrictionCone(z, Vec3(mu, mu * (1 + 1e-15), 0.0));
    EXPECT_LT((closed - searched).norm(), 1e-9 * (1 + z.norm()));
  }
}

// ../shared/fc3d/README.md's formula, term for term, on the 3-row problem.
double readmeResidual(const DelassusProblem& p, const Eigen::VectorXd& r4) {
  const Eigen::VectorXd u4 = p.velocities(r4);
  double sum = 0.0, qNorm = 0.0;
  for (int c = 0; c < p.numContacts(); ++c) {
    const double mu = p.friction[c][0];
    const Eigen::Vector3d r = r4.segment<3>(4 * c), u = u4.segment<3>(4 * c);
    Eigen::Vector3d z = r - u;
    z[0] -= mu * u.tail<2>().norm();
    Eigen::Vector3d proj;
    const double normT = z.tail<2>().norm();
    if (mu * normT <= -z[0]) proj.setZero();
    else if (normT <= mu * z[0]) proj = z;
    else {
      proj[0] = (z[0] + mu * normT) / (1 + mu * mu);
      proj.tail<2>() = mu * proj[0] * z.tail<2>() / normT;
    }
    sum += (r - proj).squaredNorm();
    qNorm += p.q.segment<3>(4 * c).squaredNorm();
  }
  return std::sqrt(sum) / (1 + std::sqrt(qNorm));
}

TEST(NaturalMap, EqualsTheReadmeFormulaOnFc3dProblems) {
  CONTACTLAB_REQUIRE_FC3D_SAMPLES();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (const test::Fc3dSample& sample : test::fc3dSamples()) {
    SCOPED_TRACE(sample.file);
    const DelassusProblem p = readFc3dFile(test::fc3dPath(sample.file));
    Eigen::VectorXd r = Eigen::VectorXd::Zero(p.numRows());
    for (int c = 0; c < p.numContacts(); ++c)
      for (int i = 0; i < 3; ++i) r[4 * c + i] = unit(rng);
    EXPECT_EQ(naturalMapResidual(p, r), readmeResidual(p, r));
    EXPECT_GT(naturalMapResidual(p, r), 0.0);
  }
}

TEST(NaturalMap, ZeroAtProxSolutionsAndPositiveElsewhere) {
  for (const unsigned seed : {1u, 2u, 5u}) {
    const auto p = test::makeColumnProblem(4, seed);
    SolverSettings settings;
    settings.tolAbs = 1e-12;
    settings.tolRel = 0.0;
    settings.maxIterations = 20000;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(p.problem.numRows());
    EXPECT_GT(naturalMapResidual(p.problem, lambda), 1e-3);
    ASSERT_TRUE(makeSolver("prox-gs")->solve(p.problem, settings, lambda).converged());
    // The column problem has torsion (mu_tau > 0): the ellipsoidal cone is in play.
    EXPECT_GT(p.problem.blocks[0].friction[2], 0.0);
    EXPECT_LT(naturalMapResidual(p.problem, lambda), 1e-11);
    // The same through the Delassus form.
    EXPECT_LT(naturalMapResidual(toDelassus(p.problem), lambda), 1e-11);
    Eigen::VectorXd perturbed = lambda;
    perturbed[1] += 1e-3 * (1 + std::abs(lambda[0]));
    EXPECT_GT(naturalMapResidual(p.problem, perturbed), 1e-8);
  }
}

}  // namespace
}  // namespace contactlab
