#include "geometry/mesh_simplification.h"

#include <gtest/gtest.h>

#include "geometry/mesh_mass_properties.h"
#include "geometry/procedural_meshes.h"

namespace contactlab {
namespace {

// A 4032-triangle sphere brought to 400: still closed and oriented, its vertices still on the
// sphere to 2 % of the radius, its volume within 3 % of the original's.
TEST(MeshSimplification, SphereKeepsItsShapeWithATenthOfItsTriangles) {
  const double radius = 0.5;
  const TriangleMesh fine = uvSphereMesh(radius, 64, 32);
  const TriangleMesh coarse = simplifyMesh(fine, 400);
  EXPECT_LE(coarse.triangles.size(), 400u);
  EXPECT_GE(coarse.triangles.size(), 380u);
  ASSERT_NO_THROW(requireClosedOrientedSurface(coarse, "coarse sphere"));
  for (const Vec3& v : coarse.vertices) EXPECT_NEAR(v.norm(), radius, 0.02 * radius);
  EXPECT_NEAR(integrateMassProperties(coarse).volume / integrateMassProperties(fine).volume, 1.0, 0.03);
}

// A box's 12 triangles are already the fewest that hold its shape: collapsing any edge moves a
// corner off the box, so nothing below a tetrahedron is ever produced.
TEST(MeshSimplification, NeverGoesBelowATetrahedron) {
  const TriangleMesh box = simplifyMesh(boxMesh(Vec3::Ones()), 0);
  EXPECT_GE(box.triangles.size(), 4u);
  EXPECT_NO_THROW(requireClosedOrientedSurface(box, "box"));
}

}  // namespace
}  // namespace contactlab
