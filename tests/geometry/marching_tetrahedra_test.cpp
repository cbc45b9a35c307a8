#include "geometry/marching_tetrahedra.h"

#include <gtest/gtest.h>

#include <numbers>

#include "geometry/mesh_mass_properties.h"

namespace contactlab {
namespace {

// A ball's signed distance: every vertex lies on the sphere (bisection) or within 5 % of a grid edge
// (0.05 x 0.03 sqrt 3 < 3e-3) of it, the surface is closed and oriented, and its volume is within
// 2 % of 4/3 pi r^3 at a tenth of the radius per cell.
TEST(MarchingTetrahedra, BallGivesAClosedSurfaceOnTheSphere) {
  const double radius = 0.3;
  const Vec3 centre(0.01, -0.02, 0.03);
  const auto ball = [&](const Vec3& p) { return (p - centre).norm() - radius; };
  const TriangleMesh mesh = marchingTetrahedra(ball, Vec3::Constant(-0.4), Vec3::Constant(0.4), 0.03);
  ASSERT_NO_THROW(requireClosedOrientedSurface(mesh, "ball"));
  for (const Vec3& v : mesh.vertices) EXPECT_NEAR((v - centre).norm(), radius, 3e-3);
  const MeshMassProperties mass = integrateMassProperties(mesh);
  EXPECT_NEAR(mass.volume / (4.0 / 3.0 * std::numbers::pi * radius * radius * radius), 1.0, 0.02);
  EXPECT_LT((mass.centreOfMass - centre).norm(), 1e-3);
}

}  // namespace
}  // namespace contactlab
