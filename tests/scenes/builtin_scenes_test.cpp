#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "contactlab/scene.h"
#include "geometry/shape_geometry.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

// How far two bodies interpenetrate: positive is overlap, zero is touching, negative a gap (exact for
// box-box by the separating axis theorem, sphere-box and sphere-sphere). nullopt for other shapes.
std::optional<double> overlapDepth(const BodyDesc& a, const BodyDesc& b) {
  const auto* boxA = std::get_if<BoxShape>(&a.shape);
  const auto* boxB = std::get_if<BoxShape>(&b.shape);
  const auto* sphereA = std::get_if<SphereShape>(&a.shape);
  const auto* sphereB = std::get_if<SphereShape>(&b.shape);
  if (sphereA && sphereB) return sphereA->radius + sphereB->radius - (a.position - b.position).norm();
  if (sphereA && boxB) std::swap(sphereA, sphereB), std::swap(boxA, boxB);
  if (boxA && sphereB) {
    const Vec3 local = a.orientation.conjugate() * (b.position - a.position);
    const Vec3 closest = local.cwiseMax(-boxA->halfExtents).cwiseMin(boxA->halfExtents);
    if (closest == local) return sphereB->radius + (boxA->halfExtents - local.cwiseAbs()).minCoeff();
    return sphereB->radius - (local - closest).norm();
  }
  if (!boxA || !boxB) return std::nullopt;
  const Mat3 ra = a.orientation.toRotationMatrix(), rb = b.orientation.toRotationMatrix();
  std::vector<Vec3> axes;
  for (int i = 0; i < 3; ++i) axes.push_back(ra.col(i)), axes.push_back(rb.col(i));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (const Vec3 c = ra.col(i).cross(rb.col(j)); c.norm() > 1e-9) axes.push_back(c.normalized());
  double depth = INFINITY;
  for (const Vec3& axis : axes) {
    const double reachA = (ra.transpose() * axis).cwiseAbs().dot(boxA->halfExtents);
    const double reachB = (rb.transpose() * axis).cwiseAbs().dot(boxB->halfExtents);
    depth = std::min(depth, reachA + reachB - std::abs(axis.dot(b.position - a.position)));
  }
  return depth;
}

using test::bodyNamed;

Vec3 halfExtents(const BodyDesc& body) { return std::get<BoxShape>(body.shape).halfExtents; }

int countDynamic(const Scene& scene) {
  return static_cast<int>(std::count_if(scene.bodies.begin(), scene.bodies.end(),
                                         [](const BodyDesc& b) { return b.motion == MotionType::Dynamic; }));
}

using test::builtinSceneError;

TEST(BuiltinScenes, EveryOneBuildsValidBodiesWithItsDefaults) {
  ASSERT_GE(builtinScenes().size(), 7u);
  for (const SceneEntry& entry : builtinScenes()) {
    SCOPED_TRACE(entry.name);
    EXPECT_EQ(findBuiltinScene(entry.name), &entry);
    const Scene scene = buildBuiltinScene(entry.name, {}, 1);
    EXPECT_GT(countDynamic(scene), 0);
    EXPECT_GT(scene.dt, 0.0);
    for (const BodyDesc& body : scene.bodies) EXPECT_EQ(shapeProblem(body.shape), "") << body.name;
  }
}

TEST(BuiltinScenes, NoTwoBodiesOverlapInitially) {
  for (const SceneEntry& entry : builtinScenes()) {
    SCOPED_TRACE(entry.name);
    // A smaller pile keeps the all-pairs check quick; its lattice is the same at any count.
    const SceneParams params = entry.name == "pile" ? SceneParams{{"count", 400}} : SceneParams{};
    const Scene scene = buildBuiltinScene(entry.name, params, 7);
    // Scenes with mesh bodies are checked against the meshes themselves in mesh_scenes_test.cpp.
    if (std::any_of(scene.bodies.begin(), scene.bodies.end(),
                    [](const BodyDesc& b) { return std::holds_alternative<MeshShape>(b.shape); }))
      continue;
    for (std::size_t i = 0; i < scene.bodies.size(); ++i)
      for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
        const BodyDesc &a = scene.bodies[i], &b = scene.bodies[j];
        if (a.motion == MotionType::Static && b.motion == MotionType::Static) continue;
        const auto depth = overlapDepth(a, b);
        ASSERT_TRUE(depth.has_value());
        EXPECT_LE(*depth, 1e-9) << a.name << " overlaps " << b.name;
      }
  }
}

