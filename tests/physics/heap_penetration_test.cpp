// A heap at the defaults holds no visible penetration: the deepest contact of a settled heap is at
// most 1 % of its smallest body, here the built-in pile's 0.2 m bodies: 2 mm.
#include <gtest/gtest.h>

#include <algorithm>

#include "contactlab/world.h"

namespace contactlab {
namespace {

TEST(HeapPenetration, ASettledPileAtTheDefaultsIsAtMostOnePercentOfItsSmallestBodyDeep) {
  World world(buildBuiltinScene("pile", {{"count", 300}}, 1));  // default settings: sleeping off
  double deepest = 0.0;
  for (int step = 1; step <= 400; ++step) {
    world.step();
    if (step > 300) deepest = std::max(deepest, world.lastMetrics().maxPenetration);  // landed by 3 s
  }
  EXPECT_LE(deepest, 0.01 * 0.2);
}

}  // namespace
}  // namespace contactlab
