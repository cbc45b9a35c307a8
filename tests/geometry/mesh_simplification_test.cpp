#include "geometry/mesh_simplification.h"

#include <gtest/gtest.h>

#include <algorithm>

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

double longestEdge(const TriangleMesh& mesh) {
  double longest = 0.0;
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) longest = std::max(longest, (mesh.vertices[t[k]] - mesh.vertices[t[(k + 1) % 3]]).norm());
  return longest;
}

// A cigar (a sphere stretched five times along x) is nearly flat along its length, where quadric
// error alone lays long slivers; with the length bound every edge stays within it (the collapses
// stop short of the target where none can go), the surface stays closed and the volume within 3 %.
TEST(MeshSimplification, EdgeLengthBoundKeepsEveryEdgeWithinIt) {
  TriangleMesh cigar = uvSphereMesh(0.1, 64, 32);
  for (Vec3& v : cigar.vertices) v.x() *= 5.0;
  const double bound = 0.08;
  EXPECT_GT(longestEdge(simplifyMesh(cigar, 400)), bound);
  const TriangleMesh bounded = simplifyMesh(cigar, 400, bound);
  EXPECT_LE(longestEdge(bounded), bound);
  EXPECT_LT(bounded.triangles.size(), cigar.triangles.size() / 4);  // it stops short of 400 where no edge can go
  ASSERT_NO_THROW(requireClosedOrientedSurface(bounded, "bounded cigar"));
  EXPECT_NEAR(integrateMassProperties(bounded).volume / integrateMassProperties(cigar).volume, 1.0, 0.03);
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
