// The secular-equation root finder of ellipsoid_search.h against a bisection in long double, and
// its vector form against its scalar form (the Gauss-Seidel sweep relies on both giving the same
// bits, lane by lane).
// The lanes here are 32-byte vectors in a baseline (SSE2) build: GCC warns that passing them
// would change the ABI, which does not matter, since every function they reach is forced inline.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "solvers/prox/ellipsoid_search.h"
#include "solvers/prox/lane_pair.h"

#include <gtest/gtest.h>

#include "solvers/prox/prox_operators.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace contactlab::ellipsoid_search {
namespace {

using Lanes = double __attribute__((vector_size(4 * sizeof(double))));
using LaneMask = std::int64_t __attribute__((vector_size(4 * sizeof(std::int64_t))));

long double secular(const double (&c)[3], const double (&d)[3], long double t) {
  long double s = 0.0L;
  for (int i = 0; i < 3; ++i) s += c[i] / ((d[i] + t) * (d[i] + t));
  return s;
}

// S(t) = 1 by 200 halvings of [low, high] in long double: a reference independent of the model.
long double bisectedRoot(const double (&c)[3], const double (&d)[3], long double low, long double high) {
  for (int i = 0; i < 200; ++i) {
    const long double middle = 0.5L * (low + high);
    (secular(c, d, middle) >= 1.0L ? low : high) = middle;
  }
  return high;
}

struct Problem {
  double c[3], d[3], low, high;
};

// Problems shaped like the friction ellipsoid's after the unit-cube scaling: two tangential terms
// with nearly equal d and a torsion term whose d is 1e-8..1 of theirs, magnitudes over many decades.
Problem randomProblem(std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Problem p{};
  const double tangential = std::pow(10.0, -8.0 * unit(random));
  p.d[0] = tangential;
  p.d[1] = tangential * (1.0 + 0.1 * unit(random));
  p.d[2] = tangential * std::pow(10.0, -8.0 * unit(random));
  // S(0) between 1.01 and 1e6, shared out among the terms at random.
  const double atZero = std::pow(10.0, 0.005 + 6.0 * unit(random));
  double share[3], total = 0.0;
  for (double& s : share) total += (s = std::pow(10.0, -6.0 * unit(random)));
  for (int i = 0; i < 3; ++i) p.c[i] = atZero * share[i] / total * p.d[i] * p.d[i];
  p.low = 0.0;
  p.high = 1.0;
  while (secular(p.c, p.d, p.high) >= 1.0L) p.high *= 2.0;
  return p;
}

TEST(EllipsoidSearch, SecularRootMatchesABisectionWithinTheResolution) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const Problem p = randomProblem(random);
    const double t = secularRoot<3>(p.c, p.d, p.low, p.high, true, true);
    const long double reference = bisectedRoot(p.c, p.d, p.low, p.high);
    const double smallestD = std::min({p.d[0], p.d[1], p.d[2]});
    // The end of the bracket with S < 1 (the projected point is then feasible; S < 1 as the search
    // rounds it in double, so up to rounding here), within the resolution kRootTolerance *
    // (t + min d_i) of the root.
    ASSERT_LT(secular(p.c, p.d, t), 1.0L + 1e-14L) << "trial " << trial;
    ASSERT_LE(std::abs(static_cast<long double>(t) - reference), 2.0 * kRootTolerance * (t + smallestD)) << "trial " << trial;
  }
}

