// Newton restitution, Contensou torsional friction and fast bodies against closed-form results.
#include <gtest/gtest.h>

#include <cmath>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

using test::kG;

TEST(Restitution, SphereReboundsWithHalfItsImpactSpeedAndAQuarterOfItsHeight) {
  const double radius = 0.25, dropHeight = 1.0, restitution = 0.5;
  Scene scene;
  BodyDesc ball = test::sphere(radius, Vec3(0, 0, radius + dropHeight));
  ball.material.restitution = restitution;
  scene.bodies = {test::staticGround(), ball};
  World world(scene);

  double before = 0.0, after = 0.0, apex = 0.0;
  bool bounced = false;
  double previousVz = 0.0;
  test::runFor(world, 1.2, [&](const World& w) {
    const double vz = w.bodies()[1].velocity.z();
    if (!bounced && previousVz < 0.0 && vz > 0.0) {
      bounced = true;
      before = previousVz;
      after = vz;
    }
    if (bounced) apex = std::max(apex, w.bodies()[1].position.z() - radius);
    previousVz = vz;
  });
  ASSERT_TRUE(bounced);
  EXPECT_NEAR(after / before, -restitution, 0.03 * restitution);
  const double expectedApex = restitution * restitution * dropHeight;
  EXPECT_NEAR(apex, expectedApex, 0.10 * expectedApex);
}

TEST(TorsionalFriction, SpinningSphereSlowsAtMuTauGOverPointFourRSquared) {
  // Torsional impulse mu_tau lambda_n per step with lambda_n = m g dt, inertia 0.4 m r^2 (eq. 16).
  const double radius = 0.5, spin = 5.0, muTorsion = 0.01;
  Scene scene;
  BodyDesc ball = test::sphere(radius, Vec3(0, 0, radius));
  ball.angularVelocity = Vec3(0, 0, spin);
  ball.material.muTorsion = muTorsion;
  BodyDesc ground = test::staticGround();
  ground.material.muTorsion = muTorsion;
  scene.bodies = {ground, ball};
  World world(scene);
  test::runFor(world, 0.5);
  const double w1 = world.bodies()[1].angularVelocity.z();
  test::runFor(world, 2.0);
  const double w2 = world.bodies()[1].angularVelocity.z();
  const double expected = muTorsion * kG / (0.4 * radius * radius);
  EXPECT_NEAR((w1 - w2) / 2.0, expected, 0.05 * expected);
}

TEST(Tunnelling, FastSphereStopsOnAThickGroundBox) {
  // Dropped from 10 m the sphere arrives at 14 m/s, 0.14 m per step, more than half its size.
  const double radius = 0.25;
  Scene scene;
  scene.bodies = {test::staticGround(), test::sphere(radius, Vec3(0, 0, 10.0 + radius))};
  World world(scene);
  double lowest = 1e9;
  test::runFor(world, 2.5, [&](const World& w) { lowest = std::min(lowest, w.bodies()[1].position.z()); });
  EXPECT_GT(lowest, radius - 0.01) << "the sphere sank into or through the ground";
  EXPECT_NEAR(world.bodies()[1].position.z(), radius, 0.01);
}

}  // namespace
}  // namespace contactlab
