// Deformable bodies in contact with rigid scenery at the default solver settings, against analytic
// results (conjugate-residual-deformable-contact.txt; docs/deformable.md "Tests").
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

using test::kG;

// A soft cube of `size` (E = 5e5 Pa, nu = 0.2, the paper's) resting on a static slab, both tilted by `angle` about y. Stiffness-proportional Rayleigh
// damping beta damps its vibrations and leaves rigid motion alone (mass-proportional damping would
// brake the sliding block like a drag).
Scene softBlockOnSlab(double size, double angle, double mu, double beta) {
  Scene scene;
  scene.dt = 1e-3;
  const Quat tilt(Eigen::AngleAxisd(angle, Vec3::UnitY()));
  const Vec3 up = tilt * Vec3::UnitZ();
  BodyDesc slab = test::staticGround(mu);
  slab.orientation = tilt;
  slab.position = -0.5 * up;
  BodyDesc block = test::box(Vec3::Constant(size), 0.5 * size * up);
  block.name = "soft";
  block.orientation = tilt;
  block.material.mu = mu;
  block.deformable = DeformableDesc{};
  block.deformable->dampingStiffness = beta;
  scene.bodies = {slab, block};
  return scene;
}

// The paper's epsilon_2 plus the first-order linearization of a curved surface: the independent
// check's bound (StepMetrics::maxPenetration) on a surface vertex's depth inside a rigid body after
// a step (metres).
constexpr double kDepthBound = 5e-6 + 1e-6;

// The total normal impulse of the step on the deformable body.
double normalImpulse(const World& world) {
  double sum = 0.0;
  for (const ContactReport& c : world.contacts())
    if (world.bodies()[c.bodyB].isDeformable()) sum += c.lambda[0];
  return sum;
}

TEST(DeformableContact, RestingBlockReceivesItsWeightEveryStep) {
  World world(softBlockOnSlab(0.2, 0.0, 0.75, 0.01));
  test::runFor(world, 0.5);
  const double weight = 1000.0 * 0.2 * 0.2 * 0.2 * kG * world.dt();  // m g dt, density 1000
  for (int i = 0; i < 20; ++i) {
    world.step();
    EXPECT_NEAR(normalImpulse(world), weight, 1e-3 * weight) << "step " << world.stepCount();
    EXPECT_LT(world.lastMetrics().maxPenetration, kDepthBound);
  }
}

TEST(DeformableContact, BallThrownAtAThinPlateStaysAboveItAndComesToRest) {
  // Radius 0.1 m, E = 5e6 Pa, nu = 0.3, at 10 m/s onto a 1 cm plate: 1 cm per step at 1 ms.
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc plate = test::box(Vec3(1, 1, 0.01), Vec3(0, 0, -0.005));
  plate.motion = MotionType::Static;
  BodyDesc ball = test::sphere(0.1, Vec3(0, 0, 0.3));
  ball.velocity = Vec3(0, 0, -10);
  ball.deformable = DeformableDesc{};
  ball.deformable->youngsModulus = 5e6;
  ball.deformable->poissonRatio = 0.3;
  ball.deformable->dampingStiffness = 0.002;
  scene.bodies = {plate, ball};
  World world(scene);
  const double initialEnergy = world.kineticEnergy();
  double lowest = 1e9, deepest = 0.0;
  test::runFor(world, 1.0, [&](const World& w) {
    lowest = std::min(lowest, w.bodies()[1].position.z());
    deepest = std::max(deepest, w.lastMetrics().maxPenetration);
  });
  EXPECT_GT(lowest, 0.05) << "the ball's centre went below half its radius: through the plate";
  EXPECT_LT(deepest, kDepthBound);
  EXPECT_LT(world.kineticEnergy(), 1e-3 * initialEnergy);
  EXPECT_NEAR(world.bodies()[1].position.z(), 0.1, 0.01) << "at rest on the plate";
}

// A 0.2 m soft block centred at `height` over a static `support`, its bottom face a 3 x 3 grid of
// 6.7 cm cells at this max_tet_volume (vertices at +-0.033 and +-0.1 m), after 0.3 s: the block's
// centre height.
double blockHeightOver(BodyDesc support, double height) {
  Scene scene;
  scene.dt = 1e-3;
  support.motion = MotionType::Static;
  BodyDesc block = test::box(Vec3::Constant(0.2), Vec3(0, 0, height));
  block.deformable = DeformableDesc{};
  block.deformable->dampingStiffness = 0.01;
  block.deformable->maxTetVolume = 1e-4;
  scene.bodies = {test::staticGround(), support, block};
  World world(scene);
  test::runFor(world, 0.3);
  return world.bodies()[2].position.z();
}

TEST(DeformableContact, ThinRigidPostHoldsABlockBetweenItsVertices) {
  // A 2 cm post under the block's middle, where no block vertex is: only the post's corners against
  // the block's faces hold it.
  const BodyDesc post = test::box(Vec3(0.02, 0.02, 0.3), Vec3(0, 0, 0.15));
  EXPECT_NEAR(blockHeightOver(post, 0.405), 0.4, 0.005) << "the post went into the block";
}

TEST(DeformableContact, RigidRidgeHoldsABlockBetweenItsVertices) {
  // A static box turned 45 degrees about x: its top edge, a ridge along x at z = 0.3, runs under the
  // block's middle between two rows of its vertices and is longer than the block, so only its edge
  // against the block's edges holds it; on the ridge's slopes the block's vertices would rest 3.3 cm
  // lower.
  BodyDesc ridge = test::box(Vec3(0.6, 0.2, 0.2), Vec3(0, 0, 0.3 - 0.1 * std::sqrt(2.0)));
  ridge.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitX()));
  EXPECT_GT(blockHeightOver(ridge, 0.402), 0.39) << "the ridge went into the block";
}

// At full size (0.2 m) and at a tenth of it, where FEM engines' users report friction errors.
class DeformableIncline : public ::testing::TestWithParam<double> {};

TEST_P(DeformableIncline, BlockSticksWhenMuExceedsTanAngle) {
  const double size = GetParam(), angle = std::numbers::pi / 6;
  World world(softBlockOnSlab(size, angle, 0.7, 0.01));
  test::runFor(world, 0.2);
  const Vec3 start = world.bodies()[1].position;
  test::runFor(world, 0.5);
  EXPECT_LT((world.bodies()[1].position - start).norm(), 0.01 * size);
}

TEST_P(DeformableIncline, BlockSlidesAtTheCoulombAcceleration) {
  const double size = GetParam(), angle = std::numbers::pi / 6, mu = 0.3;
  World world(softBlockOnSlab(size, angle, mu, 0.01));
  const Vec3 downSlope = Quat(Eigen::AngleAxisd(angle, Vec3::UnitY())) * Vec3::UnitX();
  test::runFor(world, 0.2);
  const double v1 = world.bodies()[1].velocity.dot(downSlope);
  test::runFor(world, 0.3);
  const double v2 = world.bodies()[1].velocity.dot(downSlope);
  const double expected = kG * (std::sin(angle) - mu * std::cos(angle));
  EXPECT_NEAR((v2 - v1) / 0.3, expected, 0.05 * expected);
}

INSTANTIATE_TEST_SUITE_P(DeformableContact, DeformableIncline, ::testing::Values(0.2, 0.02),
                         [](const auto& info) { return info.param > 0.1 ? "FullSize" : "TenthSize"; });

}  // namespace
}  // namespace contactlab
