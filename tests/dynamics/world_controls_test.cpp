// The World's live controls used by the viewer: impulses, scene-wide friction, debug drawing.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "contactlab/world.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

using test::box;
using test::runFor;
using test::staticGround;

TEST(WorldControls, ImpulseChangesLinearAndAngularVelocityAsRigidBodyMechanicsSays) {
  Scene scene;
  scene.gravity = Vec3::Zero();
  scene.bodies.push_back(box(Vec3(2.0, 1.0, 0.5), Vec3(1, 2, 3)));
  World world(scene);
  const Body& body = world.bodies()[0];
  const double mass = 1000.0 * 2.0 * 1.0 * 0.5;
  ASSERT_NEAR(body.mass, mass, 1e-9);

  // An impulse J along y at the +x end of the box: dv = J / m, dw = I^-1 (r x J) with
  // I_zz = m (a^2 + b^2) / 12 for the 2 x 1 face.
  const Vec3 impulse(0, 50, 0);
  world.applyImpulse(0, impulse, Vec3(2, 2, 3));
  const double inertiaZ = mass * (4.0 + 1.0) / 12.0;
  EXPECT_NEAR(world.bodies()[0].velocity.y(), 50.0 / mass, 1e-12);
  EXPECT_NEAR(world.bodies()[0].angularVelocity.z(), 1.0 * 50.0 / inertiaZ, 1e-12);
  EXPECT_NEAR(world.bodies()[0].angularVelocity.x(), 0.0, 1e-15);
}

TEST(WorldControls, ImpulseRejectsStaticBodiesBadIndicesAndNonFiniteValues) {
  Scene scene;
  scene.bodies.push_back(staticGround());
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  World world(scene);
  EXPECT_THROW(world.applyImpulse(0, Vec3(1, 0, 0), Vec3::Zero()), std::invalid_argument);
  EXPECT_THROW(world.applyImpulse(2, Vec3(1, 0, 0), Vec3::Zero()), std::out_of_range);
  EXPECT_THROW(world.applyImpulse(-1, Vec3(1, 0, 0), Vec3::Zero()), std::out_of_range);
  EXPECT_THROW(world.applyImpulse(1, Vec3(NAN, 0, 0), Vec3::Zero()), std::invalid_argument);
}

// A box sliding at 5 m/s stops after v^2 / (2 mu g). Changing the scene-wide mu on a running world
// changes the stopping distance; a body's own mu keeps precedence over the scene default.
double stoppingDistance(double sceneMu, std::optional<double> bodyMu) {
  Scene scene;
  BodyDesc ground = staticGround();
  ground.material.mu.reset();  // follows the scene default
  scene.bodies.push_back(ground);
  BodyDesc slider = box(Vec3(0.5, 0.5, 0.5), Vec3(0, 0, 0.25));
  slider.velocity = Vec3(5, 0, 0);
  slider.material.mu = bodyMu;
  scene.bodies.push_back(slider);
  World world(scene);
  world.setFrictionDefaults({sceneMu, 0.01, 0.0});
  runFor(world, 3.0);
  return world.bodies()[1].position.x();
}

TEST(WorldControls, SceneFrictionChangeAppliesToBodiesWithoutTheirOwnValue) {
  const double g = 9.81;
  // Pair friction is sqrt(mu_ground * mu_box); both follow the scene default here.
  EXPECT_NEAR(stoppingDistance(0.5, std::nullopt), 25.0 / (2 * 0.5 * g), 0.02 * 25.0 / (2 * 0.5 * g));
  EXPECT_NEAR(stoppingDistance(0.8, std::nullopt), 25.0 / (2 * 0.8 * g), 0.02 * 25.0 / (2 * 0.8 * g));
  // The box keeps its own 0.2: the pair has sqrt(0.8 * 0.2) = 0.4.
  EXPECT_NEAR(stoppingDistance(0.8, 0.2), 25.0 / (2 * 0.4 * g), 0.02 * 25.0 / (2 * 0.4 * g));
}

