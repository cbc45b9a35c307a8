#include "solvers/prox/prox_operators.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace contactlab {
namespace {

// Brute force: closest point on the ellipsoid surface in the metric G by a dense search over the
// surface parametrization x = (a sin th cos ph, b sin th sin ph, c cos th), refined on shrinking windows.
Vec3 bruteForceClosestOnSurface(const Vec3& z, const Vec3& axes, const Mat3& metric = Mat3::Identity()) {
  auto point = [&](double th, double ph) {
    return Vec3(axes[0] * std::sin(th) * std::cos(ph), axes[1] * std::sin(th) * std::sin(ph), axes[2] * std::cos(th));
  };
  double bestTh = 0, bestPh = 0, best = 1e300;
  double thLo = 0, thHi = std::numbers::pi, phLo = -std::numbers::pi, phHi = std::numbers::pi;
  for (int level = 0; level < 12; ++level) {
    const int n = 200;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) {
        const double th = thLo + (thHi - thLo) * i / n, ph = phLo + (phHi - phLo) * j / n;
        const Vec3 d3 = point(th, ph) - z;
        const double d = d3.dot(metric * d3);
        if (d < best) best = d, bestTh = th, bestPh = ph;
      }
    const double thSpan = (thHi - thLo) * 4.0 / n, phSpan = (phHi - phLo) * 4.0 / n;
    thLo = bestTh - thSpan, thHi = bestTh + thSpan, phLo = bestPh - phSpan, phHi = bestPh + phSpan;
  }
  return point(bestTh, bestPh);
}

TEST(ProxOperators, NormalConeIsTheNonNegativePart) {
  EXPECT_EQ(proxNormalCone(-2.0), 0.0);
  EXPECT_EQ(proxNormalCone(3.5), 3.5);
}

TEST(ProxOperators, EllipsoidProjectionMatchesBruteForceMinimization) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> axis(0.05, 2.0), coord(-5.0, 5.0);
  for (int trial = 0; trial < 25; ++trial) {
    const Vec3 axes(axis(rng), axis(rng), axis(rng));
    Vec3 z(coord(rng), coord(rng), coord(rng));
    const Vec3 x = proxEllipsoid(z, axes);
    const double inside = x.cwiseQuotient(axes).squaredNorm();
    if (z.cwiseQuotient(axes).squaredNorm() <= 1.0) {
      EXPECT_EQ(x, z);
      continue;
    }
    EXPECT_NEAR(inside, 1.0, 1e-9) << "projection must land on the surface";
    const Vec3 reference = bruteForceClosestOnSurface(z, axes);
    EXPECT_LE((x - z).norm(), (reference - z).norm() + 1e-9) << "trial " << trial;
    EXPECT_NEAR((x - reference).norm(), 0.0, 1e-5) << "trial " << trial;
  }
}

TEST(ProxOperators, EllipsoidProjectionIsScaleInvariant) {
  // eq. 37-38 rescale internally; the result must scale with the problem.
  const Vec3 axes(0.3, 0.3, 0.01), z(2.0, -1.0, 0.5);
  const Vec3 x = proxEllipsoid(z, axes);
  for (double s : {1e-6, 1e-3, 1e3, 1e6}) EXPECT_LT((proxEllipsoid(s * z, s * axes) - s * x).norm(), 1e-9 * s);
}

TEST(ProxOperators, DiskCaseWithoutTorsionIsTheRadialClamp) {
  const Vec3 x = proxEllipsoid(Vec3(3, 4, 7), Vec3(1, 1, 0));
  EXPECT_NEAR(x[0], 0.6, 1e-15);
  EXPECT_NEAR(x[1], 0.8, 1e-15);
  EXPECT_EQ(x[2], 0.0);
}

TEST(ProxOperators, AnisotropicEllipseWithoutTorsionMatchesBruteForce) {
  const Vec3 axes(0.5, 1.5, 0.0), z(2.0, 1.0, 3.0);
  const Vec3 x = proxEllipsoid(z, axes);
  EXPECT_EQ(x[2], 0.0);
  double best = 1e300;
  for (int i = 0; i < 2000000; ++i) {
    const double t = 2.0 * std::numbers::pi * i / 2000000;
    best = std::min(best, (Vec3(axes[0] * std::cos(t), axes[1] * std::sin(t), 0) - z).norm());
  }
  EXPECT_NEAR((x - z).norm(), best, 1e-9);
}

TEST(ProxOperators, ZeroNormalImpulseAllowsNoFriction) {
  EXPECT_EQ(frictionSemiAxes(Vec3(0.5, 0.5, 0.01), -1.0), Vec3::Zero());
  EXPECT_EQ(proxEllipsoid(Vec3(2, 3, 4), Vec3::Zero()), Vec3::Zero());
  EXPECT_EQ(frictionSemiAxes(Vec3(0.5, 0.5, 0.01), 2.0), Vec3(1.0, 1.0, 0.02));
}

TEST(ProxOperators, MetricProjectionMatchesBruteForceMinimization) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> axis(0.05, 2.0), coord(-5.0, 5.0), entry(-1.0, 1.0);
  for (int trial = 0; trial < 15; ++trial) {
    const Vec3 axes(axis(rng), axis(rng), axis(rng));
    const Vec3 z(coord(rng), coord(rng), coord(rng));
    Mat3 m;
    for (int i = 0; i < 9; ++i) m(i) = entry(rng);
    const Mat3 metric = m * m.transpose() + 0.2 * Mat3::Identity();
    const Vec3 x = proxEllipsoidInMetric(z, axes, metric);
    if (z.cwiseQuotient(axes).squaredNorm() <= 1.0) {
      EXPECT_EQ(x, z);
      continue;
    }
    EXPECT_NEAR(x.cwiseQuotient(axes).squaredNorm(), 1.0, 1e-9);
    const Vec3 reference = bruteForceClosestOnSurface(z, axes, metric);
    EXPECT_LE((x - z).dot(metric * (x - z)), (reference - z).dot(metric * (reference - z)) + 1e-9) << trial;
    EXPECT_NEAR((x - reference).norm(), 0.0, 1e-4) << "trial " << trial;
  }
}

TEST(ProxOperators, MetricProjectionWithPinnedTorsionStaysInTheDisk) {
  // mu_tau = 0: the torsion impulse is pinned to zero and the metric's coupling moves the centre.
  Mat3 metric;
  metric << 2.0, 0.3, 0.5, 0.3, 1.0, 0.2, 0.5, 0.2, 3.0;
  const Vec3 x = proxEllipsoidInMetric(Vec3(3, -2, 1), Vec3(1, 1, 0), metric);
  EXPECT_EQ(x[2], 0.0);
  EXPECT_NEAR(x.head<2>().norm(), 1.0, 1e-9);
}

TEST(ProxOperators, DiagonalMetricAgreesWithTheGeneralMetric) {
  const Vec3 axes(0.7, 0.7, 0.02), z(1.5, -0.4, 0.3), diagonal(4.0, 9.0, 0.25);
  const Vec3 general = proxEllipsoidInMetric(z, axes, diagonal.asDiagonal());
  const Vec3 viaSubstitution = proxEllipsoidInDiagonalMetric(z, axes, diagonal.cwiseSqrt());
  EXPECT_LT((general - viaSubstitution).norm(), 1e-9);
}

}  // namespace
}  // namespace contactlab
