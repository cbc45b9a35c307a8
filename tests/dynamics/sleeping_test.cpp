// Sleeping (engine/src/dynamics/sleeping.h, WorldSettings::sleep): an island at rest sleeps with its
// state frozen, and wakes when something touches it, when it is pushed, or when a setting changes.
#include "dynamics/sleeping.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

// A column of three boxes on the ground and, far above it, a sphere that reaches it after the column
// has come to rest: it falls 20 m, about two seconds.
Scene columnAndFallingSphere() {
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  for (int i = 0; i < 3; ++i) scene.bodies.push_back(test::box(Vec3(0.5, 0.5, 0.3), Vec3(0, 0, 0.15 + 0.3 * i)));
  scene.bodies.push_back(test::sphere(0.2, Vec3(0.05, 0, 21.0)));
  return scene;
}

WorldSettings sleeping() {
  WorldSettings settings;
  settings.sleep = true;
  return settings;
}

bool columnAsleep(const World& world) {
  return std::all_of(world.bodies().begin() + 1, world.bodies().begin() + 4, [](const Body& b) { return b.asleep; });
}

TEST(Sleeping, AColumnAtRestSleepsWithItsStateFrozen) {
  World world(columnAndFallingSphere(), sleeping());
  test::runFor(world, 1.5);
  ASSERT_TRUE(columnAsleep(world));
  EXPECT_FALSE(world.bodies()[4].asleep);  // the sphere is still falling
  const Body top = world.bodies()[3];
  EXPECT_EQ(top.velocity, Vec3::Zero());
  test::runFor(world, 0.2);
  EXPECT_EQ(world.bodies()[3].position, top.position);  // not a bit moved
  EXPECT_EQ(world.bodies()[3].orientation.coeffs(), top.orientation.coeffs());
}

TEST(Sleeping, ABodyLandingOnASleepingColumnWakesItAndRestsOnIt) {
  World world(columnAndFallingSphere(), sleeping());
  test::runFor(world, 1.5);
  ASSERT_TRUE(columnAsleep(world));
  bool woke = false;
  test::runFor(world, 1.5, [&](const World& w) { woke |= !columnAsleep(w); });
  EXPECT_TRUE(woke);
  test::runFor(world, 2.0);
  // The sphere rests on the top box (top face at z = 0.9), not inside the column.
  EXPECT_NEAR(world.bodies()[4].position.z(), 0.9 + 0.2, 5e-3);
  EXPECT_LT(world.bodies()[4].velocity.norm(), 0.05);
}

TEST(Sleeping, APushOrASettingChangeWakesTheIsland) {
  World world(columnAndFallingSphere(), sleeping());
  test::runFor(world, 1.5);
  ASSERT_TRUE(columnAsleep(world));
  world.applyImpulse(2, Vec3(1.0, 0, 0), world.bodies()[2].position);  // the middle box
  EXPECT_FALSE(columnAsleep(world));
  EXPECT_FALSE(world.bodies()[1].asleep);  // the whole island woke, not only the pushed box
  EXPECT_GT(world.bodies()[2].velocity.x(), 0.0);

  test::runFor(world, 1.5);
  ASSERT_TRUE(columnAsleep(world));
  WorldSettings changed = world.settings();
  changed.solver.prox.rFactor = RFactorStrategy::Local;
  world.setSettings(changed);
  EXPECT_FALSE(columnAsleep(world));
}

TEST(Sleeping, OffByDefaultInTheEngine) {
  World world(columnAndFallingSphere());
  test::runFor(world, 1.5);
  EXPECT_FALSE(std::any_of(world.bodies().begin(), world.bodies().end(), [](const Body& b) { return b.asleep; }));
}

}  // namespace
}  // namespace contactlab
