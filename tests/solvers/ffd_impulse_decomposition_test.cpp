// FFD and FFD-ID (ffd_impulse_decomposition.{h,cpp}) against the statics of the paper's Fig. 2 and
// the friction of its Truck scene.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "contactlab/scene.h"
#include "contactlab/world.h"
#include "dynamics/contact_assembly.h"
#include "solvers/ffd_impulse_decomposition.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

struct SlotImpulses {
  double left = 0.0, right = 0.0;
  int contacts = 0;
};

// A ball of radius 0.2 m resting in a V of two static half-spaces (the paper's Fig. 2): the left face
// rises at theta1 to the horizontal (outward normal n1 = (sin theta1, 0, cos theta1)), the right face at
// theta2 (n2 = (-sin theta2, 0, cos theta2)). One step from rest; returns the normal impulses.
SlotImpulses ballInSlot(const std::string& solver, double theta1, double theta2) {
  const double radius = 0.2;
  const Vec3 n1(std::sin(theta1), 0, std::cos(theta1)), n2(-std::sin(theta2), 0, std::cos(theta2));
  Scene scene;
  for (const Vec3& n : {n1, n2}) {
    BodyDesc face;
    face.shape = PlaneShape{n, 0.0};
    face.motion = MotionType::Static;
    scene.bodies.push_back(face);
  }
  // The centre c with n1.c = n2.c = radius (touching both faces), 1e-9 m deep so both contacts exist.
  Eigen::Matrix2d rows;
  rows << n1.x(), n1.z(), n2.x(), n2.z();
  const Eigen::Vector2d xz = rows.inverse() * Eigen::Vector2d::Constant(radius - 1e-9);
  scene.bodies.push_back(test::sphere(radius, Vec3(xz[0], 0, xz[1])));
  WorldSettings settings;
  settings.solver.solver = solver;
  World world(scene, settings);
  world.step();
  SlotImpulses out;
  for (const ContactReport& c : world.contacts()) {
    ++out.contacts;
    (std::abs(c.normal.dot(n1)) > std::abs(c.normal.dot(n2)) ? out.left : out.right) += c.lambda[0];
  }
  return out;
}

// Statics over one step of length dt: the two normal impulses alpha1 n1 + alpha2 n2 cancel the weight's
// impulse m g dt e_z. The x row, alpha1 sin theta1 = alpha2 sin theta2, and the z row,
// alpha1 cos theta1 + alpha2 cos theta2 = m g dt, give
//   alpha1 = m g dt sin theta2 / sin(theta1 + theta2),  alpha2 = m g dt sin theta1 / sin(theta1 + theta2).
// Plain FFD's projection (eq. 7, Fig. 2b) gives alpha'_k = m g dt cos theta_k instead. With theta1 = 20,
// theta2 = 50 degrees: alpha = (0.815, 0.364) m g dt, alpha' = (0.940, 0.643) m g dt.
// (At theta1 + theta2 = 90 degrees the two coincide: perpendicular faces split by projection exactly.)
struct VSlot {
  double theta1 = 20 * kDegree, theta2 = 50 * kDegree;
  double mass = 1000.0 * 4.0 / 3.0 * std::numbers::pi * std::pow(0.2, 3);
  double weight = mass * 9.81 * 0.01;  // m g dt, the scene's default dt
  double left = weight * std::sin(theta2) / std::sin(theta1 + theta2);
  double right = weight * std::sin(theta1) / std::sin(theta1 + theta2);
};

TEST(FfdImpulseDecomposition, SplitsTheBallInAVSlotAsStaticsDoes) {
  const VSlot v;
  const SlotImpulses id = ballInSlot("ffd-id", v.theta1, v.theta2);
  ASSERT_EQ(id.contacts, 2);
  EXPECT_NEAR(id.left, v.left, 1e-6 * v.weight);
  EXPECT_NEAR(id.right, v.right, 1e-6 * v.weight);
  // Plain FFD moves the ball by the projection's r (eq. 6) too, which for two contacts on a sphere
  // is the statics split: its applied impulses hold the ball. Its error is in the split that bounds
  // the friction (next test).
  const SlotImpulses ffd = ballInSlot("ffd", v.theta1, v.theta2);
  ASSERT_EQ(ffd.contacts, 2);
  EXPECT_NEAR(ffd.left, v.left, 1e-6 * v.weight);
  EXPECT_NEAR(ffd.right, v.right, 1e-6 * v.weight);
}

