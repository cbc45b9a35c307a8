#include <gtest/gtest.h>

#include <tuple>

#include <filesystem>
#include <string>

#include "contactlab/scene.h"
#include "io/bad_scene_cases.h"

namespace contactlab {
namespace {

// The error message of parsing `text`, or "" if it parsed.
std::string parseError(const std::string& text) {
  try {
    parseSceneJson(text, "test.json");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

// A scene with one body whose extra keys are `bodyKeys`, e.g. R"("radius": 1, "position": [0,0,0])".
std::string oneBody(const std::string& bodyKeys) { return R"({"bodies": [{)" + bodyKeys + "}]}"; }

TEST(SceneJson, MinimalSceneTakesThePapersDefaults) {
  const Scene scene = parseSceneJson(oneBody(R"("shape": "sphere", "radius": 0.25, "position": [1, 2, 3])"), "t");
  EXPECT_EQ(scene.gravity, Vec3(0, 0, -9.81));
  EXPECT_DOUBLE_EQ(scene.dt, 0.01);
  EXPECT_DOUBLE_EQ(scene.friction.mu, 0.75);
  EXPECT_DOUBLE_EQ(scene.friction.muTorsion, 0.01);
  EXPECT_DOUBLE_EQ(scene.friction.restitution, 0.0);
  ASSERT_EQ(scene.bodies.size(), 1u);
  const BodyDesc& body = scene.bodies[0];
  EXPECT_EQ(body.position, Vec3(1, 2, 3));
  EXPECT_TRUE(body.orientation.coeffs().isApprox(Quat::Identity().coeffs()));
  EXPECT_EQ(body.velocity, Vec3::Zero());
  EXPECT_EQ(body.angularVelocity, Vec3::Zero());
  EXPECT_EQ(body.density, kDefaultDensity);
  EXPECT_FALSE(body.mass.has_value());
  EXPECT_FALSE(body.material.mu || body.material.muTorsion || body.material.restitution);
  EXPECT_EQ(body.motion, MotionType::Dynamic);
}

TEST(SceneJson, ReadsEveryShapeInItsOwnUnits) {
  const Scene scene = parseSceneJson(R"({"bodies": [
      {"shape": "box", "size": [2, 4, 6], "position": [0, 0, 0]},
      {"shape": "sphere", "radius": 0.5, "position": [0, 0, 0]},
      {"shape": "capsule", "radius": 0.1, "length": 0.8, "position": [0, 0, 0]},
      {"shape": "plane", "normal": [0, 0, 2], "offset": 1}]})",
                                     "t");
  ASSERT_EQ(scene.bodies.size(), 4u);
  EXPECT_EQ(std::get<BoxShape>(scene.bodies[0].shape).halfExtents, Vec3(1, 2, 3));
  EXPECT_DOUBLE_EQ(std::get<SphereShape>(scene.bodies[1].shape).radius, 0.5);
  const auto& capsule = std::get<CapsuleShape>(scene.bodies[2].shape);
  EXPECT_DOUBLE_EQ(capsule.radius, 0.1);
  EXPECT_DOUBLE_EQ(capsule.halfLength, 0.4);
  // A non-unit plane normal is scaled to unit length together with the offset: the same half-space.
  const auto& plane = std::get<PlaneShape>(scene.bodies[3].shape);
  EXPECT_EQ(plane.normal, Vec3(0, 0, 1));
  EXPECT_DOUBLE_EQ(plane.offset, 0.5);
  EXPECT_EQ(scene.bodies[3].motion, MotionType::Static);
}

TEST(SceneJson, ReadsTheIssuesExample) {
  const Scene scene = parseSceneJson(R"({ "gravity": [0, 0, -9.81], "dt": 0.01,
  "friction": { "mu": 0.75, "mu_torsion": 0.01, "restitution": 0.0 },
  "bodies": [
    { "name": "ground", "shape": "box", "size": [20, 20, 1], "position": [0, 0, -0.5], "static": true },
    { "shape": "sphere", "radius": 0.25, "position": [0, 0, 2], "orientation": [1, 0, 0, 0],
      "velocity": [0, 0, 0], "angular_velocity": [0, 0, 0], "density": 1000,
      "mu": 0.5, "mu_torsion": 0.01, "restitution": 0.5 } ] })",
                                     "example.json");
  ASSERT_EQ(scene.bodies.size(), 2u);
  EXPECT_EQ(scene.bodies[0].name, "ground");
  EXPECT_EQ(scene.bodies[0].motion, MotionType::Static);
  EXPECT_EQ(scene.bodies[1].material.mu, 0.5);
  EXPECT_EQ(scene.bodies[1].material.restitution, 0.5);
}

