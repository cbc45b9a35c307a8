// The built-in deformable scenes (scenes/soft_bodies.cpp): each builds one FEM body at the paper's
// step among static scenery, and a few hundred steps of each show what it is for: the soft block
// lands and rests on the ground, the cantilever sags from its pinned end, the hanging bar stretches
// by beam theory's amount, the incline block sticks or slides with mu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "support/test_scenes.h"

namespace contactlab::soft_body_scenes_test {

using test::bodyNamed;
using test::kG;

constexpr const char* kScenes[] = {"soft-block", "cantilever", "hanging-bar", "soft-incline"};

// The scene's deformable body; fails the test when there is not exactly one.
const BodyDesc& onlyDeformable(const Scene& scene) {
  const BodyDesc* found = nullptr;
  int count = 0;
  for (const BodyDesc& body : scene.bodies)
    if (body.deformable) found = &body, ++count;
  EXPECT_EQ(count, 1);
  return *found;
}

std::vector<Vec3> nodePositions(const World& world) {
  const DeformableMeshView mesh = world.deformableBody(0);
  return {mesh.positions.begin(), mesh.positions.end()};
}

// Mean z of the nodes whose coordinate `axis` started within 1e-9 of `value`.
double meanZWhere(const std::vector<Vec3>& start, const std::vector<Vec3>& now, int axis, double value) {
  double sum = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < start.size(); ++i)
    if (std::abs(start[i][axis] - value) < 1e-9) sum += now[i].z(), ++count;
  EXPECT_GT(count, 0);
  return sum / count;
}

TEST(SoftBodyScenes, EachHasOneFemBodyAmongStaticBodiesAtThePapersStep) {
  for (const char* name : kScenes) {
    SCOPED_TRACE(name);
    const Scene scene = buildBuiltinScene(name, {{"youngs_modulus", 2e6}, {"tets", 100}}, 1);
    EXPECT_DOUBLE_EQ(scene.dt, 1e-3);
    const BodyDesc& soft = onlyDeformable(scene);
    EXPECT_EQ(soft.motion, MotionType::Dynamic);
    EXPECT_DOUBLE_EQ(soft.deformable->youngsModulus, 2e6);
    EXPECT_DOUBLE_EQ(*soft.deformable->maxTetVolume, 8.0 * std::get<BoxShape>(soft.shape).halfExtents.prod() / 100);
    for (const BodyDesc& body : scene.bodies)
      if (&body != &soft) EXPECT_EQ(body.motion, MotionType::Static) << body.name;
    World world(scene);
    ASSERT_EQ(world.deformableBodyCount(), 1);
    for (int step = 0; step < 5; ++step) world.step();
    for (const Vec3& node : nodePositions(world)) ASSERT_TRUE(node.allFinite());
  }
}

TEST(SoftBodyScenes, SoftBlockLandsAndRestsOnTheGround) {
  const double size = 0.2;
  const Scene scene = buildBuiltinScene("soft-block", {}, 1);
  EXPECT_DOUBLE_EQ(std::get<BoxShape>(bodyNamed(scene, "block")->shape).halfExtents.x(), 0.5 * size);
  EXPECT_DOUBLE_EQ(bodyNamed(scene, "block")->position.z(), 0.1 + 0.5 * size);  // dropped from 0.1 m
  World world(scene);
  const int block = 1;
  for (int step = 1; step <= 300; ++step) {
    world.step();
    double lowest = INFINITY;
    for (const Vec3& node : nodePositions(world)) lowest = std::min(lowest, node.z());
    ASSERT_GT(lowest, -1e-4) << "step " << step;  // the ground's top is z = 0
  }
  // It fell 0.1 m in 0.14 s, squashed on landing and settled: centre half its size up, at rest.
  EXPECT_NEAR(world.bodies()[block].position.z(), 0.5 * size, 0.02 * size);
  EXPECT_LT(world.bodies()[block].velocity.norm(), 1e-3);
}

TEST(SoftBodyScenes, CantileverSagsFromItsPinnedEnd) {
  World world(buildBuiltinScene("cantilever", {}, 1));
  const std::vector<Vec3> start = nodePositions(world);
  const double startZ = world.bodies()[1].position.z();
  for (int step = 0; step < 300; ++step) world.step();
  const std::vector<Vec3> now = nodePositions(world);
  const double pinnedZ = meanZWhere(start, now, 0, -0.5), freeZ = meanZWhere(start, now, 0, 0.5);
  EXPECT_EQ(pinnedZ, meanZWhere(start, start, 0, -0.5));  // the end face's nodes are held
  // After 0.3 s the soft beam (E = 1e6 Pa) is on its way down: its free end well below its root.
  EXPECT_LT(freeZ, pinnedZ - 0.2);
  EXPECT_LT(world.bodies()[1].position.z(), startZ - 0.05);
}

TEST(SoftBodyScenes, HangingBarStretchesByItsWeight) {
  const double L = 1.0, E = 1e6, rho = 1000.0;
  World world(buildBuiltinScene("hanging-bar", {}, 1));
  const std::vector<Vec3> start = nodePositions(world);
  const double startZ = world.bodies()[1].position.z();
  for (int step = 0; step < 300; ++step) world.step();
  const std::vector<Vec3> now = nodePositions(world);
  double lowest = INFINITY, highest = -INFINITY;
  for (const Vec3& node : start) lowest = std::min(lowest, node.z()), highest = std::max(highest, node.z());
  // Stiffness damping has settled the axial oscillation (period 0.13 s) within 0.3 s. Uniaxial
  // stress (nu = 0): the bottom face drops by rho g L^2 / (2 E), the centre of mass by a third.
  const double lengthening = rho * kG * L * L / (2.0 * E);  // 4.9 mm
  EXPECT_NEAR(meanZWhere(start, now, 2, highest), highest, 1e-12);
  EXPECT_NEAR(lowest - meanZWhere(start, now, 2, lowest), lengthening, 0.05 * lengthening);
  EXPECT_NEAR(startZ - world.bodies()[1].position.z(), 2.0 / 3.0 * lengthening, 0.05 * lengthening);
}

// The block's travel down the slope in `steps` steps at this mu, at the default settings.
double inclineTravel(double mu, int steps) {
  const double angle = std::numbers::pi / 6;
  World world(buildBuiltinScene("soft-incline", {{"mu", mu}}, 1));
  const Vec3 downhill = Quat(Eigen::AngleAxisd(angle, Vec3::UnitY())) * Vec3::UnitX();
  const Vec3 start = world.bodies()[2].position;
  for (int step = 0; step < steps; ++step) world.step();
  return (world.bodies()[2].position - start).dot(downhill);
}

TEST(SoftBodyScenes, SoftInclineBlockSticksAtMu07AndSlidesAtMu03) {
  const double size = 0.2, angle = std::numbers::pi / 6, t = 0.2;
  EXPECT_LT(std::abs(inclineTravel(0.7, 200)), 0.01 * size);
  // Coulomb: from rest at a = g (sin - mu cos), 0.5 a t^2 down the slope.
  const double sliding = 0.5 * kG * (std::sin(angle) - 0.3 * std::cos(angle)) * t * t;  // 47 mm
  EXPECT_NEAR(inclineTravel(0.3, 200), sliding, 0.05 * sliding);
}

}  // namespace contactlab::soft_body_scenes_test
