#include "geometry/shape_geometry.h"

#include <gtest/gtest.h>

#include <limits>

#include "contactlab/world.h"
#include "geometry/mesh_body_frame.h"
#include "geometry/procedural_meshes.h"

namespace contactlab {
namespace {

MeshShape boxMeshShape(const Vec3& halfExtents) {
  auto geometry = std::make_shared<MeshGeometry>(meshInBodyFrame(boxMesh(halfExtents), "box").geometry);
  geometry->source = "box";
  return MeshShape{geometry};
}

// A box mesh is the box: the same bounds at any pose, the same mass properties, the same radius.
TEST(ShapeGeometry, BoxMeshHasTheBoxShapesBoundsMassAndRadius) {
  const Vec3 half(0.3, 0.5, 0.9);
  const MeshShape mesh = boxMeshShape(half);
  const Pose pose{Vec3(1, -2, 3), Quat(Eigen::AngleAxisd(0.8, Vec3(1, 1, 0).normalized())).toRotationMatrix()};
  const Aabb fromMesh = shapeAabb(mesh, pose), fromBox = shapeAabb(BoxShape{half}, pose);
  EXPECT_TRUE(fromMesh.lower.isApprox(fromBox.lower, 1e-12));
  EXPECT_TRUE(fromMesh.upper.isApprox(fromBox.upper, 1e-12));
  const MassProperties meshMass = unitDensityMassProperties(mesh), boxMass = unitDensityMassProperties(BoxShape{half});
  EXPECT_NEAR(meshMass.volume, boxMass.volume, 1e-12);
  EXPECT_TRUE(meshMass.principalInertiaPerUnitDensity.isApprox(boxMass.principalInertiaPerUnitDensity, 1e-12));
  EXPECT_NEAR(boundingRadius(mesh), half.norm(), 1e-12);
  EXPECT_EQ(shapeKindName(kindOf(mesh)), std::string("mesh"));
}

// The bounds hold every vertex of the placed surface, and touch it on each side.
TEST(ShapeGeometry, MeshBoundsHoldTheTransformedVerticesTightly) {
  const MeshShape sphere{std::make_shared<MeshGeometry>(meshInBodyFrame(uvSphereMesh(0.5, 10, 5), "sphere").geometry)};
  const Pose pose{Vec3(4, 0, -1), Quat(Eigen::AngleAxisd(0.3, Vec3(0, 1, 0))).toRotationMatrix()};
  const Aabb box = shapeAabb(sphere, pose);
  Vec3 lower = Vec3::Constant(1e9), upper = Vec3::Constant(-1e9);
  for (const Vec3& v : sphere.geometry->surface.vertices) {
    const Vec3 world = pose.position + pose.rotation * v;
    lower = lower.cwiseMin(world);
    upper = upper.cwiseMax(world);
  }
  EXPECT_TRUE((box.lower.array() <= lower.array() + 1e-12).all());
  EXPECT_TRUE((box.upper.array() >= upper.array() - 1e-12).all());
  // Turning the body-frame box by 0.3 rad about y widens it along x and z by at most
  // cos 0.3 + sin 0.3 = 1.25 over the turned sphere's own extent.
  EXPECT_LT((box.upper - box.lower).maxCoeff(), (std::cos(0.3) + std::sin(0.3)) * (upper - lower).maxCoeff());
}

TEST(ShapeGeometry, MeshWithoutGeometryOrTetrahedraIsAProblem) {
  EXPECT_EQ(shapeProblem(MeshShape{}), "mesh has no geometry");
  EXPECT_EQ(shapeProblem(boxMeshShape(Vec3::Ones())), "mesh \"box\" has no tetrahedralization");
}

// A hand-built mesh (MeshGeometry is public) with a NaN vertex or an index out of range is a
// problem of the shape, so a World refuses it with a SceneError naming the body.
TEST(ShapeGeometry, HandBuiltMeshWithBadDataIsAProblemAndTheWorldRefusesIt) {
  auto tetrahedron = std::make_shared<MeshGeometry>();
  tetrahedron->source = "hand-made";
  tetrahedron->surface.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  tetrahedron->surface.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  tetrahedron->tetVertices = tetrahedron->surface.vertices;
  tetrahedron->tetrahedra = {{0, 1, 2, 3}};
  tetrahedron->volume = 1.0 / 6.0;
  tetrahedron->principalInertiaPerUnitDensity = Vec3::Constant(0.01);
  EXPECT_EQ(shapeProblem(MeshShape{tetrahedron}), "");

  auto withNaN = std::make_shared<MeshGeometry>(*tetrahedron);
  withNaN->surface.vertices[2].x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(shapeProblem(MeshShape{withNaN}), "mesh \"hand-made\": surface vertex 2 is not finite");
  auto outOfRange = std::make_shared<MeshGeometry>(*tetrahedron);
  outOfRange->tetrahedra[0][3] = 7;
  EXPECT_EQ(shapeProblem(MeshShape{outOfRange}), "mesh \"hand-made\": tetrahedron 0 names vertex 7 of 4");

  Scene scene;
  BodyDesc body;
  body.name = "odd";
  body.shape = MeshShape{withNaN};
  scene.bodies.push_back(body);
  try {
    World world(scene);
    FAIL() << "a mesh with a NaN vertex was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("body 0 (\"odd\"): mesh \"hand-made\": surface vertex 2 is not finite"),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace contactlab