TEST(SceneJson, NormalizesANonUnitQuaternion) {
  const Scene scene = parseSceneJson(
      oneBody(R"("shape": "box", "size": [1, 1, 1], "position": [0, 0, 0], "orientation": [2, 0, 0, 2])"), "t");
  const Quat& q = scene.bodies[0].orientation;
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
  EXPECT_NEAR(q.w(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(q.z(), std::sqrt(0.5), 1e-15);
}

TEST(SceneJson, ReadsKinematicBodiesAndTheirSchedule) {
  const Scene scene = parseSceneJson(oneBody(R"("shape": "box", "size": [1, 1, 1], "position": [0, 0, 0],
      "kinematic": true, "mass": 5, "velocity_schedule": [[0, [1, 0, 0]], [2.5, [0, 0, 0]]])"),
                                     "t");
  const BodyDesc& body = scene.bodies[0];
  EXPECT_EQ(body.motion, MotionType::Kinematic);
  EXPECT_EQ(body.mass, 5.0);
  EXPECT_FALSE(body.density.has_value());
  ASSERT_EQ(body.velocitySchedule.size(), 2u);
  EXPECT_DOUBLE_EQ(body.velocitySchedule[1].time, 2.5);
  EXPECT_EQ(body.velocitySchedule[0].velocity, Vec3(1, 0, 0));
}

Scene everyFeatureScene() {
  Scene scene;
  scene.gravity = Vec3(0.1, -0.2, -9.7);
  scene.dt = 1.0 / 300.0;
  scene.friction = {0.3, 0.02, 0.1, 0.004};
  BodyDesc box;
  box.name = "box";
  box.shape = BoxShape{Vec3(0.1, 0.2, 1.0 / 3.0)};
  box.position = Vec3(1.0 / 7.0, 2e-17, -3.5);
  box.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  box.velocity = Vec3(0.1, 0.2, 0.3);
  box.angularVelocity = Vec3(-1, 0.5, 1e-9);
  box.density = 750.0;
  box.material.mu = 0.123456789;
  BodyDesc sphere;
  sphere.shape = SphereShape{0.25};
  sphere.mass = 3.25;
  sphere.material = {0.5, 0.02, 0.5, 1.0 / 3.0};
  BodyDesc capsule;
  capsule.shape = CapsuleShape{0.1, 0.35};
  capsule.motion = MotionType::Kinematic;
  capsule.density = 1000.0;
  capsule.velocitySchedule = {{0.0, Vec3(1, 0, 0)}, {1.5, Vec3(0, 0, 0.1)}};
  BodyDesc plane;
  plane.shape = PlaneShape{Vec3(0, 0, 1), -0.25};
  plane.motion = MotionType::Static;
  scene.bodies = {box, sphere, capsule, plane};
  return scene;
}

void expectSameBody(const BodyDesc& a, const BodyDesc& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.shape.index(), b.shape.index());
  EXPECT_EQ(a.position, b.position);
  EXPECT_TRUE(a.orientation.coeffs().isApprox(b.orientation.coeffs(), 1e-15));
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.angularVelocity, b.angularVelocity);
  EXPECT_EQ(a.density, b.density);
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.material.mu, b.material.mu);
  EXPECT_EQ(a.material.muTorsion, b.material.muTorsion);
  EXPECT_EQ(a.material.restitution, b.material.restitution);
  EXPECT_EQ(a.material.muRolling, b.material.muRolling);
  EXPECT_EQ(a.motion, b.motion);
  ASSERT_EQ(a.velocitySchedule.size(), b.velocitySchedule.size());
  for (std::size_t i = 0; i < a.velocitySchedule.size(); ++i) {
    EXPECT_EQ(a.velocitySchedule[i].time, b.velocitySchedule[i].time);
    EXPECT_EQ(a.velocitySchedule[i].velocity, b.velocitySchedule[i].velocity);
  }
}