TEST(BuiltinScenes, WallHas81BricksTouchingInRowsFromTheGround) {
  const Scene wall = buildBuiltinScene("wall", {}, 0);
  EXPECT_EQ(countDynamic(wall), 81);
  for (int row = 0; row < 9; ++row)
    for (int column = 0; column < 9; ++column) {
      const BodyDesc& brick = *bodyNamed(wall, "brick_" + std::to_string(row) + "_" + std::to_string(column));
      const double bottom = brick.position.z() - halfExtents(brick).z();
      const double expectedBottom = row == 0 ? 0.0 : [&] {
        const BodyDesc& below = *bodyNamed(wall, "brick_" + std::to_string(row - 1) + "_0");
        return below.position.z() + halfExtents(below).z();
      }();
      EXPECT_NEAR(bottom, expectedBottom, 1e-12);
      if (column > 0) {
        const BodyDesc& left = *bodyNamed(wall, "brick_" + std::to_string(row) + "_" + std::to_string(column - 1));
        EXPECT_NEAR(brick.position.x() - left.position.x(), halfExtents(brick).x() + halfExtents(left).x(), 1e-12);
      }
    }
}

TEST(BuiltinScenes, NoWallBrickOverhangsItsSupport) {
  const Scene wall = buildBuiltinScene("wall", {}, 0);
  for (const BodyDesc& brick : wall.bodies) {
    if (brick.motion != MotionType::Dynamic || brick.position.z() - halfExtents(brick).z() < 1e-9) continue;
    // Some brick of the course below must hold this brick's centre of mass, with a real margin.
    bool supported = false;
    for (const BodyDesc& below : wall.bodies) {
      if (below.motion != MotionType::Dynamic) continue;
      const bool directlyBelow =
          std::abs(below.position.z() + halfExtents(below).z() - (brick.position.z() - halfExtents(brick).z())) < 1e-9;
      const double inside = halfExtents(below).x() - std::abs(brick.position.x() - below.position.x());
      supported = supported || (directlyBelow && inside >= 0.1 * halfExtents(below).x());
    }
    EXPECT_TRUE(supported) << brick.name;
  }
}

TEST(BuiltinScenes, TowerHas49BoxesEachBridgingTwoBelow) {
  const Scene tower = buildBuiltinScene("tower", {}, 0);
  EXPECT_EQ(countDynamic(tower), 49);
  for (const BodyDesc& box : tower.bodies) {
    if (box.motion != MotionType::Dynamic || box.position.z() - halfExtents(box).z() < 1e-9) continue;
    // Lowered by 5 mm, a box must cut into exactly two boxes of the layer below.
    BodyDesc lowered = box;
    lowered.position.z() -= 0.005;
    int supports = 0;
    for (const BodyDesc& other : tower.bodies)
      if (&other != &box && other.motion == MotionType::Dynamic && *overlapDepth(lowered, other) > 0.004) ++supports;
    EXPECT_EQ(supports, 2) << box.name;
  }
}

TEST(BuiltinScenes, PyramidRowsShrinkToOneBox) {
  const Scene pyramid = buildBuiltinScene("pyramid", {}, 0);
  EXPECT_EQ(countDynamic(pyramid), 20 * 21 / 2);
  EXPECT_EQ(countDynamic(buildBuiltinScene("pyramid", {{"rows", 3}}, 0)), 6);
  EXPECT_NEAR(bodyNamed(pyramid, "box_19_0")->position.z(), 19.5, 1e-12);
}

TEST(BuiltinScenes, SingleBodyScenesStartTouchingOrAtTheirHeight) {
  const Scene incline = buildBuiltinScene("incline", {{"angle_deg", 30}}, 0);
  EXPECT_NEAR(*overlapDepth(*bodyNamed(incline, "box"), *bodyNamed(incline, "slope")), 0.0, 1e-12);
  EXPECT_TRUE(bodyNamed(incline, "box")->orientation.isApprox(bodyNamed(incline, "slope")->orientation));
  EXPECT_DOUBLE_EQ(incline.friction.mu, 0.7);

  const Scene bounce = buildBuiltinScene("bounce", {{"height", 2}}, 0);
  const BodyDesc& dropped = *bodyNamed(bounce, "ball");
  EXPECT_DOUBLE_EQ(dropped.position.z() - std::get<SphereShape>(dropped.shape).radius, 2.0);
  EXPECT_EQ(dropped.material.restitution, 0.5);

  const Scene spin = buildBuiltinScene("spin", {}, 0);
  const BodyDesc& ball = *bodyNamed(spin, "ball");
  EXPECT_NEAR(*overlapDepth(ball, *bodyNamed(spin, "ground")), 0.0, 1e-12);
  EXPECT_EQ(ball.angularVelocity, Vec3(0, 0, 5));
  EXPECT_DOUBLE_EQ(spin.friction.muTorsion, 0.01);
}

