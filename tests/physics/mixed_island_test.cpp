// Rigid bodies solved in one system with deformable ones (mixed_islands.h, rigid terms of
// DeformableConstraint, rigid_pair_contacts.cpp) against analytic results: the uniaxial sink of a
// soft slab under a rigid block, momentum through a rigid-deformable collision, a rigid ball
// rolling down a soft mat.
#include <gtest/gtest.h>

#include <cmath>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

// A rigid block covering a soft slab of 1 x 1 x h m on static ground. Under the block's weight
// M g over A and half the slab's own (rho g h / 2 at mid-height) the slab shortens by
//   delta = (M g / A + rho g h / 2) h / E
// (uniaxial stress; friction on its faces holds the slab from spreading sideways, which makes it
// stiffer by up to about 10 % at nu = 0.2). Mass damping makes the block settle in a few tenths
// of a second; it changes nothing at rest.
TEST(MixedIsland, RigidBlockOnSoftSlabSinksByTheUniaxialEstimate) {
  const double youngsModulus = 1e5, h = 0.1, blockMass = 100.0, rho = 1000.0;
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies.push_back(test::staticGround());
  BodyDesc slab = test::box(Vec3(1.0, 1.0, h), Vec3(0, 0, 0.5 * h));
  slab.name = "slab";
  slab.density = rho;
  slab.deformable = DeformableDesc{};
  slab.deformable->youngsModulus = youngsModulus;
  slab.deformable->dampingMass = 20.0;
  BodyDesc block = test::box(Vec3(1.0, 1.0, 0.1), Vec3(0, 0, h + 0.05));
  block.name = "block";
  block.mass = blockMass;
  scene.bodies.push_back(slab);
  scene.bodies.push_back(block);
  World world(scene);
  const double start = world.bodies()[2].position.z();
  double sink = 0.0;
  int samples = 0;
  test::runFor(world, 0.6, [&](const World& w) {
    ASSERT_TRUE(w.bodies()[2].coupled);
    if (w.time() < 0.4) return;
    sink += start - w.bodies()[2].position.z();
    ++samples;
  });
  sink /= samples;
  const double estimate = (blockMass * test::kG / 1.0 + rho * test::kG * h / 2.0) * h / youngsModulus;
  EXPECT_NEAR(sink, estimate, 0.2 * estimate) << "sink " << sink << " m, estimate " << estimate << " m";
  EXPECT_LT(world.lastMetrics().maxPenetration, 1e-4);
}

// A rigid box thrown at a soft cube in zero gravity without friction: the contact forces act on
// both in one solve, so the total linear momentum stays what it was (to the CR tolerance's
// residual impulse), and the two part again.
TEST(MixedIsland, RigidBoxHittingSoftCubeKeepsTotalMomentum) {
  const double v0 = 1.0;
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  BodyDesc soft = test::box(Vec3::Constant(0.2), Vec3(0.125, 0, 0));
  soft.name = "soft";
  soft.material.mu = 0.0;
  soft.deformable = DeformableDesc{};
  BodyDesc rigid = test::box(Vec3::Constant(0.2), Vec3(-0.125, 0.03, 0.02));
  rigid.name = "rigid";
  rigid.material.mu = 0.0;
  rigid.velocity = Vec3(v0, 0, 0);
  rigid.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));  // a corner and edges land first
  scene.bodies = {soft, rigid};
  World world(scene);
  const Body& softBody = world.bodies()[0];
  const Body& rigidBody = world.bodies()[1];
  const double m0 = rigidBody.mass;
  const Vec3 momentum0 = m0 * rigidBody.velocity + softBody.mass * softBody.velocity;
  bool touched = false;
  for (int step = 0; step < 200; ++step) {
    world.step();
    const Vec3 momentum = rigidBody.mass * rigidBody.velocity + softBody.mass * softBody.velocity;
    ASSERT_LT((momentum - momentum0).norm(), 1e-4 * m0 * v0) << "step " << step;
    touched = touched || world.lastMetrics().deformableConstraints > 0;
  }
  EXPECT_TRUE(touched);
  EXPECT_GT(softBody.velocity.x(), rigidBody.velocity.x());  // parted
  EXPECT_GT(softBody.velocity.x(), 0.1 * v0);
}

// A rigid ball on a stiff soft mat (E = 5e6 Pa) tilted by theta rolls without slipping
// (mu = 0.9 > 2/7 tan theta) with the solid sphere's acceleration a = 5/7 g sin theta; the mat's
// rolling resistance is below the tolerance here. The ball meets the mat's faces between their
// vertices (linearizeRoundFace): on vertices alone it would drop into the hollows between them.
TEST(MixedIsland, RigidBallRollsDownASoftMat) {
  const double theta = 0.2, radius = 0.1;
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = test::kG * Vec3(std::sin(theta), 0, -std::cos(theta));  // the slope along x
  scene.bodies.push_back(test::staticGround(0.9));
  BodyDesc mat = test::box(Vec3(1.2, 0.4, 0.05), Vec3(0.3, 0, 0.025));
  mat.name = "mat";
  mat.material.mu = 0.9;
  mat.deformable = DeformableDesc{};
  mat.deformable->youngsModulus = 5e6;
  BodyDesc ball = test::sphere(radius, Vec3(0, 0, 0.05 + radius + 1e-4));
  ball.name = "ball";
  ball.material.mu = 0.9;
  scene.bodies.push_back(mat);
  scene.bodies.push_back(ball);
  World world(scene);
  const double duration = 0.4;
  test::runFor(world, duration);
  const Body& b = world.bodies()[2];
  const double rolling = 5.0 / 7.0 * test::kG * std::sin(theta);
  EXPECT_NEAR(b.velocity.x(), rolling * duration, 0.03 * rolling * duration);
  EXPECT_NEAR(b.position.x(), 0.5 * rolling * duration * duration, 0.05 * 0.5 * rolling * duration * duration);
  // Rolling: the contact point's velocity v + w x (-r n) is small against v.
  const Vec3 contactVelocity = b.velocity + b.angularVelocity.cross(Vec3(0, 0, -radius));
  EXPECT_LT(contactVelocity.norm(), 0.05 * b.velocity.norm());
}

// A rigid body far from any deformable one steps with the rigid pipeline exactly as in a world
// without the deformable body.
TEST(MixedIsland, RigidBodyAwayFromDeformablesStepsAsWithoutThem) {
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies.push_back(test::staticGround());
  BodyDesc rigid = test::box(Vec3::Constant(0.2), Vec3(2.0, 0, 0.3));
  rigid.angularVelocity = Vec3(1, 2, 3);
  scene.bodies.push_back(rigid);
  Scene withSoft = scene;
  BodyDesc soft = test::box(Vec3::Constant(0.2), Vec3(-2.0, 0, 0.1));
  soft.deformable = DeformableDesc{};
  withSoft.bodies.push_back(soft);
  World alone(scene), beside(withSoft);
  for (int step = 0; step < 300; ++step) {
    alone.step();
    beside.step();
    ASSERT_FALSE(beside.bodies()[1].coupled);
    ASSERT_EQ(alone.bodies()[1].position, beside.bodies()[1].position) << "step " << step;
    ASSERT_EQ(alone.bodies()[1].orientation.coeffs(), beside.bodies()[1].orientation.coeffs()) << "step " << step;
  }
}

}  // namespace
}  // namespace contactlab