TEST(SceneJson, RoundTripsEveryFieldExactly) {
  const Scene original = everyFeatureScene();
  const Scene copy = parseSceneJson(sceneToJson(original), "round trip");
  EXPECT_EQ(copy.gravity, original.gravity);
  EXPECT_EQ(copy.dt, original.dt);
  EXPECT_EQ(copy.friction.mu, original.friction.mu);
  EXPECT_EQ(copy.friction.muTorsion, original.friction.muTorsion);
  EXPECT_EQ(copy.friction.restitution, original.friction.restitution);
  EXPECT_EQ(copy.friction.muRolling, original.friction.muRolling);
  ASSERT_EQ(copy.bodies.size(), original.bodies.size());
  for (std::size_t i = 0; i < copy.bodies.size(); ++i) expectSameBody(copy.bodies[i], original.bodies[i]);
  EXPECT_EQ(std::get<BoxShape>(copy.bodies[0].shape).halfExtents,
            std::get<BoxShape>(original.bodies[0].shape).halfExtents);
  EXPECT_EQ(std::get<CapsuleShape>(copy.bodies[2].shape).halfLength, 0.35);
  EXPECT_EQ(std::get<PlaneShape>(copy.bodies[3].shape).offset, -0.25);
  // A second trip changes nothing: the text is a fixed point.
  EXPECT_EQ(sceneToJson(copy), sceneToJson(original));
}

// A saved state's clock: "time" and "step" round-trip exactly, and a new scene (at 0) writes neither.
TEST(SceneJson, TheStartingTimeAndStepRoundTripAndANewSceneLeavesThemOut) {
  Scene scene = everyFeatureScene();
  EXPECT_EQ(sceneToJson(scene).find("\"step\""), std::string::npos);
  EXPECT_EQ(parseSceneJson(sceneToJson(scene), "new").time, 0.0);
  scene.time = 0.1 * 3;  // 0.30000000000000004
  scene.step = 30;
  const Scene copy = parseSceneJson(sceneToJson(scene), "saved");
  EXPECT_EQ(copy.time, scene.time);
  EXPECT_EQ(copy.step, 30);
}

TEST(SceneJson, SaveAndLoadGoThroughAFile) {
  const std::string path = (std::filesystem::temp_directory_path() / "contactlab_scene_json_test.json").string();
  saveSceneFile(everyFeatureScene(), path);
  EXPECT_EQ(sceneToJson(loadSceneFile(path)), sceneToJson(everyFeatureScene()));
  std::filesystem::remove(path);
}

TEST(SceneJson, EveryBadSceneFileNamesTheFileAndTheFault) {
  for (const auto& bad : testing::badSceneCases()) {
    SCOPED_TRACE(bad.file);
    const std::string path = testing::badScenePath(bad.file);
    try {
      loadSceneFile(path);
      ADD_FAILURE() << "loaded without error";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad.mustMention), std::string::npos) << e.what();
    }
  }
}

TEST(SceneJson, MissingPathsAndDirectoriesAreNamed) {
  const std::string missing = testing::badScenePath("no_such_scene.json");
  EXPECT_THROW(
      {
        try {
          loadSceneFile(missing);
        } catch (const SceneError& e) {
          EXPECT_EQ(std::string(e.what()), missing + ": no such file");
          throw;
        }
      },
      SceneError);
  EXPECT_THROW(loadSceneFile(CONTACTLAB_TEST_DATA), SceneError);
}

