// The World's deformable stages as a whole: momentum of a free body through the CR solve, thread
// counts, the two preconditioners.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "support/test_scenes.h"

namespace contactlab {
namespace {

Vec3 momentum(const World& world) {
  const Body& b = world.bodies()[0];
  return b.mass * b.velocity;
}

TEST(DeformableSystem, FreeBodyKeepsItsLinearMomentumThroughTheContactSolve) {
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  BodyDesc cube = test::softCube(0.2, Vec3::Zero());
  cube.velocity = Vec3(1.0, -0.5, 0.25);
  cube.angularVelocity = Vec3(0.5, 1.0, -1.5);
  scene.bodies = {cube};
  World world(scene);
  const Vec3 start = momentum(world);
  test::runFor(world, 0.3);
  EXPECT_LT((momentum(world) - start).norm(), 1e-4 * start.norm());
}

// An external node force (World::setDeformableNodeForce) is part of f_external in eq. 4: the elastic
// forces sum to zero, so a free body's momentum grows by exactly F dt per step wherever F acts. The
// CR solve misses it by the sum of its residual's rows, held far below the test's tolerance here.
TEST(DeformableSystem, NodeForceOnAFreeBodyAddsFdtOfMomentumPerStep) {
  Scene scene;
  scene.dt = 1e-3;
  scene.gravity = Vec3::Zero();
  scene.bodies = {test::softCube(0.2, Vec3::Zero())};
  WorldSettings settings;
  settings.deformable.relativeTolerance = 1e-12;
  World world(scene, settings);
  const Vec3 force(3.0, -2.0, 5.0);
  world.setDeformableNodeForce(0, 0, force);
  for (int step = 1; step <= 50; ++step) {
    const Vec3 before = momentum(world);
    world.step();
    const Vec3 gained = momentum(world) - before;
    ASSERT_LT((gained - force * scene.dt).norm(), 1e-9 * force.norm() * scene.dt) << "step " << step << ": " << gained.transpose();
  }
  // Cleared, the momentum stays.
  world.clearDeformableNodeForces();
  const Vec3 held = momentum(world);
  test::runFor(world, 0.02);
  EXPECT_LT((momentum(world) - held).norm(), 1e-6 * held.norm());
}

TEST(DeformableSystem, NodeForceOnAPinnedNodeChangesNothing) {
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc cube = test::softCube(0.2, Vec3::Zero());
  cube.deformable->pinned = DeformableDesc::Box{Vec3(-1, -1, 0.09), Vec3(1, 1, 1)};  // the top face
  scene.bodies = {cube};
  World pulled(scene), free(scene);
  const DeformableMeshView mesh = pulled.deformableBody(0);
  int top = -1;
  for (int i = 0; i < static_cast<int>(mesh.positions.size()) && top < 0; ++i)
    if (mesh.positions[i].z() > 0.09) top = i;
  ASSERT_GE(top, 0);
  pulled.setDeformableNodeForce(0, top, Vec3(0, 0, -100.0));
  for (int step = 0; step < 20; ++step) {
    pulled.step();
    free.step();
  }
  const DeformableMeshView a = pulled.deformableBody(0), b = free.deformableBody(0);
  for (std::size_t i = 0; i < a.positions.size(); ++i) ASSERT_EQ(a.positions[i], b.positions[i]) << i;
}

TEST(DeformableSystem, NodeForceChecksItsArguments) {
  Scene scene;
  scene.bodies = {test::softCube(0.2, Vec3::Zero())};
  World world(scene);
  const int nodes = static_cast<int>(world.deformableBody(0).positions.size());
  EXPECT_THROW(world.setDeformableNodeForce(1, 0, Vec3::UnitX()), std::out_of_range);
  EXPECT_THROW(world.setDeformableNodeForce(0, nodes, Vec3::UnitX()), std::out_of_range);
  EXPECT_THROW(world.setDeformableNodeForce(0, -1, Vec3::UnitX()), std::out_of_range);
  EXPECT_THROW(world.setDeformableNodeForce(0, 0, Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0)), std::invalid_argument);
}

// The node positions after every step of a soft block landing on a corner, fine enough (about a
// thousand nodes) that the products with A are cut among threads.
std::vector<double> landingTrace(int threads, const std::string& solver) {
  Scene scene;
  scene.dt = 1e-3;
  scene.bodies = {test::staticGround(), test::softCube(0.2, Vec3(0, 0, 0.16))};
  scene.bodies[1].orientation = Quat(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  scene.bodies[1].deformable->maxTetVolume = 0.2 * 0.2 * 0.2 / 3000;
  WorldSettings settings;
  settings.threads = threads;
  settings.deformable.solver = solver;
  World world(scene, settings);
  std::vector<double> trace;
  EXPECT_GT(world.deformableBody(0).positions.size(), 512u) << "too few nodes for a parallel product";
  for (int i = 0; i < 60; ++i) {
    world.step();
    const DeformableMeshView mesh = world.deformableBody(0);
    for (const Vec3& x : mesh.positions) trace.insert(trace.end(), x.data(), x.data() + 3);
  }
  return trace;
}

TEST(DeformableSystem, ThreadCountDoesNotChangeABit) {
  const std::vector<double> one = landingTrace(1, "cr-full"), two = landingTrace(2, "cr-full");
  ASSERT_EQ(one.size(), two.size());
  EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(double)), 0);
}