TEST(WorldControls, SceneFrictionRejectsNegativeAndNonFiniteValues) {
  Scene scene;
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  World world(scene);
  EXPECT_THROW(world.setFrictionDefaults({-0.1, 0.01, 0.0}), std::invalid_argument);
  EXPECT_THROW(world.setFrictionDefaults({0.5, NAN, 0.0}), std::invalid_argument);
  EXPECT_THROW(world.setFrictionDefaults({0.5, 0.01, INFINITY}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(world.frictionDefaults().mu, 0.75);
}

// The app's dt field changes dt between steps: the clock runs on from where it was at the new
// rate (it must not jump to stepCount x the new dt, which here would be 0.055 s, in the past).
TEST(WorldControls, ChangingDtKeepsTheClockRunningForward) {
  Scene scene;
  scene.bodies.push_back(test::box(Vec3(0.3, 0.3, 0.3), Vec3(0, 0, 5)));
  World world(scene, WorldSettings{});
  for (int i = 0; i < 10; ++i) world.step();
  EXPECT_EQ(world.time(), 10 * 0.01);
  world.setDt(0.005);
  world.step();
  EXPECT_DOUBLE_EQ(world.time(), 0.1 + 0.005);
  for (int i = 0; i < 9; ++i) world.step();
  EXPECT_DOUBLE_EQ(world.time(), 0.1 + 10 * 0.005);
  EXPECT_EQ(world.stepCount(), 20);
}

TEST(WorldControls, KdopSettingAcceptsOnly14_18And26) {
  Scene scene;
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  World world(scene);
  WorldSettings settings;
  settings.kdop = 26;
  world.setSettings(settings);
  EXPECT_EQ(world.settings().kdop, 26);
  settings.kdop = 20;
  EXPECT_THROW(world.setSettings(settings), std::invalid_argument);
  EXPECT_EQ(world.settings().kdop, 26);
}

TEST(WorldControls, DeformableSolveSettingsRejectNonPositiveTolerancesAndCaps) {
  Scene scene;
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  World world(scene);
  WorldSettings settings;
  settings.deformable.absoluteTolerance = 1e-4;
  world.setSettings(settings);
  EXPECT_EQ(world.settings().deformable.absoluteTolerance, 1e-4);
  for (const double bad : {0.0, -1e-5, double(NAN), double(INFINITY)}) {
    WorldSettings relative = settings, absolute = settings;
    relative.deformable.relativeTolerance = bad;
    absolute.deformable.absoluteTolerance = bad;
    EXPECT_THROW(world.setSettings(relative), std::invalid_argument) << bad;
    EXPECT_THROW(world.setSettings(absolute), std::invalid_argument) << bad;
  }
  WorldSettings negativeStall = settings;
  negativeStall.deformable.stallIterations = -1;
  EXPECT_THROW(world.setSettings(negativeStall), std::invalid_argument);
  settings.deformable.maxIterations = 0;
  EXPECT_THROW(world.setSettings(settings), std::invalid_argument);
  EXPECT_EQ(world.settings().deformable.absoluteTolerance, 1e-4);
}

TEST(WorldControls, RigidSolveSettingsRejectNoSweepsAndANegativeStallWindow) {
  Scene scene;
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  World world(scene);
  WorldSettings settings;
  settings.solver.stallWindow = 0;  // never stalls
  world.setSettings(settings);
  EXPECT_EQ(world.settings().solver.stallWindow, 0);
  WorldSettings noSweeps = settings, negativeWindow = settings;
  noSweeps.solver.maxIterations = 0;
  negativeWindow.solver.stallWindow = -1;
  EXPECT_THROW(world.setSettings(noSweeps), std::invalid_argument);
  EXPECT_THROW(world.setSettings(negativeWindow), std::invalid_argument);
  EXPECT_EQ(world.settings().solver.stallWindow, 0);
}

struct CountingDraw : DebugDraw {
  int segments = 0, points = 0, boxes = 0;
  void drawSegment(const Vec3&, const Vec3&, const Color&) override { ++segments; }
  void drawPoint(const Vec3&, float, const Color&) override { ++points; }
  void drawAabb(const Vec3&, const Vec3&, const Color&) override { ++boxes; }
};

TEST(WorldControls, DebugDrawFollowsItsOptions) {
  Scene scene;
  scene.bodies.push_back(staticGround());
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(0, 0, 0.5)));
  scene.bodies.push_back(box(Vec3(1, 1, 1), Vec3(3, 0, 0.5)));
  World world(scene);
  world.step();
  const int contacts = static_cast<int>(world.contacts().size());
  ASSERT_EQ(contacts, 8);  // four corners of each box on the ground

  CountingDraw defaults;
  world.debugDraw(defaults);
  EXPECT_EQ(defaults.points, contacts);
  EXPECT_EQ(defaults.segments, contacts);  // normals
  EXPECT_EQ(defaults.boxes, 0);

  DebugDrawOptions all;
  all.contactForces = true;
  all.boundingBoxes = true;
  all.broadphaseCells = true;
  CountingDraw everything;
  world.debugDraw(everything, all);
  EXPECT_EQ(everything.segments, 2 * contacts);  // normals and forces
  // One box per body, and at least one occupied grid cell per box that is not large.
  EXPECT_GE(everything.boxes, 3 + 2);

  DebugDrawOptions none;
  none.contactPoints = none.contactNormals = false;
  CountingDraw nothing;
  world.debugDraw(nothing, none);
  EXPECT_EQ(nothing.points + nothing.segments + nothing.boxes, 0);
}

}  // namespace
}  // namespace contactlab