struct BadTextCase {
  const char* text;
  const char* mustMention;
};

TEST(SceneJson, EachSchemaViolationNamesItsKey) {
  const BadTextCase cases[] = {
      {R"({})", "bodies: missing"},
      {R"({"bodies": {}})", "bodies: expected an array"},
      {R"({"bodies": [], "gravity": [0, 0]})", "gravity: expected an array of 3 numbers"},
      {R"({"bodies": [], "dt": 0})", "dt: must be positive"},
      {R"({"bodies": [], "dt": "fast"})", "dt: expected a number, got string"},
      {R"({"bodies": [], "friction": {"mu": -1}})", "friction.mu: must not be negative"},
      {R"({"bodies": [], "friction": {"static_mu": 1}})", "friction.static_mu: unknown key"},
      {R"({"bodies": [], "bodies": []})", "bodies: duplicate key"},
      {R"({"bodies": []})", "bodies: is empty"},
      {R"({"time": -1, "bodies": []})", "time: must not be negative"},
      {R"({"step": 2.5, "bodies": []})", "step: expected an integer"},
      {R"({"step": -3, "bodies": []})", "step: must lie in [0, "},
      {R"({"bodies": [7]})", "bodies[0]: expected an object"},
      {R"({"bodies": [{"radius": 1}]})", "bodies[0].shape: missing"},
      {R"({"bodies": [{"shape": 3}]})", "bodies[0].shape: expected a string"},
      {R"({"bodies": [{"shape": "box", "size": [1, 0, 1], "position": [0, 0, 0]}]})", "bodies[0].size"},
      {R"({"bodies": [{"shape": "box", "size": [1, 1, 1]}]})", "bodies[0].position: missing"},
      {R"({"bodies": [{"shape": "box", "position": [0, 0, 0]}]})", "bodies[0].size: missing"},
      {R"({"bodies": [{"shape": "box", "radius": 1, "position": [0, 0, 0]}]})", "bodies[0].radius: unknown key"},
      {R"({"bodies": [{"shape": "sphere", "radius": 0, "position": [0, 0, 0]}]})", "bodies[0].radius"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "size": [1, 1, 1], "position": [0, 0, 0]}]})",
       "bodies[0].size: unknown key"},
      {R"({"bodies": [{"shape": "capsule", "radius": 1, "position": [0, 0, 0]}]})", "bodies[0].length: missing"},
      {R"({"bodies": [{"shape": "capsule", "radius": 1, "length": -1, "position": [0, 0, 0]}]})",
       "bodies[0].length"},
      {R"({"bodies": [{"shape": "plane", "normal": [0, 0, 0], "offset": 0}]})", "bodies[0].normal"},
      {R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1]}]})", "bodies[0].offset: missing"},
      {R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1], "offset": 0, "position": [0, 0, 0]}]})",
       "bodies[0].position: unknown key"},
      {R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1], "offset": 0, "static": false}]})",
       "bodies[0].static"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "density": 1, "mass": 1}]})",
       "bodies[0].mass: give either density or mass"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "mass": -1}]})", "bodies[0].mass"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "static": 1}]})",
       "bodies[0].static: expected true or false"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "static": true, "kinematic": true}]})",
       "bodies[0].kinematic"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "velocity_schedule": []}]})",
       "bodies[0].velocity_schedule: only kinematic"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "kinematic": true,
           "velocity_schedule": [[1, [0, 0, 0]], [1, [1, 0, 0]]]}]})",
       "bodies[0].velocity_schedule[1][0]: times must increase"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "kinematic": true,
           "velocity_schedule": [[0, 1]]}]})",
       "bodies[0].velocity_schedule[0][1]"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "restitution": 1.5}]})",
       "bodies[0].restitution: must not exceed 1"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "mu_rolling": -0.001}]})",
       "bodies[0].mu_rolling"},
      {R"({"friction": {"mu_rolling": "a"}, "bodies": []})", "friction.mu_rolling"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, -1e999, 0]}]})", "bodies[0].position[1]"},
      {R"({"bodies": [{"shape": "sphere", "radius": 1, "position": [0, 0, 0], "orientation": [1, 0, 0]}]})",
       "bodies[0].orientation: expected a quaternion"},
  };
  for (const BadTextCase& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = parseError(c.text);
    EXPECT_TRUE(message.starts_with("test.json: ")) << message;
    EXPECT_NE(message.find(c.mustMention), std::string::npos) << message;
  }
}

