// The searches of gathered lanes (gathered_search.h), in 256-bit and 512-bit vectors, against the
// scalar search lane by lane: the Gauss-Seidel sweep's results must not depend on the CPU it runs
// on, nor on how many lanes a run gathers.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "solvers/prox/gathered_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace contactlab::gathered_search {
namespace {

// `count` outside points of friction-ellipsoid-shaped spheroids (mu = 0.75, mu_tau = 0.01 m) over
// four decades of lambda_n, in a diagonal metric (equal tangential entries when `spheroid`).
GatheredLanes randomLanes(std::mt19937_64& random, int count, bool spheroid) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  GatheredLanes lanes{};
  lanes.count = count;
  for (int l = 0; l < count; ++l) {
    const double normal = std::pow(10.0, 4.0 * unit(random) - 2.0);
    const double axes[3] = {0.75 * normal, 0.75 * normal, 0.01 * normal};
    const double tangentialMetric = std::pow(10.0, unit(random));
    const double metric[3] = {tangentialMetric, spheroid ? tangentialMetric : std::pow(10.0, unit(random)),
                              std::pow(10.0, unit(random))};
    double z[3], inside;
    do {
      inside = 0.0;
      for (int i = 0; i < 3; ++i) {
        z[i] = 4.0 * axes[i] * (unit(random) - 0.5);
        inside += (z[i] / axes[i]) * (z[i] / axes[i]);
      }
    } while (inside <= 1.0);
    for (int i = 0; i < 3; ++i) {
      lanes.z[i][l] = z[i];
      lanes.scaledZ[i][l] = z[i] * metric[i];
      lanes.scaledAxes[i][l] = axes[i] * metric[i];
    }
  }
  return lanes;
}

void expectScalarBits(const GatheredLanes& lanes, bool spheroid, const char* version) {
  for (int l = 0; l < lanes.count; ++l) {
    double scaledZ[3], scaledAxes[3], z[3], x[3];
    for (int i = 0; i < 3; ++i) scaledZ[i] = lanes.scaledZ[i][l], scaledAxes[i] = lanes.scaledAxes[i][l], z[i] = lanes.z[i][l];
    projectOutsidePoints(scaledZ, scaledAxes, true, x, z, spheroid);
    for (int i = 0; i < 3; ++i)
      ASSERT_EQ(lanes.x[i][l], x[i]) << version << ": lane " << l << " of " << lanes.count << ", coordinate " << i;
  }
}

// Every count the sweep gathers (2 to 32 lanes: a whole vector, a part of one, several), with the
// two-term spheroid search and the three-term one.
void checkEveryCount(void (*search)(GatheredLanes&, bool), const char* version) {
  std::mt19937_64 random(53);
  for (const bool spheroid : {true, false})
    for (int count = 2; count <= GatheredLanes::kCapacity; ++count)
      for (int trial = 0; trial < 20; ++trial) {
        GatheredLanes lanes = randomLanes(random, count, spheroid);
        search(lanes, spheroid);
        expectScalarBits(lanes, spheroid, version);
      }
}

TEST(GatheredSearch, The256BitVersionGivesTheScalarBits) { checkEveryCount(searchGatheredLanesIn256Bits, "256-bit"); }

TEST(GatheredSearch, The512BitVersionGivesTheScalarBits) {
  if (!__builtin_cpu_supports("x86-64-v4")) GTEST_SKIP() << "this CPU has no x86-64-v4 (AVX-512)";
  checkEveryCount(searchGatheredLanesIn512Bits, "512-bit");
}

TEST(GatheredSearch, TheCpusVersionGivesTheScalarBits) { checkEveryCount(searchGatheredLanes, "the CPU's version"); }

}  // namespace
}  // namespace contactlab::gathered_search
