// render/bounds.h: what the camera frames and how steeply it looks, against hand-worked geometry.
#include "contactlab/render/bounds.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render_test_bodies.h"

namespace contactlab::render {
namespace {

using test::makeBody;

// Balls over the floor of an open box 1.2 m wide inside, walls 0.5 m thick and 0.3 m high.
std::vector<Body> ballsInAContainer() {
  std::vector<Body> bodies{makeBody(BoxShape{Vec3(1.1, 1.1, 0.1)}, Vec3(0, 0, -0.1), MotionType::Static)};
  for (const int side : {-1, 1}) {
    bodies.push_back(makeBody(BoxShape{Vec3(0.25, 1.1, 0.15)}, Vec3(side * 0.85, 0, 0.15), MotionType::Static));
    bodies.push_back(makeBody(BoxShape{Vec3(0.6, 0.25, 0.15)}, Vec3(0, side * 0.85, 0.15), MotionType::Static));
  }
  for (const double x : {-0.45, 0.45}) bodies.push_back(makeBody(SphereShape{0.1}, Vec3(x, x, 0.4)));
  return bodies;
}

// The framed box is the balls' down to the floor: centre (0, 0), bottom z = 0. Each wall's inner
// face is 0.6 m from the centre and 0.3 m high: atan(0.3 / 0.15).
TEST(WallClearingPitch, LooksOverAContainersWallsToTheFloorAQuarterOfTheWayIn) {
  const std::vector<Body> bodies = ballsInAContainer();
  const std::optional<Bounds> framed = framingBounds(bodies);
  ASSERT_TRUE(framed);
  EXPECT_DOUBLE_EQ(framed->lower.z(), 0.0);
  const std::optional<double> pitch = wallClearingPitch(bodies, *framed);
  ASSERT_TRUE(pitch);
  EXPECT_NEAR(*pitch, std::atan2(0.3, 0.15), 1e-12);
}

TEST(WallClearingPitch, NoneOnAnOpenFloorOrForAFarPillar) {
  std::vector<Body> bodies = ballsInAContainer();
  bodies.erase(bodies.begin() + 1, bodies.begin() + 5);  // the walls
  const std::optional<Bounds> framed = framingBounds(bodies);
  ASSERT_TRUE(framed);
  EXPECT_FALSE(wallClearingPitch(bodies, *framed));
  // A 3 m pillar 5 m away is not a wall round the balls.
  bodies.push_back(makeBody(BoxShape{Vec3(0.5, 0.5, 1.5)}, Vec3(5, 0, 1.5), MotionType::Static));
  EXPECT_FALSE(wallClearingPitch(bodies, *framed));
}

TEST(WallClearingPitch, NeverSteeperThanItsBound) {
  std::vector<Body> bodies = ballsInAContainer();
  bodies.push_back(makeBody(BoxShape{Vec3(0.05, 0.05, 10)}, Vec3(0.7, 0, 10), MotionType::Static));  // a mast
  const std::optional<Bounds> framed = framingBounds(bodies);
  ASSERT_TRUE(framed);
  EXPECT_DOUBLE_EQ(*wallClearingPitch(bodies, *framed), kMostWallClearingPitch);
}

}  // namespace
}  // namespace contactlab::render