TEST(BuiltinScenes, PileIsSeededAndStaysInsideItsContainer) {
  const Scene pile = buildBuiltinScene("pile", {{"count", 100}}, 3);
  EXPECT_EQ(countDynamic(pile), 100);
  EXPECT_EQ(sceneToJson(pile), sceneToJson(buildBuiltinScene("pile", {{"count", 100}}, 3)));
  EXPECT_NE(sceneToJson(pile), sceneToJson(buildBuiltinScene("pile", {{"count", 100}}, 4)));
  const double innerHalfWidth = bodyNamed(pile, "wall_x+")->position.x() - halfExtents(*bodyNamed(pile, "wall_x+")).x();
  for (const BodyDesc& body : pile.bodies) {
    if (body.motion != MotionType::Dynamic) continue;
    const double reach = boundingRadius(body.shape);
    EXPECT_LT(std::max(std::abs(body.position.x()), std::abs(body.position.y())) + reach, innerHalfWidth) << body.name;
    EXPECT_GT(body.position.z() - reach, 0.0) << body.name;
  }
}

TEST(BuiltinScenes, TruckDropsItsPiecesOntoABedThatMovesAndStops) {
  const Scene truck = buildBuiltinScene("truck", {}, 0);
  const BodyDesc& bed = *bodyNamed(truck, "truck");
  EXPECT_EQ(bed.motion, MotionType::Kinematic);
  ASSERT_EQ(bed.velocitySchedule.size(), 2u);
  EXPECT_EQ(bed.velocitySchedule[0].velocity, Vec3(2, 0, 0));
  EXPECT_DOUBLE_EQ(bed.velocitySchedule[1].time, 1.5);
  EXPECT_EQ(bed.velocitySchedule[1].velocity, Vec3::Zero());
  EXPECT_DOUBLE_EQ(truck.friction.mu, 0.4);  // the paper's
  EXPECT_EQ(countDynamic(truck), 6);
  for (const BodyDesc& body : truck.bodies) {
    if (body.motion != MotionType::Dynamic) continue;
    EXPECT_NEAR(-*overlapDepth(body, bed), 0.05, 1e-12) << body.name;  // drop_height above the bed
    EXPECT_EQ(body.velocity, Vec3::Zero()) << body.name;
  }
  EXPECT_EQ(countDynamic(buildBuiltinScene("truck", {{"pieces", 9}}, 0)), 9);
  EXPECT_NE(builtinSceneError("truck", {{"pieces", 10}}).find("pieces"), std::string::npos);
}

TEST(BuiltinScenes, BadNamesAndParametersAreNamed) {
  const std::string unknownParam = builtinSceneError("wall", {{"colour", 1}});
  EXPECT_NE(unknownParam.find("\"colour\""), std::string::npos) << unknownParam;
  EXPECT_NE(unknownParam.find("rows, columns"), std::string::npos) << unknownParam;
  EXPECT_NE(builtinSceneError("castle", {}).find("\"castle\""), std::string::npos);
  EXPECT_NE(builtinSceneError("wall", {{"rows", 2.5}}).find("rows"), std::string::npos);
  EXPECT_NE(builtinSceneError("pile", {{"count", 0}}).find("count"), std::string::npos);
  EXPECT_NE(builtinSceneError("tower", {{"per_layer", 2}}).find("per_layer"), std::string::npos);
  EXPECT_NE(builtinSceneError("bounce", {{"restitution", 2}}).find("restitution"), std::string::npos);
  EXPECT_NE(builtinSceneError("incline", {{"angle_deg", NAN}}).find("angle_deg"), std::string::npos);
}

}  // namespace
}  // namespace contactlab