// The same V-slot as a contact problem built by hand (plane i static, the ball body j, n from plane to
// ball), solved directly so the split each solver uses for the friction bound can be read.
TEST(FfdImpulseDecomposition, PlainFfdSplitsTheVSlotByProjection) {
  const VSlot v;
  const double radius = 0.2, dt = 0.01;
  ContactProblem problem;
  problem.numSlots = 1;
  problem.inverseMass.push_back({Mat3::Identity() / (0.4 * v.mass * radius * radius), 1.0 / v.mass});
  for (const Vec3& n : {Vec3(std::sin(v.theta1), 0, std::cos(v.theta1)), Vec3(-std::sin(v.theta2), 0, std::cos(v.theta2))}) {
    ContactBlock block;
    block.frame = contactFrame(n);
    block.slotB = 0;
    block.armB = -radius * n;
    block.b.head<3>() = block.frame.transpose() * Vec3(0, 0, -9.81 * dt);  // J u_free: falling from rest
    block.friction = Vec3(0.5, 0.5, 0.01);
    problem.blocks.push_back(block);
  }
  for (int k = 0; k < 2; ++k) problem.blocks[k].diagonalA = diagonalBlock(problem, k).diagonal();
  SolverSettings settings;
  for (const FfdVariant variant : {FfdVariant::Projection, FfdVariant::ImpulseDecomposition}) {
    FastFrictionalDynamics solver(variant);
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(8);
    const SolveReport report = solver.solve(problem, settings, lambda);
    EXPECT_TRUE(report.converged());
    // Both apply the statics split.
    EXPECT_NEAR(lambda[0], v.left, 1e-6 * v.weight);
    EXPECT_NEAR(lambda[4], v.right, 1e-6 * v.weight);
    const Eigen::VectorXd& split = solver.frictionSplit();
    if (variant == FfdVariant::ImpulseDecomposition) {
      EXPECT_NEAR(split[0], v.left, 1e-6 * v.weight);
      EXPECT_NEAR(split[1], v.right, 1e-6 * v.weight);
    } else {
      // Fig. 2(b): m g dt cos theta_k, off by 0.125 m g dt on the left face and 0.279 m g dt on the right.
      EXPECT_NEAR(split[0], v.weight * std::cos(v.theta1), 1e-6 * v.weight);
      EXPECT_NEAR(split[1], v.weight * std::cos(v.theta2), 1e-6 * v.weight);
      EXPECT_GT(split[0] - v.left, 0.1 * v.weight);
      EXPECT_GT(split[1] - v.right, 0.25 * v.weight);
    }
  }
}

// The same ball settles and stays: FFD-ID's split holds it, no drift into either face.
TEST(FfdImpulseDecomposition, KeepsTheBallAtRestInTheSlot) {
  WorldSettings settings;
  settings.solver.solver = "ffd-id";
  const Vec3 n1(std::sin(20 * kDegree), 0, std::cos(20 * kDegree)), n2(-std::sin(50 * kDegree), 0, std::cos(50 * kDegree));
  Scene scene;
  for (const Vec3& n : {n1, n2}) {
    BodyDesc face;
    face.shape = PlaneShape{n, 0.0};
    face.motion = MotionType::Static;
    scene.bodies.push_back(face);
  }
  Eigen::Matrix2d rows;
  rows << n1.x(), n1.z(), n2.x(), n2.z();
  const Eigen::Vector2d xz = rows.inverse() * Eigen::Vector2d::Constant(0.2 - 1e-9);
  const Vec3 start(xz[0], 0, xz[1]);
  scene.bodies.push_back(test::sphere(0.2, start));
  World world(scene, settings);
  test::runFor(world, 1.0);
  EXPECT_LT((world.bodies()[2].position - start).norm(), 1e-4);
}

// Energy over a run of a built-in scene (restitution 0: the total may only fall), and whether every
// state stayed finite (World::step throws otherwise).
struct RunSummary {
  double initial = 0.0, largestGain = 0.0;
  int contacts = 0, unconverged = 0, rollbacks = 0;
};

