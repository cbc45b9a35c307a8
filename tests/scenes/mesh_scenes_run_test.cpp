// Issue 5's acceptance: every mesh scene runs without NaN, without tunnelling through the ground and
// without bodies leaving the container. Reduced counts in narrow containers keep each run within a
// few seconds and still make the bodies land on each other and on the walls; the default scenes'
// 1000-step runs are timed in docs/benchmarks.md.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "contactlab/world.h"
#include "geometry/shape_geometry.h"

namespace contactlab {
namespace {

struct ReducedScene {
  const char* name;
  SceneParams params;
  int steps;
};

// How far a body may sink into the ground or a wall before it counts as gone through: well under
// the thinnest body (a 0.04 m jack arm at the funnel's scale 0.4), far above a resting contact's
// penetration.
constexpr double kDeepestAllowed = 0.02;

// The body's exact box: a mesh's turned vertices (shapeAabb turns the body-frame box, which reaches
// beyond the surface), the primitives' own boxes.
Aabb exactBox(const Body& body) {
  const Pose pose{body.position, body.orientation.toRotationMatrix()};
  const auto* mesh = std::get_if<MeshShape>(&body.shape);
  if (!mesh) return shapeAabb(body.shape, pose);
  Aabb box{Vec3::Constant(INFINITY), Vec3::Constant(-INFINITY)};
  for (const Vec3& vertex : mesh->geometry->surface.vertices) {
    const Vec3 world = pose.position + pose.rotation * vertex;
    box.lower = box.lower.cwiseMin(world);
    box.upper = box.upper.cwiseMax(world);
  }
  return box;
}

TEST(MeshScenesRun, ReducedScenesStayFiniteAboveTheGroundAndInTheirContainers) {
  const ReducedScene scenes[] = {
      {"jacks", {{"count", 8}, {"width", 1.7}}, 120},
      {"funnel", {{"count", 6}, {"spout_spans", 2}, {"spout_height", 1}}, 120},
      {"spheres", {{"count", 40}}, 120},
      {"chess", {{"count", 8}, {"width", 1.2}}, 80},
      {"bunnies-rigid", {{"count", 4}, {"width", 1.2}}, 100},
  };
  for (const ReducedScene& s : scenes) {
    SCOPED_TRACE(s.name);
    const Scene scene = buildBuiltinScene(s.name, s.params, 5);
    // The container's inside: the walls, else the glass's rim, else the ground's edge.
    double halfWidth = INFINITY;
    for (const BodyDesc& body : scene.bodies) {
      if (body.name == "wall_x+") halfWidth = body.position.x() - std::get<BoxShape>(body.shape).halfExtents.x();
      if (body.name == "glass") halfWidth = std::get<MeshShape>(body.shape).geometry->boundsUpper.x();
    }
    for (const BodyDesc& body : scene.bodies)
      if (body.name == "ground" && std::isinf(halfWidth)) halfWidth = std::get<BoxShape>(body.shape).halfExtents.x();
    World world(scene, WorldSettings{});
    for (int step = 0; step < s.steps; ++step) {
      world.step();
      for (const Body& body : world.bodies()) {
        if (body.motion != MotionType::Dynamic) continue;
        ASSERT_TRUE(body.position.allFinite() && body.orientation.coeffs().allFinite()) << body.name << " step " << step;
        const Aabb box = exactBox(body);
        ASSERT_GT(box.lower.z(), -kDeepestAllowed) << body.name << " below the ground at step " << step;
        ASSERT_LT(box.lower.head<2>().cwiseAbs().cwiseMax(box.upper.head<2>().cwiseAbs()).maxCoeff(),
                  halfWidth + kDeepestAllowed)
            << body.name << " left the container at step " << step;
      }
    }
  }
}

}  // namespace
}  // namespace contactlab
