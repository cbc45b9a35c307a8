#pragma once
// The closest-point searches (sec. 4.1, ellipsoid_search.h) of the outside lanes that the
// Gauss-Seidel sweep gathers from a run of groups (ProxGaussSeidel::searchRun), sixteen, eight or
// four at a time. Compiled apart from the sweep, for two instruction sets:
//  - gathered_search.cpp: 256-bit vectors (LanePairs of LanePacks), as target clones for AVX2 and
//    baseline x86-64, like the sweep;
//  - gathered_search_avx512.cpp: 512-bit vectors, in a file compiled for x86-64-v4 (AVX-512) as a
//    whole. A target_clones or target("arch=x86-64-v4") function is not enough: GCC 12 then still
//    splits the helpers' 512-bit selects element by element into scalar compares, and the sweep
//    is far slower (docs/benchmarks.md).
// searchGatheredLanes picks the second where the CPU has x86-64-v4. Each lane's result depends on
// its own values only, and neither file contracts multiplies and adds into FMAs
// (-ffp-contract=off), so both give the same bits.
#include "solvers/prox/ellipsoid_search.h"
#include "solvers/prox/lane_pair.h"

namespace contactlab::gathered_search {

// 32 lanes (the sweep's kMaxRun groups of four) and room for the padding of the last vector.
struct GatheredLanes {
  static constexpr int kCapacity = 32;
  static_assert(kCapacity % 16 == 0, "padding fills whole vectors of sixteen lanes");
  alignas(64) double scaledZ[3][kCapacity];     // the search's problem, y = sqrt(G) x substituted
  alignas(64) double scaledAxes[3][kCapacity];
  alignas(64) double z[3][kCapacity];           // the unsubstituted point (the search's `mapped`)
  alignas(64) double x[3][kCapacity];           // the closest points
  int count;                                    // lanes in use, from 0
};

// x of lanes [0, count), count >= 2. `spheroid`: in every lane the first two scaled axes are equal
// (the two-term search of ellipsoid_search.h).
void searchGatheredLanes(GatheredLanes& lanes, bool spheroid);

// The two versions; searchGatheredLanes calls one.
void searchGatheredLanesIn256Bits(GatheredLanes& lanes, bool spheroid);
void searchGatheredLanesIn512Bits(GatheredLanes& lanes, bool spheroid);

#define CONTACTLAB_LANE_INLINE [[gnu::always_inline]] inline

// The closest points of outside points z on the ellipsoids of semi-axes `axes`, for the active
// lanes of T (a vector of lanes, or a LanePair of them).
template <class T, class Mask>
CONTACTLAB_LANE_INLINE void projectOutsidePoints(const T* z, const T* axes, Mask active, T* x, const T* mapped, bool spheroid) {
  if (spheroid)
    ellipsoid_search::projectOutsidePoint<3, true>(z, axes, active, x, mapped);
  else
    ellipsoid_search::projectOutsidePoint<3, false>(z, axes, active, x, mapped);
}

// The search on the lanes [begin, begin + lanes of T) as one vector problem of T; lanes from
// `count` on are padding, not active.
template <class T>
CONTACTLAB_LANE_INLINE void searchFrom(GatheredLanes& lanes, int begin, bool spheroid) {
  alignas(64) static constexpr double kLaneIndex[GatheredLanes::kCapacity] = {
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
  static_assert(GatheredLanes::kCapacity == 32, "kLaneIndex lists every lane");
  T scaledZ[3], scaledAxes[3], z[3], x[3], laneIndex;
  for (int i = 0; i < 3; ++i) {
    __builtin_memcpy(&scaledZ[i], lanes.scaledZ[i] + begin, sizeof(T));
    __builtin_memcpy(&scaledAxes[i], lanes.scaledAxes[i] + begin, sizeof(T));
    __builtin_memcpy(&z[i], lanes.z[i] + begin, sizeof(T));
  }
  __builtin_memcpy(&laneIndex, kLaneIndex + begin, sizeof(T));
  projectOutsidePoints(scaledZ, scaledAxes, laneIndex < double(lanes.count), x, z, spheroid);
  for (int i = 0; i < 3; ++i) __builtin_memcpy(lanes.x[i] + begin, &x[i], sizeof(T));
}

// Both versions' body: padding with harmless outside points of the unit ball up to a whole vector,
// then sixteen lanes at a time (Sixteen), eight (Eight) and four (Four).
template <class Four, class Eight, class Sixteen>
CONTACTLAB_LANE_INLINE void searchAll(GatheredLanes& lanes, bool spheroid) {
  const int count = lanes.count;
  const int unit = count > 8 ? 16 : 8;
  const int padded = (count + unit - 1) / unit * unit;
  for (int c = count; c < padded; ++c)
    for (int i = 0; i < 3; ++i) lanes.scaledZ[i][c] = 2.0, lanes.scaledAxes[i][c] = 1.0, lanes.z[i][c] = 0.0;
  int begin = 0;
  for (; count - begin > 8; begin += 16) searchFrom<Sixteen>(lanes, begin, spheroid);
  for (; count - begin > 4; begin += 8) searchFrom<Eight>(lanes, begin, spheroid);
  if (count > begin) searchFrom<Four>(lanes, begin, spheroid);
}

#undef CONTACTLAB_LANE_INLINE

}  // namespace contactlab::gathered_search