RunSummary runScene(const std::string& solver, const std::string& scene, const SceneParams& params, int steps) {
  WorldSettings settings;
  settings.solver.solver = solver;
  World world(buildBuiltinScene(scene, params, 1), settings);
  RunSummary out;
  out.initial = world.kineticEnergy() + world.potentialEnergy();
  for (int i = 0; i < steps; ++i) {
    world.step();
    out.largestGain = std::max(out.largestGain, world.kineticEnergy() + world.potentialEnergy() - out.initial);
    out.unconverged += world.lastMetrics().solve.converged() ? 0 : 1;
    out.rollbacks += world.lastMetrics().solve.rollbacks;
    out.contacts = world.lastMetrics().contacts;
  }
  return out;
}

struct SceneCase {
  const char* scene;
  SceneParams params;
  int steps;
};
const SceneCase kScenes[] = {{"wall", {}, 40}, {"tower", {}, 60}, {"pile", {{"count", 60}}, 120}};

// FFD-ID keeps the stacks and a landing pile finite and never gains energy.
TEST(FfdImpulseDecomposition, RunsTheStacksAndAPileWithoutGainingEnergy) {
  for (const SceneCase& c : kScenes) {
    SCOPED_TRACE(c.scene);
    RunSummary run;
    ASSERT_NO_THROW(run = runScene("ffd-id", c.scene, c.params, c.steps));
    std::printf("ffd-id %s: largest energy gain %g J of %g, unconverged %d, roll-backs %d\n", c.scene, run.largestGain,
                run.initial, run.unconverged, run.rollbacks);
    EXPECT_LT(run.largestGain, 1e-6 * run.initial);
    EXPECT_GT(run.contacts, 50);
  }
}

// Plain FFD stays finite everywhere (its passes roll back instead of overflowing), and the pile keeps
// its energy. Known failure, documented here: on the wall its friction gains energy (measured: +194
// to +218 J of 11442 J within 40 steps, about 20 of 40 solves rolled back). Eq. 9 stops each body's
// OWN twist; the engine applies that friction to both bodies of a contact (Newton's third law, which
// FFD does not keep), so a brick's friction on its side neighbours pushes them, and their steps push
// back. The tower, whose boxes each bridge two below, shows the same a little: 0 to 0.04 J of 10768 J
// in 60 steps, depending on the last bits of the boxes' start orientations.
TEST(FfdImpulseDecomposition, PlainFfdStaysFiniteButItsFrictionGainsEnergyOnTheWall) {
  for (const SceneCase& c : kScenes) {
    SCOPED_TRACE(c.scene);
    RunSummary run;
    ASSERT_NO_THROW(run = runScene("ffd", c.scene, c.params, c.steps));
    std::printf("ffd %s: largest energy gain %g J of %g, unconverged %d, roll-backs %d\n", c.scene, run.largestGain,
                run.initial, run.unconverged, run.rollbacks);
    if (std::string(c.scene) == "wall") {
      EXPECT_GT(run.largestGain, 1e-3 * run.initial) << "the documented failure is gone: update the test";
      EXPECT_GT(run.rollbacks, 0);
    } else if (std::string(c.scene) == "tower") {
      // The same flaw, smaller: solved to the defaults' 1e-5 m/s the tower gains 0.59 J of 10,767
      // in 60 steps (docs/solvers.md).
      EXPECT_LT(run.largestGain, 1e-4 * run.initial);
    } else {
      EXPECT_LT(run.largestGain, 1e-6 * run.initial);
    }
  }
}

// The paper's Truck (sec. V.C, Fig. 7; the built-in scene "truck" with its defaults): six boxes
// dropped from rest onto a bed moving at 2 m/s that stops at t = 1.5 s, mu = 0.4. What Coulomb
// friction says: a piece lands after t_f = sqrt(2 h / g) with v_f = g t_f; the landing's normal
// impulse m v_f brings friction mu m v_f, so it leaves at mu v_f, then slips at the deceleration
// mu g until it moves with the bed. By then it lags the bed by speed t_f + (speed - mu v_f)^2 / (2 mu g)
// and rides along; after the stop it slides on by speed^2 / (2 mu g).
struct Truck {
  double speed = 2.0, stopTime = 1.5, mu = 0.4, dropHeight = 0.05, g = 9.81;
  double fallTime = std::sqrt(2.0 * dropHeight / g);
  double lag = speed * fallTime + std::pow(speed - mu * g * fallTime, 2) / (2.0 * mu * g);
  double slideOn = speed * speed / (2.0 * mu * g);
};