TEST(SceneJson, RoundTripsAContinuationExactly) {
  Scene scene = everyFeatureScene();
  Continuation& c = scene.continuation;
  c.contacts.push_back({1, 2, 0xfffffffeu, 0.1, Vec3(1.0 / 3.0, -2e-17, 5), 1e-9, Vec3(1, 2, 3)});
  Continuation::Constraint constraint;
  constraint.pair = {4, -1, -1, 2, -1, 7, 1, 9, -1, -1};
  constraint.pairFeature = 3;
  constraint.kinetic = false;
  constraint.direction = {0.6, -0.8};
  constraint.lambdaEstimate = 2.0 / 3.0;
  constraint.lambdaHistory = {0.5, 0.25};
  constraint.historyCount = 17;
  constraint.kineticForce = {1e-300, -7.5};
  constraint.multipliers = Vec3(0.1, 0.2, 0.3);
  c.constraints.push_back(constraint);
  c.rest.assign(scene.bodies.size(), {});
  c.rest[1] = {0.37, 1, Vec3(0.1, -1.0 / 3.0, 2e-17), Quat(0.6, 0.0, 0.8, 0.0)};
  const Scene copy = parseSceneJson(sceneToJson(scene), "round trip");
  ASSERT_EQ(copy.continuation.contacts.size(), 1u);
  const Continuation::Contact &a = copy.continuation.contacts[0], &b = c.contacts[0];
  EXPECT_EQ(std::tie(a.bodyA, a.bodyB, a.feature, a.normal, a.torsion), std::tie(b.bodyA, b.bodyB, b.feature, b.normal, b.torsion));
  EXPECT_EQ(a.tangential, b.tangential);
  EXPECT_EQ(a.point, b.point);
  ASSERT_EQ(copy.continuation.constraints.size(), 1u);
  const Continuation::Constraint& d = copy.continuation.constraints[0];
  EXPECT_EQ(d.pair, constraint.pair);
  EXPECT_EQ(std::tie(d.pairFeature, d.kinetic, d.direction, d.lambdaEstimate, d.lambdaHistory, d.historyCount, d.kineticForce),
            std::tie(constraint.pairFeature, constraint.kinetic, constraint.direction, constraint.lambdaEstimate,
                     constraint.lambdaHistory, constraint.historyCount, constraint.kineticForce));
  EXPECT_EQ(d.multipliers, constraint.multipliers);
  ASSERT_EQ(copy.continuation.rest.size(), scene.bodies.size());
  EXPECT_EQ(copy.continuation.rest[1].time, 0.37);
  EXPECT_EQ(copy.continuation.rest[1].asleepWith, 1);
  EXPECT_EQ(copy.continuation.rest[1].position, c.rest[1].position);
  EXPECT_EQ(copy.continuation.rest[1].orientation.coeffs(), c.rest[1].orientation.coeffs());
  EXPECT_EQ(sceneToJson(copy), sceneToJson(scene));
}

