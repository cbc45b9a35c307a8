// World::snapshot's continuation (contactlab/scene.h, Continuation): a saved world, loaded back,
// steps exactly as the world it was saved from, warm starts, drift anchors, sleeping islands,
// kinematic schedules and deformable constraint states included.
#include <gtest/gtest.h>

#include "contactlab/scene.h"
#include "contactlab/world.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

World reloaded(const World& world, const WorldSettings& settings, bool withContinuation = true) {
  Scene scene = parseSceneJson(sceneToJson(world.snapshot()), "snapshot");
  if (!withContinuation) scene.continuation = {};
  return World(scene, settings);
}

void step(World& world, int steps) {
  for (int i = 0; i < steps; ++i) world.step();
}

// Every body's pose and velocities the same to the last bit.
bool identical(const World& a, const World& b) {
  for (std::size_t i = 0; i < a.bodies().size(); ++i) {
    const Body &x = a.bodies()[i], &y = b.bodies()[i];
    if (x.position != y.position || x.orientation.coeffs() != y.orientation.coeffs() || x.velocity != y.velocity ||
        x.angularVelocity != y.angularVelocity)
      return false;
  }
  return true;
}

TEST(WorldContinuation, ASavedWallRunsOnBitForBit) {
  const WorldSettings settings;
  World world(buildBuiltinScene("wall", {}, 1), settings);
  step(world, 50);
  World restored = reloaded(world, settings);
  World cold = reloaded(world, settings, false);
  EXPECT_FALSE(world.snapshot().continuation.contacts.empty());
  step(world, 50);
  step(restored, 50);
  step(cold, 50);
  EXPECT_TRUE(identical(world, restored));
  // Without its warm starts and anchors the same state steps otherwise: what the continuation carries.
  EXPECT_FALSE(identical(world, cold));
}

TEST(WorldContinuation, ASleepingColumnIsStillAsleepWhenLoaded) {
  WorldSettings settings;
  settings.sleep = true;
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  for (int i = 0; i < 3; ++i) scene.bodies.push_back(test::box(Vec3(0.5, 0.5, 0.3), Vec3(0, 0, 0.15 + 0.3 * i)));
  scene.bodies.push_back(test::box(Vec3(0.5, 0.5, 0.3), Vec3(3, 0, 0.15)));  // a box of its own beside it
  World world(scene, settings);
  step(world, 100);
  ASSERT_TRUE(world.bodies()[1].asleep && world.bodies()[3].asleep);
  // The lone box is tossed up: when saved it is awake, landed or landing, its rest timer running.
  world.applyImpulse(4, Vec3(0, 0, 200), world.bodies()[4].position);
  step(world, 10);
  ASSERT_FALSE(world.bodies()[4].asleep);
  World restored = reloaded(world, settings);
  for (int i = 1; i <= 4; ++i) EXPECT_EQ(restored.bodies()[i].asleep, world.bodies()[i].asleep) << "body " << i;
  // Its rest timer goes on from where it was: both worlds put it to sleep at the same step.
  for (int i = 0; i < 100; ++i) {
    world.step();
    restored.step();
    ASSERT_EQ(world.bodies()[4].asleep, restored.bodies()[4].asleep) << "step " << i;
  }
  EXPECT_TRUE(restored.bodies()[4].asleep);
  EXPECT_TRUE(identical(world, restored));
}

// A kinematic body's schedule key that falls on the step the world was saved at is taken by the
// loaded scene's first step, as by the next step of the world saved.
TEST(WorldContinuation, AScheduleKeyDueWhenSavedIsTakenByTheNextStep) {
  Scene scene;
  BodyDesc bed = test::box(Vec3(4, 2, 0.2), Vec3(0, 0, -0.1));
  bed.motion = MotionType::Kinematic;
  bed.velocity = Vec3(2, 0, 0);
  bed.velocitySchedule = {{0.5, Vec3::Zero()}};
  scene.bodies = {bed, test::box(Vec3(0.3, 0.3, 0.3), Vec3(0, 0, 0.15))};
  const WorldSettings settings;
  World world(scene, settings);
  step(world, 50);  // t = 0.5: the key's step is next
  World restored = reloaded(world, settings);
  step(world, 20);
  step(restored, 20);
  EXPECT_EQ(restored.bodies()[0].velocity, Vec3::Zero());
  EXPECT_TRUE(identical(world, restored));
}

// The loaded world's clock and step count go on from the saved one's (a continued run's trace
// and metrics count on), and it reports no step of its own until it has taken one.
TEST(WorldContinuation, TheClockAndTheStepCountRunOn) {
  const WorldSettings settings;
  World world(buildBuiltinScene("tower", {}, 1), settings);
  step(world, 37);
  World restored = reloaded(world, settings);
  EXPECT_EQ(restored.stepCount(), 37);
  EXPECT_EQ(restored.time(), world.time());
  EXPECT_FALSE(restored.stepped());
  world.step();
  restored.step();
  EXPECT_TRUE(restored.stepped());
  EXPECT_EQ(restored.stepCount(), 38);
  EXPECT_EQ(restored.time(), world.time());
  EXPECT_EQ(restored.lastMetrics().step, 38);
  EXPECT_TRUE(identical(world, restored));
}

// A soft cube resting on the ground, held by active vertex constraints with friction: the loaded
// world starts each of them from its CR state and multipliers.
TEST(WorldContinuation, ASoftCubeInContactRunsOnBitForBit) {
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc cube = test::softCube(0.2, Vec3(0, 0, 0.1005));
  cube.velocity = Vec3(0.3, 0, 0);  // sliding: kinetic friction states
  scene.bodies = {test::staticGround(0.3), cube};
  const WorldSettings settings;
  World world(scene, settings);
  step(world, 30);
  const Continuation carried = world.snapshot().continuation;
  ASSERT_FALSE(carried.constraints.empty());
  World restored = reloaded(world, settings);
  World cold = reloaded(world, settings, false);
  step(world, 20);
  step(restored, 20);
  step(cold, 20);
  const DeformableMeshView a = world.deformableBody(0), b = restored.deformableBody(0), c = cold.deformableBody(0);
  bool coldDiffers = false;
  for (std::size_t i = 0; i < a.positions.size(); ++i) {
    ASSERT_EQ(a.positions[i], b.positions[i]) << "node " << i;
    ASSERT_EQ(a.velocities[i], b.velocities[i]) << "node " << i;
    coldDiffers |= a.velocities[i] != c.velocities[i];
  }
  EXPECT_TRUE(coldDiffers);
}

TEST(WorldContinuation, AContactOfABodyTheSceneDoesNotHaveIsAnError) {
  Scene scene;
  scene.bodies = {test::staticGround(), test::box(Vec3(1, 1, 1), Vec3(0, 0, 0.5))};
  scene.continuation.contacts.push_back({0, 7});
  try {
    World world(scene);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("continuation: a contact between bodies 0 and 7 of 2"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace contactlab
