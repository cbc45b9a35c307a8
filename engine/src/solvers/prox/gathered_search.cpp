#include "solvers/prox/gathered_search.h"

namespace contactlab::gathered_search {

void searchGatheredLanes(GatheredLanes& lanes, bool spheroid) {
  static const bool hasAvx512 = __builtin_cpu_supports("x86-64-v4");
  if (hasAvx512)
    searchGatheredLanesIn512Bits(lanes, spheroid);
  else
    searchGatheredLanesIn256Bits(lanes, spheroid);
}

// Four lanes in a 256-bit vector; on baseline x86-64 each operation is two SSE2 instructions.
[[gnu::target_clones("avx2", "default")]] void searchGatheredLanesIn256Bits(GatheredLanes& lanes, bool spheroid) {
  using Four = double __attribute__((vector_size(4 * sizeof(double))));
  using ellipsoid_search::LanePair;
  searchAll<Four, LanePair<Four>, LanePair<LanePair<Four>>>(lanes, spheroid);
}

}  // namespace contactlab::gathered_search