struct TruckRun {
  std::vector<double> lagWhileCarried, speedWhileCarried, slideAfterStop, speedAtEnd;
  double bedTravel = 0.0;
};

TruckRun runTruck(const std::string& solver) {
  const Truck truck;
  WorldSettings settings;
  settings.solver.solver = solver;
  World world(buildBuiltinScene("truck", {}, 1), settings);
  const std::vector<Body> start = world.bodies();
  const auto lagOf = [&](std::size_t i) {
    return (world.bodies()[0].position.x() - start[0].position.x()) - (world.bodies()[i].position.x() - start[i].position.x());
  };
  TruckRun run;
  test::runFor(world, truck.stopTime - 0.1);  // all carried by now (they catch up by t = 0.51 s)
  for (std::size_t i = 1; i < start.size(); ++i) {
    run.lagWhileCarried.push_back(lagOf(i));
    run.speedWhileCarried.push_back(world.bodies()[i].velocity.x());
  }
  test::runFor(world, 0.1);
  std::vector<double> atStop;
  for (std::size_t i = 1; i < start.size(); ++i) atStop.push_back(world.bodies()[i].position.x());
  test::runFor(world, 1.5);  // they stop by t = 1.5 + speed / (mu g) = 2.01 s
  for (std::size_t i = 1; i < start.size(); ++i) {
    run.slideAfterStop.push_back(world.bodies()[i].position.x() - atStop[i - 1]);
    run.speedAtEnd.push_back(world.bodies()[i].velocity.norm());
  }
  run.bedTravel = world.bodies()[0].position.x() - start[0].position.x();
  return run;
}

// FFD-ID's friction works on the relative velocity at each contact (eq. 14-20): the pieces are dragged
// up to the bed's speed, ride along, and slide on after the stop, each within 1 % of the analytic
// values (measured: lag 0.5297 m against 0.5297, slide 0.5097 m against 0.5097).
TEST(FfdImpulseDecomposition, TruckCarriesThePiecesAndTheySlideOnAfterTheStop) {
  const Truck truck;
  const TruckRun run = runTruck("ffd-id");
  ASSERT_EQ(run.lagWhileCarried.size(), 6u);
  EXPECT_NEAR(run.bedTravel, truck.speed * truck.stopTime, 1e-9);
  for (std::size_t i = 0; i < run.lagWhileCarried.size(); ++i) {
    SCOPED_TRACE("piece " + std::to_string(i));
    EXPECT_NEAR(run.speedWhileCarried[i], truck.speed, 1e-3 * truck.speed);
    EXPECT_NEAR(run.lagWhileCarried[i], truck.lag, 0.01 * truck.lag);
    EXPECT_NEAR(run.slideAfterStop[i], truck.slideOn, 0.01 * truck.slideOn);
    EXPECT_LT(run.speedAtEnd[i], 1e-6);
  }
}

// The paper's point, measured: plain FFD's friction (eq. 7, 9) acts on each body's OWN velocity, and a
// piece landing with no horizontal velocity gets no friction at all ("it fails to handle the frictional
// impulse being zero because a chess piece has no horizontal velocity"). The bed slides 3 m under the
// pieces, which never move along x: no carrying and no slide after the stop.
TEST(FfdImpulseDecomposition, PlainFfdLeavesThePiecesBehindOnTheTruck) {
  const Truck truck;
  const TruckRun run = runTruck("ffd");
  ASSERT_EQ(run.lagWhileCarried.size(), 6u);
  for (std::size_t i = 0; i < run.lagWhileCarried.size(); ++i) {
    SCOPED_TRACE("piece " + std::to_string(i));
    EXPECT_LT(std::abs(run.speedWhileCarried[i]), 1e-6);
    EXPECT_NEAR(run.lagWhileCarried[i], truck.speed * (truck.stopTime - 0.1), 1e-6) << "the bed slid under it";
    EXPECT_LT(std::abs(run.slideAfterStop[i]), 1e-6);
  }
}

TEST(FfdImpulseDecomposition, IsRegisteredAfterTheOtherSolvers) {
  const auto names = solverNames();
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(names[names.size() - 2].name, "ffd");
  EXPECT_EQ(names.back().name, "ffd-id");
}

}  // namespace
}  // namespace contactlab
