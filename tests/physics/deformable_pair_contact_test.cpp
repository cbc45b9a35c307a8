// Contact between two deformable bodies (deformable_contacts.h, deformable_pair_contacts.cpp)
// against analytic results: momentum, separation, energy, no penetration.
#include <gtest/gtest.h>

#include <cmath>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

// Two soft cubes of 0.2 m (E = 5e5 Pa, nu = 0.2, 1000 kg/m^3), 5 cm apart, flying at each other
// at v0 each along x, without friction or gravity. One is turned about z so that its edges cross
// the other's: vertex-face and edge-edge pairs both act.
Scene twoSoftCubes(double v0) {
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  for (int side : {-1, 1}) {
    BodyDesc cube = test::box(Vec3::Constant(0.2), Vec3(side * 0.125, 0.0, 0.0));
    cube.name = side < 0 ? "left" : "right";
    cube.velocity = Vec3(-side * v0, 0.0, 0.0);
    cube.material.mu = 0.0;
    cube.deformable = DeformableDesc{};
    if (side > 0) cube.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitY()));
    scene.bodies.push_back(cube);
  }
  return scene;
}

// The independent check's bound on a surface vertex's depth inside the other body after a step: the
// paper's epsilon_2 plus 5 um, the turn of both surfaces' faces within a step that the linearized
// constraints see only at their last re-linearization.
constexpr double kPairDepthBound = 5e-6 + 5e-6;

TEST(DeformablePairContact, CollidingCubesKeepMomentumSeparateAndGainNoEnergy) {
  const double v0 = 1.0;
  World world(twoSoftCubes(v0));
  const double mass = 1000.0 * 0.008;
  const double energy0 = world.kineticEnergy() + world.lastMetrics().elasticEnergy;
  bool touched = false;
  double deepest = 0.0;
  for (int step = 0; step < 300; ++step) {
    world.step();
    const auto& bodies = world.bodies();
    const Vec3 momentum = mass * (bodies[0].velocity + bodies[1].velocity);
    EXPECT_LT(momentum.norm(), 1e-4 * mass * v0) << "step " << step;
    const double energy = world.lastMetrics().kineticEnergy + world.lastMetrics().elasticEnergy;
    EXPECT_LT(energy, energy0 * (1.0 + 1e-3)) << "step " << step;
    touched = touched || world.lastMetrics().deformableConstraints > 0;
    deepest = std::max(deepest, world.lastMetrics().maxPenetration);
  }
  EXPECT_TRUE(touched);
  EXPECT_LT(deepest, kPairDepthBound);
  // Apart again and moving apart.
  EXPECT_LT(world.bodies()[0].velocity.x(), 0.0);
  EXPECT_GT(world.bodies()[1].velocity.x(), 0.0);
}

// A thin soft plate (2 cm) dropped edge-on from 10 cm onto another lying on the ground: the falling
// plate's edge hits the lying plate's faces (vertex-face and edge-edge pairs on few, long edges).
// After every step no surface vertex of either is inside the other, and the falling plate ends
// resting on the lying one, its lowest node not below the lying plate's top.
TEST(DeformablePairContact, ThinPlateDroppedEdgeOnStaysOutOfAnother) {
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies.push_back(test::staticGround(0.5));
  const double thickness = 0.02;
  BodyDesc lying = test::box(Vec3(0.4, 0.4, thickness), Vec3(0, 0, 0.5 * thickness));
  lying.name = "lying";
  lying.material.mu = 0.5;
  lying.deformable = DeformableDesc{};
  lying.deformable->dampingStiffness = 0.01;
  BodyDesc falling = test::box(Vec3(0.2, thickness, 0.2), Vec3(0.03, 0.02, thickness + 0.1 + 0.1));
  falling.name = "falling";
  falling.material.mu = 0.5;
  falling.orientation = Quat(Eigen::AngleAxisd(0.2, Vec3::UnitX()));  // leaning: its edge lands first
  falling.deformable = DeformableDesc{};
  falling.deformable->dampingStiffness = 0.01;
  scene.bodies.push_back(lying);
  scene.bodies.push_back(falling);
  World world(scene);
  double deepest = 0.0;
  int touching = 0;
  test::runFor(world, 0.4, [&](const World& w) {
    deepest = std::max(deepest, w.lastMetrics().maxPenetration);
    for (const ContactReport& c : w.contacts())
      touching += c.bodyA == 1 && c.bodyB == 2 || c.bodyA == 2 && c.bodyB == 1 ? c.state != ContactState::Separating : 0;
  });
  EXPECT_GT(touching, 0) << "the plates never touched";
  EXPECT_LT(deepest, kPairDepthBound);
  const DeformableMeshView lyingMesh = world.deformableBody(0), fallingMesh = world.deformableBody(1);
  double lyingTop = -1e9, fallingBottom = 1e9;
  for (const Vec3& x : lyingMesh.positions) lyingTop = std::max(lyingTop, x.z());
  for (const Vec3& x : fallingMesh.positions) fallingBottom = std::min(fallingBottom, x.z());
  EXPECT_GT(fallingBottom, lyingTop - 5e-3) << "the falling plate's lowest node sank into the lying plate";
}

}  // namespace
}  // namespace contactlab
