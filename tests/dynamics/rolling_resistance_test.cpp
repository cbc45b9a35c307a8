// Rolling resistance (engine/src/dynamics/rolling_resistance.h): a torque mu_rolling * lambda_n against
// rolling, applied to the free velocities before the contact solve.
#include "dynamics/rolling_resistance.h"

#include <gtest/gtest.h>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

constexpr double kG = 9.81;

// A ball of radius r rolling on level ground at v0. Rolling without slip, m dv/dt = F and
// (2/5) m r^2 dw/dt = -F r - mu_rolling m g with w = v / r give dv/dt = -(5/7) g mu_rolling / r.
World rollingBall(double radius, double speed, double muRolling) {
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  BodyDesc ball = test::sphere(radius, Vec3(0, 0, radius));
  ball.velocity = Vec3(speed, 0, 0);
  ball.angularVelocity = Vec3(0, speed / radius, 0);
  scene.bodies.push_back(ball);
  scene.friction.muRolling = muRolling;
  return World(scene);
}

TEST(RollingResistance, ABallRollingOnLevelGroundSlowsAtFiveSeventhsGTimesArmOverRadius) {
  for (const double radius : {0.1, 0.25}) {
    SCOPED_TRACE(radius);
    World world = rollingBall(radius, 0.5, 0.001);
    test::runFor(world, 2.0);
    const double expected = 0.5 - 5.0 / 7.0 * kG * 0.001 / radius * 2.0;
    const Body& ball = world.bodies()[1];
    EXPECT_NEAR(ball.velocity.x(), expected, 0.02 * (0.5 - expected));
    // Still rolling: the solve's sticking friction took up the slip the lost spin left.
    EXPECT_NEAR(ball.angularVelocity.y() * radius, ball.velocity.x(), 1e-4);
  }
}

TEST(RollingResistance, ABallComesToRestAndStays) {
  World world = rollingBall(0.1, 0.05, 0.001);  // stops after 0.05 / 0.070 = 0.71 s
  test::runFor(world, 1.5);
  const Body& ball = world.bodies()[1];
  EXPECT_LT(ball.velocity.norm(), 1e-4);
  EXPECT_LT(ball.angularVelocity.norm(), 1e-3);
  const double stopped = ball.position.x();
  // v0^2 / (2 a): 17.8 mm
  EXPECT_NEAR(stopped, 0.05 * 0.05 / (2.0 * 5.0 / 7.0 * kG * 0.01), 1e-3);
  test::runFor(world, 2.0);
  EXPECT_NEAR(world.bodies()[1].position.x(), stopped, 1e-5);  // it does not roll back
}

TEST(RollingResistance, WithoutItABallRollsOnAtItsSpeed) {
  World world = rollingBall(0.1, 0.5, 0.0);
  test::runFor(world, 2.0);
  EXPECT_NEAR(world.bodies()[1].velocity.x(), 0.5, 1e-4);  // what the solve's tolerance leaves
}

// The spin about the normal is the Contensou torsion's (impact_and_spin_test.cpp), not rolling: a
// ball spinning in place about the vertical keeps the spin-down of mu_torsion alone.
TEST(RollingResistance, LeavesTheSpinAboutTheNormalAlone) {
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  BodyDesc ball = test::sphere(0.5, Vec3(0, 0, 0.5));
  ball.angularVelocity = Vec3(0, 0, 5.0);
  scene.bodies.push_back(ball);
  scene.friction.muTorsion = 0.0;
  scene.friction.muRolling = 0.01;
  World world(scene);
  test::runFor(world, 1.0);
  EXPECT_NEAR(world.bodies()[1].angularVelocity.z(), 5.0, 1e-9);
}

}  // namespace
}  // namespace contactlab
