// Which rigid bodies the deformable stages solve (mixed_islands.h), against islands worked out by hand.
#include "deformable/mixed_islands.h"

#include <gtest/gtest.h>

#include "contactlab/world.h"
#include "dynamics/body_setup.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

std::vector<Body> bodiesOf(const std::vector<BodyDesc>& descs) {
  std::vector<Body> bodies;
  for (std::size_t i = 0; i < descs.size(); ++i) bodies.push_back(makeBody(descs[i], FrictionDefaults{}, static_cast<int>(i)));
  return bodies;
}

const Vec3 kGravity(0, 0, -test::kG);
constexpr double kStep = 1e-3;

// A deformable box of 0.2 m at the origin: its swept box as DeformableSystem::sweptBoxes gives it
// for nodes at rest (grown by g dt^2 and a millimetre).
std::vector<Aabb> softBoxAtOrigin() {
  return {Aabb{Vec3::Constant(-0.1), Vec3::Constant(0.1)}.inflated(test::kG * kStep * kStep + 1e-3)};
}

TEST(MixedIslands, ChainsThroughTouchingDynamicBodiesOnly) {
  const std::vector<Body> bodies = bodiesOf({
      test::box(Vec3::Constant(0.2), Vec3(0.2, 0, 0)),     // 0: touches the soft box
      test::box(Vec3::Constant(0.2), Vec3(0.4, 0, 0)),     // 1: touches 0
      test::box(Vec3::Constant(0.2), Vec3(0.7, 0, 0)),     // 2: 10 cm beyond 1
      test::staticGround(),                                 // 3: static, under all
      test::box(Vec3::Constant(0.2), Vec3(-3.0, 0, 0.2)),  // 4: on the ground, far away
  });
  EXPECT_EQ(rigidBodiesInMixedIslands(bodies, softBoxAtOrigin(), kStep, kGravity), (std::vector<int>{0, 1}));
}

TEST(MixedIslands, AFastBodyJoinsWhatItCanReachInTheStep) {
  BodyDesc fast = test::box(Vec3::Constant(0.2), Vec3(0.3, 0, 0));  // 10 cm from the soft box
  std::vector<Body> bodies = bodiesOf({fast});
  EXPECT_TRUE(rigidBodiesInMixedIslands(bodies, softBoxAtOrigin(), kStep, kGravity).empty());
  bodies[0].velocity = Vec3(-120.0, 0, 0);  // 12 cm in a step
  EXPECT_EQ(rigidBodiesInMixedIslands(bodies, softBoxAtOrigin(), kStep, kGravity), (std::vector<int>{0}));
}

}  // namespace
}  // namespace contactlab
