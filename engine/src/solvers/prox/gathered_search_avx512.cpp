// Compiled for x86-64-v4 (CMakeLists.txt) and called only where the CPU has it (gathered_search.cpp).
// Nothing here may be emitted as a shared (weak) symbol that another file also defines, or the
// linker could keep this file's AVX-512 copy for every caller: the search's functions are all
// forced inline, and the 512-bit lane types are this file's alone.
#include "solvers/prox/gathered_search.h"

namespace contactlab::gathered_search {

// Eight lanes in a 512-bit vector; the last four lanes of a search in a 256-bit one.
void searchGatheredLanesIn512Bits(GatheredLanes& lanes, bool spheroid) {
  using Four = double __attribute__((vector_size(4 * sizeof(double))));
  using Eight = double __attribute__((vector_size(8 * sizeof(double))));
  searchAll<Four, Eight, ellipsoid_search::LanePair<Eight>>(lanes, spheroid);
}

}  // namespace contactlab::gathered_search