TEST(EllipsoidSearch, VectorLanesGiveTheScalarBits) {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 2000; ++trial) {
    Problem p[4];
    for (Problem& lane : p) lane = randomProblem(random);
    // One lane in four at extreme magnitudes, where the shared reciprocal leaves its range and the
    // lane divides term by term.
    if (trial % 4 == 0)
      for (int i = 0; i < 3; ++i) p[trial / 4 % 4].d[i] *= 1e-110, p[trial / 4 % 4].c[i] *= 1e-220;
    Lanes c[3], d[3], low, high;
    for (int l = 0; l < 4; ++l) {
      for (int i = 0; i < 3; ++i) c[i][l] = p[l].c[i], d[i][l] = p[l].d[i];
      low[l] = 0.0;
      high[l] = p[l].high * (trial % 4 == 0 && l == trial / 4 % 4 ? 1e-110 : 1.0);
    }
    const LaneMask all = {-1, -1, -1, -1};
    const Lanes roots = secularRoot<3>(c, d, low, high, true, all);
    for (int l = 0; l < 4; ++l) {
      const double scalar = secularRoot<3>(p[l].c, p[l].d, low[l], high[l], true, true);
      ASSERT_EQ(roots[l], scalar) << "trial " << trial << " lane " << l;
    }
  }
}

// The sweep's use: points outside ellipsoids in a diagonal metric sqrt(G) = m, searched on the
// substituted problem (m z, m a) and mapped back to the unsubstituted z, with one lane inactive.
// Each active lane gives the scalar search's bits and the general-metric projection's point.
template <int dims>
void checkProjectionLanes(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    Lanes z[dims], axes[dims], scaledZ[dims], scaledAxes[dims], x[dims];
    Vec3 laneZ[4], laneAxes[4], laneMetric[4];
    for (int l = 0; l < 4; ++l) {
      const double normal = std::pow(10.0, 4.0 * unit(random) - 2.0);  // lambda_n over four decades
      laneAxes[l] = Vec3(0.75 * normal, 0.75 * normal, dims == 3 ? 0.01 * normal : 0.0);
      laneMetric[l] = Vec3(std::pow(10.0, unit(random)), std::pow(10.0, unit(random)), std::pow(10.0, unit(random)));
      do {  // outside the ellipsoid
        laneZ[l] = Vec3(unit(random) - 0.5, unit(random) - 0.5, dims == 3 ? 0.02 * (unit(random) - 0.5) : 0.0) * 4.0 * normal;
      } while (laneZ[l].head<dims>().cwiseQuotient(laneAxes[l].head<dims>()).squaredNorm() <= 1.0);
      for (int i = 0; i < dims; ++i) {
        z[i][l] = laneZ[l][i];
        axes[i][l] = laneAxes[l][i];
        scaledZ[i][l] = laneZ[l][i] * laneMetric[l][i];
        scaledAxes[i][l] = laneAxes[l][i] * laneMetric[l][i];
      }
    }
    const int inactive = trial % 4;
    LaneMask active = {-1, -1, -1, -1};
    active[inactive] = 0;
    projectOutsidePoint<dims>(scaledZ, scaledAxes, active, x, z);
    for (int l = 0; l < 4; ++l) {
      if (l == inactive) continue;
      double sz[dims], sa[dims], lz[dims], lx[dims];
      for (int i = 0; i < dims; ++i) sz[i] = scaledZ[i][l], sa[i] = scaledAxes[i][l], lz[i] = z[i][l];
      projectOutsidePoint<dims>(sz, sa, true, lx, lz);
      const Mat3 metric = laneMetric[l].cwiseProduct(laneMetric[l]).asDiagonal();
      const Vec3 reference = proxEllipsoidInMetric(laneZ[l], laneAxes[l], metric);
      for (int i = 0; i < dims; ++i) {
        ASSERT_EQ(x[i][l], lx[i]) << "trial " << trial << " lane " << l;
        ASSERT_NEAR(x[i][l], reference[i], 1e-9 * laneAxes[l][0]) << "trial " << trial << " lane " << l;
      }
    }
  }
}

TEST(EllipsoidSearch, ProjectionLanesGiveTheScalarBitsAndTheMetricProjection) {
  checkProjectionLanes<3>(13);
  checkProjectionLanes<2>(17);
}

