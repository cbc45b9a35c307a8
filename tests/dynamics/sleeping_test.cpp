// Sleeping (engine/src/dynamics/sleeping.h, WorldSettings::sleep): an island at rest sleeps with its
// state frozen, and wakes when something touches it, when it is pushed, or when a setting changes.
#include "dynamics/sleeping.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "dynamics/body_setup.h"
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

// The tracker alone, on one free sphere of radius 0.2 m in an island of its own, moved by hand.
struct LoneBody {
  std::vector<Body> bodies{makeBody(test::sphere(0.2, Vec3(0, 0, 1)), FrictionDefaults{}, 0)};
  std::vector<int> bodyOfSlot{0};
  ContactIslands islands;
  SleepTracker tracker;
  LoneBody() {
    ContactProblem problem;
    problem.numSlots = 1;
    islands.find(problem);
    tracker.reset(bodies);
  }
  // One step of dt = 10 ms that leaves the body at `position` moving at `velocity`.
  void step(const Vec3& position, const Vec3& velocity) {
    bodies[0].position = position;
    bodies[0].velocity = velocity;
    tracker.update(bodies, bodyOfSlot, islands, {}, 0.01);
  }
};

// The threshold is a mean speed over the rest window (sleeping.h): a body that trembles in place at
// 0.3 m/s, fifteen times the threshold, sleeps after half a second; one that creeps on at 3 cm/s,
// one and a half times it, never does.
TEST(Sleeping, ABodyTremblingInPlaceSleepsAndOneCreepingFasterThanTheThresholdDoesNot) {
  LoneBody trembling;
  int steps = 0;
  while (!trembling.bodies[0].asleep && steps < 100) {
    trembling.step(Vec3(0, 0, steps % 2 ? 1.001 : 1.0), Vec3(0, 0, steps % 2 ? -0.3 : 0.3));
    ++steps;
  }
  EXPECT_GE(steps, 50);  // 0.5 s of 10 ms steps, give or take the timer's rounding
  EXPECT_LE(steps, 51);
  EXPECT_EQ(trembling.bodies[0].velocity, Vec3::Zero());

  LoneBody creeping;
  for (int i = 1; i <= 300; ++i) creeping.step(Vec3(0.0003 * i, 0, 1.0), Vec3(0.03, 0, 0));
  EXPECT_FALSE(creeping.bodies[0].asleep);
}

TEST(Sleeping, OffByDefaultInTheEngine) {
  World world(columnAndFallingSphere());
  test::runFor(world, 1.5);
  EXPECT_FALSE(std::any_of(world.bodies().begin(), world.bodies().end(), [](const Body& b) { return b.asleep; }));
}

}  // namespace
}  // namespace contactlab