// Files written before the rest pose was kept have rows of two numbers: the rest begins where the
// file puts the body.
TEST(SceneJson, AShortRestRowBeginsTheRestWhereTheBodyIs) {
  const Scene scene = parseSceneJson(
      R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1], "offset": 0},
                     {"shape": "box", "size": [1, 1, 1], "position": [0.25, 0, 0.5]}],
          "continuation": {"rest": [[0, -1], [0.2, -1]]}})",
      "test.json");
  ASSERT_EQ(scene.continuation.rest.size(), 2u);
  EXPECT_EQ(scene.continuation.rest[1].time, 0.2);
  EXPECT_EQ(scene.continuation.rest[1].position, Vec3(0.25, 0, 0.5));
  EXPECT_EQ(scene.continuation.rest[1].orientation.coeffs(), Quat::Identity().coeffs());
}

// Files written while contacts kept a drift anchor have rows of 14 numbers, the anchor's slip
// before the point: the point is read from its place there, the slip is left.
TEST(SceneJson, AContactRowWithADriftAnchorsSlipIsRead) {
  const Scene scene = parseSceneJson(
      R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1], "offset": 0},
                     {"shape": "box", "size": [1, 1, 1], "position": [0.25, 0, 0.5]}],
          "continuation": {"contacts": [[0, 1, 7, 2.5, 0.1, 0.2, 0, 0.01, 1e-4, 2e-4, 0, 0.5, -0.5, 0]]}})",
      "test.json");
  ASSERT_EQ(scene.continuation.contacts.size(), 1u);
  const Continuation::Contact& c = scene.continuation.contacts[0];
  EXPECT_EQ(c.feature, 7u);
  EXPECT_EQ(c.normal, 2.5);
  EXPECT_EQ(c.tangential, Vec3(0.1, 0.2, 0));
  EXPECT_EQ(c.torsion, 0.01);
  EXPECT_EQ(c.point, Vec3(0.5, -0.5, 0));
}

TEST(SceneJson, EachContinuationFaultNamesItsRow) {
  // Body 0 is static ground, body 1 a dynamic box.
  const std::string bodies =
      R"({"bodies": [{"shape": "plane", "normal": [0, 0, 1], "offset": 0},
                     {"shape": "box", "size": [1, 1, 1], "position": [0, 0, 0.5]}], "continuation": )";
  const BadTextCase cases[] = {
      {R"({"warm": []})", "continuation.warm: unknown key"},
      {R"({"contacts": [[0, 1, 3]]})", "continuation.contacts[0]: expected a row of 11 or 14 numbers"},
      {R"({"contacts": [[0, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0]]})", "continuation.contacts[0][1]: must lie in [0, 1]"},
      {R"({"contacts": [[0, 1, 3.5, 1, 0, 0, 0, 0, 0, 0, 0]]})", "continuation.contacts[0][2]: expected an integer"},
      {R"({"contacts": [[0, 1, 3, "x", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]})", "continuation.contacts[0][3]: expected a number"},
      {R"({"constraints": [[0, 0, 0]]})", "continuation.constraints[0]: expected a row of 23 numbers"},
      {R"({"constraints": [[0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]})",
       "continuation.constraints[0][1]: must lie in [-1, "},
      {R"({"constraints": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]})",
       "continuation.constraints[0][11]: must lie in [0, 1]"},
      {R"({"rest": [[0, -1]]})", "continuation.rest: has 1 rows for 2 bodies"},
      {R"({"rest": [[0, 0], [0, -1]]})", "continuation.rest[0]: body 0 is asleep but is not a dynamic rigid body"},
      {R"({"rest": [[0, -1], [-1e999, 1]]})", "continuation.rest[1][0]"},
      {R"({"rest": [[0, -1], [0, -1, 0, 0]]})", "continuation.rest[1]: expected a row of 9 or 2 numbers"},
      {R"({"rest": [[0, -1], [0, -1, 0, 0, 0, 0, 0, 0, 0]]})", "continuation.rest[1]: has a zero rest orientation"},
  };
  for (const BadTextCase& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = parseError(bodies + c.text + "}");
    EXPECT_TRUE(message.starts_with("test.json: ")) << message;
    EXPECT_NE(message.find(c.mustMention), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace contactlab