// Lane l of a vector of lanes or of masks, or of a pair (LanePair, LaneMaskPair) of such, nested
// or not: every element is 8 bytes, so a value of V has sizeof(V) / 8 lanes.
template <class V>
constexpr int kWidth = sizeof(V) / sizeof(double);
template <class V>
concept HalvesPair = requires(V v) { v.second; };
template <class V, class X>
void setLane(V& v, int l, X x) {
  if constexpr (HalvesPair<V>) {
    constexpr int half = kWidth<decltype(v.first)>;
    l < half ? setLane(v.first, l, x) : setLane(v.second, l - half, x);
  } else {
    v[l] = x;
  }
}
template <class V>
auto getLane(const V& v, int l) {
  if constexpr (HalvesPair<V>) {
    constexpr int half = kWidth<decltype(v.first)>;
    return l < half ? getLane(v.first, l) : getLane(v.second, l - half);
  } else {
    return v[l];
  }
}

// Vectors of lanes searched as one, as the sweep searches its gathered lanes: a LanePair (eight
// lanes) and a pair of LanePairs (sixteen). Each active lane gives the scalar search's bits,
// whichever lanes are inactive (their x is not meaningful: the sweep keeps its own value there),
// with the spheroid's two-term search as with the three-term one (the lanes' tangential axes are
// equal). The 512-bit vectors are checked as the library compiles them, for x86-64-v4
// (gathered_search_test.cpp): here, in a baseline build, GCC splits them element by element, which
// would make the unity unit holding this file take far too long to compile.
template <class Vector, bool spheroid>
void checkWideLanes(unsigned seed) {
  constexpr int width = kWidth<Vector>;
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    Vector z[3], axes[3], x[3];
    for (int l = 0; l < width; ++l) {
      const double normal = std::pow(10.0, 4.0 * unit(random) - 2.0);
      const Vec3 laneAxes(0.75 * normal, 0.75 * normal, 0.01 * normal);
      Vec3 laneZ;
      do {  // outside the ellipsoid
        laneZ = Vec3(unit(random) - 0.5, unit(random) - 0.5, 0.02 * (unit(random) - 0.5)) * 4.0 * normal;
      } while (laneZ.cwiseQuotient(laneAxes).squaredNorm() <= 1.0);
      for (int i = 0; i < 3; ++i) {
        setLane(z[i], l, laneZ[i]);
        setLane(axes[i], l, laneAxes[i]);
      }
    }
    decltype(Vector{} < Vector{}) active;
    for (int l = 0; l < width; ++l) setLane(active, l, std::int64_t{unit(random) < 0.3 ? 0 : -1});
    projectOutsidePoint<3, spheroid>(z, axes, active, x);
    for (int l = 0; l < width; ++l) {
      double lz[3], la[3], lx[3];
      for (int i = 0; i < 3; ++i) lz[i] = getLane(z[i], l), la[i] = getLane(axes[i], l);
      projectOutsidePoint<3, spheroid>(lz, la, true, lx);
      if (getLane(active, l) != 0)
        for (int i = 0; i < 3; ++i) ASSERT_EQ(getLane(x[i], l), lx[i]) << "trial " << trial << " lane " << l;
    }
  }
}

TEST(EllipsoidSearch, PairedLanesGiveTheScalarBits) {
  checkWideLanes<LanePair<Lanes>, false>(19);
  checkWideLanes<LanePair<LanePair<Lanes>>, false>(23);
}

TEST(EllipsoidSearch, SpheroidLanesGiveTheScalarBits) {
  checkWideLanes<Lanes, true>(37);
  checkWideLanes<LanePair<LanePair<Lanes>>, true>(41);
}

