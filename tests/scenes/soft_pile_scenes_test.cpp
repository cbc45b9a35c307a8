// The piles of deformable bodies (scenes/soft_piles.cpp) at a reduced count: the rings built from
// the paper's directly made ring (108 tetrahedra), the bunnies by tetgen; a few hundred steps land
// them in the container with no NaN and no surface vertex inside another body or the container.
// The full scenes (120 bodies, 1000 steps) are bench/'s: docs/benchmarks.md.
#include <gtest/gtest.h>

#include <cmath>

#include "support/test_scenes.h"

namespace contactlab::soft_pile_scenes_test {

// Runs the scene for `steps`, checking every step: finite node positions, and the independent
// check's depth (StepMetrics::maxPenetration) under epsilon_2 plus the pair contacts' 5 um
// (tests/physics/deformable_pair_contact_test.cpp). Returns the lowest node's z at the end.
double runChecked(World& world, int steps) {
  for (int step = 0; step < steps; ++step) {
    world.step();
    EXPECT_LT(world.lastMetrics().maxPenetration, 1e-5) << "step " << world.stepCount();
    if (::testing::Test::HasFailure()) break;
  }
  double lowest = 1e9;
  for (int i = 0; i < world.deformableBodyCount(); ++i)
    for (const Vec3& x : world.deformableBody(i).positions) {
      EXPECT_TRUE(x.allFinite());
      lowest = std::min(lowest, x.z());
    }
  return lowest;
}

TEST(SoftPileScenes, RingsLandInTheContainerTangleFree) {
  World world(buildBuiltinScene("rings", {{"count", 6}}, 1));
  ASSERT_EQ(world.deformableBodyCount(), 6);
  EXPECT_EQ(world.deformableBody(0).tetrahedra.size(), 108u);
  EXPECT_EQ(world.deformableBody(0).surface.size(), 144u);
  const double lowest = runChecked(world, 400);
  EXPECT_GT(lowest, -1e-5);  // on the floor, z = 0
  EXPECT_LT(lowest, 0.01);   // landed
}

TEST(SoftPileScenes, BunniesLandInTheContainer) {
  World world(buildBuiltinScene("bunnies", {{"count", 2}}, 1));
  ASSERT_EQ(world.deformableBodyCount(), 2);
  // "A few hundred to a thousand tetrahedra" (docs/deformable.md states the count).
  EXPECT_GE(world.deformableBody(0).tetrahedra.size(), 300u);
  EXPECT_LE(world.deformableBody(0).tetrahedra.size(), 1000u);
  const double lowest = runChecked(world, 400);
  EXPECT_GT(lowest, -1e-5);
  EXPECT_LT(lowest, 0.01);
}

}  // namespace contactlab::soft_pile_scenes_test