TEST(DeformableSystem, FullPreconditionerTakesFewerIterationsThanDiagOnARestingBlock) {
  const auto iterations = [](const std::string& solver) {
    Scene scene;
    scene.dt = 1e-3;
    scene.bodies = {test::staticGround(), test::softCube(0.2, Vec3(0, 0, 0.1))};
    scene.bodies[1].deformable->dampingStiffness = 0.01;
    WorldSettings settings;
    settings.deformable.solver = solver;
    World world(scene, settings);
    long total = 0;
    test::runFor(world, 0.2, [&](const World& w) { total += w.lastMetrics().deformable.iterations; });
    return total;
  };
  const long full = iterations("cr-full"), diag = iterations("cr-diag");
  EXPECT_LT(full, diag) << "Full " << full << ", Diag " << diag;
}

TEST(DeformableSystem, ASavedSceneRunsOnFromTheDeformedState) {
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc cube = test::softCube(0.2, Vec3(0, 0, 0.5));
  cube.angularVelocity = Vec3(0, 30, 0);  // spinning fast enough to deform
  scene.bodies = {test::staticGround(), cube};
  World world(scene);
  test::runFor(world, 0.05);
  World restored(parseSceneJson(sceneToJson(world.snapshot()), "snapshot"));
  const DeformableMeshView before = world.deformableBody(0), after = restored.deformableBody(0);
  ASSERT_EQ(before.positions.size(), after.positions.size());
  for (std::size_t i = 0; i < before.positions.size(); ++i) {
    EXPECT_EQ(before.positions[i], after.positions[i]);
    EXPECT_EQ(before.velocities[i], after.velocities[i]);
  }
  test::runFor(world, 0.02);
  test::runFor(restored, 0.02);
  EXPECT_EQ(world.bodies()[1].position, restored.bodies()[1].position) << "in flight, the same steps";
}

TEST(DeformableSystem, ASavedStateOfAnotherTetrahedralizationIsAnErrorNamingTheBody) {
  Scene scene;
  BodyDesc cube = test::softCube(0.2, Vec3(0, 0, 0.5));
  cube.name = "jelly";
  cube.deformable->nodePositions = {Vec3::Zero(), Vec3::UnitX()};
  cube.deformable->nodeVelocities = {Vec3::Zero(), Vec3::Zero()};
  scene.bodies = {cube};
  try {
    World world(scene);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("\"jelly\": the saved state has 2 node positions"), std::string::npos) << e.what();
  }
}

// epsilon_2 is the user's: a block landing flat on the ground (vertex against a plane, whose
// linearization is exact) ends every converged step with no vertex deeper than it, and a tighter
// one costs iterations.
TEST(DeformableSystem, LandingBlockEndsNoDeeperThanTheChosenEpsilon2) {
  const auto land = [](double epsilon2, long& iterations) {
    Scene scene;
    scene.dt = 1e-3;
    scene.bodies = {test::staticGround(), test::softCube(0.2, Vec3(0, 0, 0.102))};
    WorldSettings settings;
    settings.deformable.absoluteTolerance = epsilon2;
    World world(scene, settings);
    double deepest = 0.0;
    iterations = 0;
    test::runFor(world, 0.15, [&](const World& w) {
      const DeformableSolveReport& report = w.lastMetrics().deformable;
      iterations += report.iterations;
      if (report.converged() && !report.localMinimum) deepest = std::max(deepest, w.lastMetrics().maxPenetration);
    });
    return deepest;
  };
  long loose = 0, tight = 0;
  const double looseDepth = land(1e-4, loose), tightDepth = land(1e-6, tight);
  EXPECT_LE(looseDepth, 1e-4 + 1e-12);
  EXPECT_LE(tightDepth, 1e-6 + 1e-12);
  // Deeper than the default epsilon_2 allows: the loose setting took effect (a deferred activation,
  // line 19 of Alg. 2, lets a vertex in by up to epsilon_2).
  EXPECT_GT(looseDepth, DeformableSolverSettings{}.absoluteTolerance);
  EXPECT_GT(tight, loose);
}

}  // namespace
}  // namespace contactlab
