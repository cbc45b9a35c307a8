// Coulomb friction against closed-form results at the default settings: incline stick/slip and
// sliding distance.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

using test::kG;

// A 0.4 m cube resting on a static slab tilted by `angle` about the world y axis.
Scene inclineScene(double angle, double mu) {
  Scene scene;
  const Quat tilt(Eigen::AngleAxisd(angle, Vec3::UnitY()));
  const Vec3 slopeNormal = tilt * Vec3::UnitZ();
  BodyDesc slab = test::box(Vec3(20, 4, 1), Vec3::Zero());
  slab.orientation = tilt;
  slab.motion = MotionType::Static;
  slab.material.mu = mu;
  BodyDesc block = test::box(Vec3(0.4, 0.4, 0.4), (0.5 + 0.2) * slopeNormal);
  block.orientation = tilt;
  block.material.mu = mu;
  scene.bodies = {slab, block};
  return scene;
}

// "Stopped": no faster than the default solve's absolute tolerance on contact velocities (m/s); the
// solve ends once its merit (PROX eq. 27) is below it, so a resting body keeps a residue of that order.
const double kStopped = WorldSettings{}.solver.tolAbs;

TEST(Friction, BoxStaysOnA30DegreeInclineWhenMuExceedsTanAngle) {
  const double angle = std::numbers::pi / 6;
  World world(inclineScene(angle, 0.7));
  test::runFor(world, 0.2);  // settle onto the slope
  const Vec3 start = world.bodies()[1].position;
  test::runFor(world, 2.0);
  EXPECT_LT((world.bodies()[1].position - start).norm(), 1e-3);
}

TEST(Friction, BoxSlidesDownA30DegreeInclineAtTheCoulombAcceleration) {
  const double angle = std::numbers::pi / 6, mu = 0.4;
  World world(inclineScene(angle, mu));
  const Vec3 downSlope = Quat(Eigen::AngleAxisd(angle, Vec3::UnitY())) * Vec3::UnitX();
  test::runFor(world, 0.5);
  const double v1 = world.bodies()[1].velocity.dot(downSlope);
  test::runFor(world, 1.0);
  const double v2 = world.bodies()[1].velocity.dot(downSlope);
  const double expected = kG * (std::sin(angle) - mu * std::cos(angle));
  EXPECT_NEAR((v2 - v1) / 1.0, expected, 0.03 * expected);
}

TEST(Friction, SlidingBoxStopsAfterVSquaredOverTwoMuG) {
  const double mu = 0.5, speed = 5.0;
  Scene scene;
  BodyDesc block = test::box(Vec3(0.4, 0.4, 0.4), Vec3(0, 0, 0.2));
  block.velocity = Vec3(speed, 0, 0);
  block.material.mu = mu;
  scene.bodies = {test::staticGround(mu), block};
  World world(scene);
  test::runFor(world, 2.0);
  const double expected = speed * speed / (2 * mu * kG);
  EXPECT_LT(world.bodies()[1].velocity.norm(), kStopped) << "the box must have stopped";
  EXPECT_NEAR(world.bodies()[1].position.x(), expected, 0.02 * expected);
}

TEST(Friction, KinematicPlatformCarriesABoxThatSlidesOnWhenItStops) {
  // The platform moves at 1 m/s for 1 s, then stops. The box slips until it reaches the platform's
  // speed (mu g deceleration of the slip), rides along, and after the stop slides a further
  // v^2 / (2 mu g) relative to the platform.
  const double mu = 0.3, speed = 1.0;
  Scene scene;
  BodyDesc platform = test::box(Vec3(10, 2, 0.2), Vec3(0, 0, 0.1));
  platform.motion = MotionType::Kinematic;
  platform.velocitySchedule = {{0.0, Vec3(speed, 0, 0)}, {1.0, Vec3::Zero()}};
  platform.material.mu = mu;
  BodyDesc block = test::box(Vec3(0.4, 0.4, 0.4), Vec3(0, 0, 0.4));
  block.material.mu = mu;
  scene.gravity = Vec3(0, 0, -kG);
  scene.bodies = {platform, block};  // no ground: the platform is the only support
  World world(scene);

  test::runFor(world, 0.9);
  EXPECT_NEAR(world.bodies()[1].velocity.x(), speed, 1e-3) << "carried at the platform's speed";
  const double slipWhileStarting = speed * speed / (2 * mu * kG);  // the box lags by this much
  EXPECT_NEAR(world.bodies()[0].position.x() - world.bodies()[1].position.x(), slipWhileStarting,
              0.05 * slipWhileStarting);

  test::runFor(world, 0.1);  // the platform stops at t = 1 s
  const double atStop = world.bodies()[1].position.x();
  test::runFor(world, 1.0);
  EXPECT_LT(std::abs(world.bodies()[1].velocity.x()), kStopped) << "friction has stopped the box";
  const double slideOn = speed * speed / (2 * mu * kG);
  EXPECT_NEAR(world.bodies()[1].position.x() - atStop, slideOn, 0.05 * slideOn);
}

}  // namespace
}  // namespace contactlab
