// The built-in scenes of rigid bodies solved with a soft one (scenes/soft_bodies.cpp): the stack
// on the soft slab stands on the dented slab, the ball rolls along the mat.
#include <gtest/gtest.h>

#include "support/test_scenes.h"

namespace contactlab::mixed_island_scenes_test {

// Three 0.2 m boxes (8 kg each) on a 1 x 1 x 0.1 m slab of E = 1e5 Pa: under the footprint the slab
// dents by at most the uniaxial (3 m g / 0.04 m^2 + rho g h / 2) h / E = 6.4 mm (less: the slab
// around the footprint carries part of it), and the stack stays upright on it.
TEST(MixedIslandScenes, SoftSlabBoxesStandOnTheDentedSlab) {
  World world(buildBuiltinScene("soft-slab-boxes", {}, 1));
  ASSERT_EQ(world.deformableBodyCount(), 1);
  test::runFor(world, 0.5);
  const auto& bodies = world.bodies();
  ASSERT_EQ(bodies.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    const Body& box = bodies[2 + i];
    SCOPED_TRACE(box.name);
    EXPECT_TRUE(box.coupled);
    const double resting = 0.1 + (i + 0.5) * 0.2;
    EXPECT_LT(box.position.z(), resting);
    EXPECT_GT(box.position.z(), resting - 0.0064);
    EXPECT_GT((box.rotation() * Vec3::UnitZ()).z(), std::cos(0.02));  // upright
    EXPECT_LT(box.velocity.norm(), 0.05);
  }
  EXPECT_LT(world.lastMetrics().maxPenetration, 1e-4);
}

TEST(MixedIslandScenes, BallRollsAlongTheMat) {
  World world(buildBuiltinScene("ball-on-mat", {}, 1));
  const Body& ball = world.bodies()[2];
  const double start = ball.position.x();
  test::runFor(world, 0.5);
  EXPECT_TRUE(ball.coupled);
  EXPECT_GT(ball.position.x() - start, 0.4);  // started at 1 m/s; slowed by the mat only a little
  EXPECT_LT(ball.position.x() - start, 0.5);
  EXPECT_NEAR(ball.angularVelocity.y() * 0.1, ball.velocity.x(), 0.05 * ball.velocity.x());  // rolling
  EXPECT_GT(ball.position.z(), 0.05 + 0.1 - 0.01);  // on the mat, in a dent under 1 cm
  EXPECT_LT(world.lastMetrics().maxPenetration, 1e-4);
}

}  // namespace contactlab::mixed_island_scenes_test