// The spheroid's two-term search solves the same secular equation as the three-term one: on
// spheroids (mu_t = mu_s) in the shapes the sweep meets, over six decades of lambda_n and torsion
// axes from 1e-6 to 1 of the tangential ones, both points agree to 1e-10 of the tangential axis
// and lie on the spheroid to 1e-9 (both searches stop within 1e-12 relative of the root in t).
TEST(EllipsoidSearch, SpheroidSearchFindsTheThreeTermPoint) {
  std::mt19937_64 random(47);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 20000; ++trial) {
    const double normal = std::pow(10.0, 6.0 * unit(random) - 3.0);
    const double torsionRatio = std::pow(10.0, -6.0 * unit(random));
    const double axes[3] = {0.75 * normal, 0.75 * normal, 0.75 * torsionRatio * normal};
    double z[3];
    do {
      for (int i = 0; i < 3; ++i) z[i] = 4.0 * axes[i] * (unit(random) - 0.5);
    } while ((z[0] / axes[0]) * (z[0] / axes[0]) + (z[1] / axes[1]) * (z[1] / axes[1]) + (z[2] / axes[2]) * (z[2] / axes[2]) <= 1.0);
    double general[3], spheroid[3];
    projectOutsidePoint<3, false>(z, axes, true, general);
    projectOutsidePoint<3, true>(z, axes, true, spheroid);
    double onSurface = 0.0;
    for (int i = 0; i < 3; ++i) {
      ASSERT_NEAR(spheroid[i], general[i], 1e-10 * axes[0]) << "trial " << trial << " coordinate " << i;
      onSurface += (spheroid[i] / axes[i]) * (spheroid[i] / axes[i]);
    }
    ASSERT_NEAR(onSurface, 1.0, 1e-9) << "trial " << trial;
  }
}

TEST(EllipsoidSearch, ReciprocalsAreCloseToDivisionAndExactOutsideTheirRange) {
  const double e[3] = {3.0, 1e-3, 7.5};
  double inverse[3];
  reciprocals<3>(e, inverse);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(inverse[i], 1.0 / e[i], 4e-16 / e[i]);
  // Below 1e-100 (where the product would underflow): plain divisions, so correctly rounded.
  const double tiny[3] = {1e-120, 3e-120, 7e-120};
  reciprocals<3>(tiny, inverse);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(inverse[i], 1.0 / tiny[i]);
  // A zero element: 1/0 = inf for it, finite for the others (no 0 * inf = NaN).
  const double withZero[3] = {2.0, 0.0, 4.0};
  reciprocals<3>(withZero, inverse);
  EXPECT_EQ(inverse[0], 0.5);
  EXPECT_TRUE(std::isinf(inverse[1]));
  EXPECT_EQ(inverse[2], 0.25);
  // In range one by one although a partial product would overflow: 1e-300 is out of range.
  const double spread[3] = {1e-300, 1e160, 1e160};
  reciprocals<3>(spread, inverse);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(inverse[i], 1.0 / spread[i]);
}

TEST(EllipsoidSearch, UnitCubeScaleIsThePowerOfTwoBelowTheReciprocal) {
  EXPECT_EQ(powerOfTwoBelowReciprocal(1.0), 0.5);
  EXPECT_EQ(powerOfTwoBelowReciprocal(3.0), 0.25);
  EXPECT_EQ(powerOfTwoBelowReciprocal(4.0), 0.125);
  EXPECT_EQ(powerOfTwoBelowReciprocal(1e300), std::ldexp(1.0, -997));  // 2^996 <= 1e300 < 2^997
  // At the top of the range it stays 2^-1022, so the scaled value stays below 4.
  EXPECT_EQ(powerOfTwoBelowReciprocal(std::numeric_limits<double>::max()), std::ldexp(1.0, -1022));
  const Lanes x = {1.0, 3.0, 1e300, std::numeric_limits<double>::max()};
  const Lanes scale = powerOfTwoBelowReciprocal(x);
  for (int l = 0; l < 4; ++l) EXPECT_EQ(scale[l], powerOfTwoBelowReciprocal(x[l])) << "lane " << l;
}

}  // namespace
}  // namespace contactlab::ellipsoid_search
