// The common merit (engine/src/problem/natural_map.cpp): the cone projection against a brute-force
// minimization, the README formula on the FC3D samples, and zero exactly at solutions.
#include "problem/natural_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "io/fc3d_file.h"
#include "solvers/contact_solver.h"
#include "problem/delassus_problem.h"
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

// min over the cone's surface (apex included) of ||x - z||, independent of the secular equation the
// projection solves: the surface is the rays s v(a, b), v = (1, diag(mu) (cos a cos b, sin a cos b,
// sin b)), s >= 0; on each ray the closest point is s = max(0, v.z / v.v), and the two angles are
// searched on a grid, then by a pattern search that halves its steps.
double bruteForceDistance(const Vec4& z, const Vec3& mu) {
  const auto distance = [&](double a, double b) {
    const Vec4 v(1.0, mu[0] * std::cos(a) * std::cos(b), mu[1] * std::sin(a) * std::cos(b), mu[2] * std::sin(b));
    return (std::max(0.0, v.dot(z) / v.squaredNorm()) * v - z).norm();
  };
  double best = std::numeric_limits<double>::infinity(), ba = 0.0, bb = 0.0;
  for (int j = 0; j < 96; ++j)
    for (int l = -24; l <= 24; ++l) {
      const double a = 2 * M_PI * j / 96, b = M_PI / 2 * l / 24;
      if (const double d = distance(a, b); d < best) best = d, ba = a, bb = b;
    }
  double step[2] = {2 * M_PI / 96, M_PI / 48};
  for (int round = 0; round < 400; ++round) {
    bool improved = false;
    for (int c = 0; c < 2; ++c)
      for (const double sign : {-1.0, 1.0}) {
        double p[2] = {ba, bb};
        p[c] += sign * step[c];
        if (const double d = distance(p[0], p[1]); d < best) best = d, ba = p[0], bb = p[1], improved = true;
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
    SCOPED_TRACE(::testing::Message() << "z " << z.transpose() << " mu " << mu.transpose() << " x " << x.transpose());
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

// ../shared/fc3d/README.md's formula, term for term, on the 3-row problem, in scalar arithmetic
// (the library must give the same bits: natural_map.cpp sums in this order).
double readmeResidual(const DelassusProblem& p, const Eigen::VectorXd& r4) {
  const Eigen::VectorXd u4 = p.velocities(r4);
  double sum = 0.0;
  for (int c = 0; c < p.numContacts(); ++c) {
    const double mu = p.friction[c][0];
    const double* r = r4.data() + 4 * c;
    const double* u = u4.data() + 4 * c;
    const double z[3] = {r[0] - (u[0] + mu * std::sqrt(u[1] * u[1] + u[2] * u[2])), r[1] - u[1], r[2] - u[2]};
    double proj[3] = {z[0], z[1], z[2]};
    const double normT = std::sqrt(z[1] * z[1] + z[2] * z[2]);
    if (mu * normT <= -z[0]) {
      proj[0] = proj[1] = proj[2] = 0.0;
    } else if (!(normT <= mu * z[0])) {
      proj[0] = (z[0] + mu * normT) / (1 + mu * mu);
      proj[1] = mu * proj[0] / normT * z[1];
      proj[2] = mu * proj[0] / normT * z[2];
    }
    const double d[3] = {r[0] - proj[0], r[1] - proj[1], r[2] - proj[2]};
    sum += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  }
  return std::sqrt(sum) / (1 + p.q.norm());  // q's torsion entries are 0: the same ||q||
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
    settings.stallWindow = 0;
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
