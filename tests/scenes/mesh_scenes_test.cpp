// The built-in mesh scenes (jacks, funnel, spheres, chess, bunnies-rigid): their default counts and
// friction, and that every body starts clear of every other and inside its container's footprint.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "contactlab/scene.h"
#include "geometry/shape_geometry.h"
#include "support/test_scenes.h"

namespace contactlab {
namespace {

struct MeshScene {
  const char* name;
  int defaultCount;
};
// The counts of issue 5 (the PROX and FFD-ID papers' scenes).
constexpr MeshScene kMeshScenes[] = {
    {"jacks", 362}, {"funnel", 2002}, {"spheres", 1700}, {"chess", 320}, {"bunnies-rigid", 120}};

using test::bodyNamed;
using test::builtinSceneError;

std::vector<const BodyDesc*> dynamicBodies(const Scene& scene) {
  std::vector<const BodyDesc*> bodies;
  for (const BodyDesc& body : scene.bodies)
    if (body.motion == MotionType::Dynamic) bodies.push_back(&body);
  return bodies;
}

// Closest point to p on triangle abc (Ericson, Real-Time Collision Detection, 5.1.5).
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denominator = 1.0 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

// Winding number of a closed oriented surface round p: 1 inside, 0 outside (sum of the triangles'
// solid angles over 4 pi, Van Oosterom and Strackee's formula).
double windingNumber(const TriangleMesh& mesh, const Vec3& p) {
  double solidAngle = 0.0;
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.vertices[t[0]] - p, b = mesh.vertices[t[1]] - p, c = mesh.vertices[t[2]] - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    solidAngle += 2.0 * std::atan2(a.dot(b.cross(c)), la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la);
  }
  return solidAngle / (4.0 * std::numbers::pi);
}

// Signed distance from the world point p to a mesh body's solid: negative inside.
double signedDistanceToMesh(const BodyDesc& meshBody, const Vec3& p) {
  const MeshGeometry& mesh = *std::get<MeshShape>(meshBody.shape).geometry;
  const Vec3 local = meshBody.orientation.conjugate() * (p - meshBody.position);
  double distance = INFINITY;
  for (const auto& t : mesh.surface.triangles)
    distance = std::min(distance, (local - closestPointOnTriangle(local, mesh.surface.vertices[t[0]],
                                                                  mesh.surface.vertices[t[1]],
                                                                  mesh.surface.vertices[t[2]])).norm());
  return windingNumber(mesh.surface, local) > 0.5 ? -distance : distance;
}

// Distance from the world point p to a box body's solid (zero inside).
double distanceToBox(const BodyDesc& box, const Vec3& p) {
  const Vec3 half = std::get<BoxShape>(box.shape).halfExtents;
  const Vec3 local = box.orientation.conjugate() * (p - box.position);
  return (local - local.cwiseMax(-half).cwiseMin(half)).norm();
}

TEST(MeshScenes, DefaultCountsAndThePaperFriction) {
  for (const MeshScene& s : kMeshScenes) {
    SCOPED_TRACE(s.name);
    const SceneEntry* entry = findBuiltinScene(s.name);
    ASSERT_NE(entry, nullptr);
    const Scene scene = buildBuiltinScene(s.name, {}, 1);
    EXPECT_EQ(dynamicBodies(scene).size(), static_cast<std::size_t>(s.defaultCount));
    EXPECT_DOUBLE_EQ(scene.friction.mu, 0.75);
    EXPECT_DOUBLE_EQ(scene.friction.muTorsion, 0.01);
    for (const BodyDesc& body : scene.bodies) EXPECT_EQ(shapeProblem(body.shape), "") << body.name;
  }
}

TEST(MeshScenes, BodiesShareOneGeometryPerMesh) {
  const Scene chess = buildBuiltinScene("chess", {}, 1);
  std::vector<const MeshGeometry*> distinct;
  for (const BodyDesc* body : dynamicBodies(chess)) distinct.push_back(std::get<MeshShape>(body->shape).geometry.get());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  EXPECT_EQ(distinct.size(), 6u);  // pawn, rook, knight, bishop, queen, king
}

// No two bodies overlap at the start: the moving bodies' bounding balls are disjoint from each
// other's, from every static box and from every static mesh's solid.
TEST(MeshScenes, NothingOverlapsAtTheStart) {
  for (const MeshScene& s : kMeshScenes) {
    SCOPED_TRACE(s.name);
    const Scene scene = buildBuiltinScene(s.name, {}, 7);
    const std::vector<const BodyDesc*> moving = dynamicBodies(scene);
    for (std::size_t i = 0; i < moving.size(); ++i)
      for (std::size_t j = i + 1; j < moving.size(); ++j) {
        const double gap = (moving[i]->position - moving[j]->position).norm() - boundingRadius(moving[i]->shape) -
                           boundingRadius(moving[j]->shape);
        ASSERT_GT(gap, 0.0) << moving[i]->name << " and " << moving[j]->name;
      }
    for (const BodyDesc& fixed : scene.bodies) {
      if (fixed.motion != MotionType::Static) continue;
      for (const BodyDesc* body : moving) {
        const double reach = boundingRadius(body->shape);
        if ((body->position - fixed.position).norm() > reach + boundingRadius(fixed.shape)) continue;
        const double gap = std::holds_alternative<MeshShape>(fixed.shape)
                               ? signedDistanceToMesh(fixed, body->position) - reach
                               : distanceToBox(fixed, body->position) - reach;
        ASSERT_GT(gap, 0.0) << body->name << " and " << fixed.name;
      }
    }
  }
}

// Every moving body starts above the ground and, in the scenes with walls, between them; the
// funnel's and the glass's rims hold every body's footprint.
TEST(MeshScenes, ContainersHoldTheBodiesFootprints) {
  for (const MeshScene& s : kMeshScenes) {
    SCOPED_TRACE(s.name);
    const Scene scene = buildBuiltinScene(s.name, {}, 7);
    const BodyDesc& ground = *bodyNamed(scene, "ground");
    const Vec3 groundHalf = std::get<BoxShape>(ground.shape).halfExtents;
    EXPECT_NEAR(ground.position.z() + groundHalf.z(), 0.0, 1e-12);
    const BodyDesc* wall = bodyNamed(scene, "wall_x+");
    const double innerHalfWidth =
        wall ? wall->position.x() - std::get<BoxShape>(wall->shape).halfExtents.x() : groundHalf.x();
    const BodyDesc* rimmed = bodyNamed(scene, "funnel") ? bodyNamed(scene, "funnel") : bodyNamed(scene, "glass");
    for (const BodyDesc* body : dynamicBodies(scene)) {
      const double reach = boundingRadius(body->shape);
      EXPECT_GT(body->position.z() - reach, 0.0) << body->name;
      EXPECT_LE(body->position.head<2>().cwiseAbs().maxCoeff() + reach, innerHalfWidth) << body->name;
      if (wall && !rimmed) {  // the funnel's column starts above the funnel and rises far above the walls
        EXPECT_LE(body->position.z() + reach, 2.0 * wall->position.z()) << body->name << " above the walls";
      }
      if (rimmed) {
        const double rimRadius = std::get<MeshShape>(rimmed->shape).geometry->boundsUpper.x();
        EXPECT_LE(body->position.head<2>().norm() + reach, rimRadius) << body->name;
      }
    }
  }
}

TEST(MeshScenes, TheGlassHoldsTheSpheresAndTheFunnelSitsOverItsContainer) {
  const Scene spheres = buildBuiltinScene("spheres", {{"count", 300}}, 2);
  const BodyDesc& glass = *bodyNamed(spheres, "glass");
  const MeshGeometry& cup = *std::get<MeshShape>(glass.shape).geometry;
  const double base = glass.position.z() + cup.boundsLower.z();
  EXPECT_NEAR(base, 0.0, 1e-12);  // standing on the ground
  for (const BodyDesc* sphere : dynamicBodies(spheres)) {
    // Straight below every sphere, just above the glass's bottom, is the glass's base: it falls in.
    const Vec3 below(sphere->position.x(), sphere->position.y(), base + 0.01 * (cup.boundsUpper.z() - cup.boundsLower.z()));
    EXPECT_LT(signedDistanceToMesh(glass, below), 0.0) << sphere->name;
  }

  const Scene funnel = buildBuiltinScene("funnel", {{"count", 50}, {"spout_height", 2}}, 2);
  const BodyDesc& hopper = *bodyNamed(funnel, "funnel");
  const MeshGeometry& cone = *std::get<MeshShape>(hopper.shape).geometry;
  EXPECT_NEAR(hopper.position.z() + cone.boundsLower.z(), 2.0, 1e-12);  // the spout ends at spout_height
  const BodyDesc& wall = *bodyNamed(funnel, "wall_x+");
  EXPECT_LT(cone.boundsUpper.x(), wall.position.x() - std::get<BoxShape>(wall.shape).halfExtents.x());
  // Walls up to 3 jack spans (scale 0.4) above the rim, so that bodies spilling over it stay inside.
  const double rim = hopper.position.z() + cone.boundsUpper.z();
  EXPECT_NEAR(wall.position.z() * 2.0, rim + 3.0 * 0.4, 1e-12);
}

TEST(MeshScenes, SeedsAndParametersChangeTheScene) {
  const SceneParams few{{"count", 20}};
  EXPECT_EQ(sceneToJson(buildBuiltinScene("jacks", few, 3)), sceneToJson(buildBuiltinScene("jacks", few, 3)));
  EXPECT_NE(sceneToJson(buildBuiltinScene("jacks", few, 3)), sceneToJson(buildBuiltinScene("jacks", few, 4)));
  const Scene mixed = buildBuiltinScene("funnel", {{"count", 8}, {"mixed", 1}}, 1);
  for (const char* name : {"jack_0", "ring_1", "sphere_2", "box_3", "jack_4"})
    EXPECT_NE(bodyNamed(mixed, name), nullptr) << name;
  for (const BodyDesc* body : dynamicBodies(mixed)) EXPECT_EQ(body->mass, 35.0);
  // A larger funnel spout (in jack sizes) is a larger funnel.
  const auto funnelRadius = [](double spans) {
    const Scene scene = buildBuiltinScene("funnel", {{"count", 1}, {"spout_spans", spans}}, 1);
    return std::get<MeshShape>(bodyNamed(scene, "funnel")->shape).geometry->boundsUpper.x();
  };
  EXPECT_NEAR(funnelRadius(4) / funnelRadius(2), 2.0, 1e-9);
}

TEST(MeshScenes, BadParametersAreNamed) {
  EXPECT_NE(builtinSceneError("funnel", {{"mixed", 2}}).find("mixed"), std::string::npos);
  EXPECT_NE(builtinSceneError("spheres", {{"fill", 0.9}}).find("fill"), std::string::npos);
  const std::string tooNarrow = builtinSceneError("jacks", {{"width", 0.3}});
  EXPECT_NE(tooNarrow.find("scene jacks"), std::string::npos) << tooNarrow;
  EXPECT_NE(tooNarrow.find("do not fit"), std::string::npos) << tooNarrow;
}

}  // namespace
}  // namespace contactlab
