// Free rigid-body motion: the tennis-racket (intermediate axis) flip with conserved energy and
// angular momentum, and free fall.
#include <gtest/gtest.h>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

TEST(FreeBody, IntermediateAxisSpinFlipsWhileEnergyAndMomentumStay) {
  Scene scene;
  scene.gravity = Vec3::Zero();
  BodyDesc racket = test::box(Vec3(0.1, 0.4, 0.8), Vec3::Zero());  // three different principal moments
  // 10 rad/s about body y (the intermediate axis) with a small perturbation.
  racket.angularVelocity = Vec3(0.05, 10.0, 0.05);
  scene.bodies = {racket};
  World world(scene);
  const Body& body = world.bodies()[0];
  const double energy0 = world.kineticEnergy();
  const Vec3 momentum0 = body.inertiaWorld() * body.angularVelocity;

  double minSpin = 1e9, maxEnergyError = 0.0, maxMomentumError = 0.0;
  test::runFor(world, 10.0, [&](const World& w) {
    const Body& b = w.bodies()[0];
    minSpin = std::min(minSpin, (b.orientation.conjugate() * b.angularVelocity).y());
    maxEnergyError = std::max(maxEnergyError, std::abs(w.kineticEnergy() - energy0) / energy0);
    maxMomentumError = std::max(maxMomentumError, (b.inertiaWorld() * b.angularVelocity - momentum0).norm() / momentum0.norm());
  });
  EXPECT_LT(minSpin, -5.0) << "the spin about the intermediate axis must reverse";
  EXPECT_LT(maxEnergyError, 0.01);
  EXPECT_LT(maxMomentumError, 0.01);
}

TEST(FreeBody, FallsWithConstantAccelerationAndKeepsTotalEnergy) {
  Scene scene;
  BodyDesc ball = test::sphere(0.1, Vec3(0, 0, 100));
  ball.velocity = Vec3(1, 0, 0);
  scene.bodies = {ball};
  World world(scene);
  const double total0 = world.kineticEnergy() + world.potentialEnergy();
  test::runFor(world, 2.0);
  // The midpoint rule integrates constant acceleration exactly.
  EXPECT_NEAR(world.bodies()[0].position.z(), 100 - 0.5 * 9.81 * 4.0, 1e-9);
  EXPECT_NEAR(world.bodies()[0].position.x(), 2.0, 1e-12);
  EXPECT_NEAR(world.kineticEnergy() + world.potentialEnergy(), total0, 1e-9 * total0);
}

}  // namespace
}  // namespace contactlab
