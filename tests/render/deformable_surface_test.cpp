#include "contactlab/render/deformable_surface.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>
#include <vector>

#include "support/test_scenes.h"

namespace contactlab::render {
namespace {

// The cube [-1, 1]^3 as a tetrahedral mesh's boundary: its 8 corners (node i has coordinate bits
// x = i & 1, y = i & 2, z = i & 4), each face split into two triangles counter-clockwise from
// outside, and a 9th node at the centre that no boundary triangle uses.
struct CubeMesh {
  std::vector<Vec3> positions;
  std::vector<Vec3> velocities;
  std::vector<std::array<int, 3>> surface;
  CubeMesh() {
    for (int i = 0; i < 8; ++i) positions.emplace_back(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    positions.push_back(Vec3::Zero());
    velocities.assign(positions.size(), Vec3::Zero());
    // Quads a, b, c, d counter-clockwise from outside, split along a-c: corners a and c touch two
    // triangles of the face, b and d one.
    const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) {
      surface.push_back({f[0], f[1], f[2]});
      surface.push_back({f[0], f[2], f[3]});
    }
  }
  DeformableMeshView view() const { return {0, positions, velocities, {}, surface}; }
};

Vec3 vertexPosition(const DeformableSurface& s, int v) { return Vec3(s.vertices[6 * v], s.vertices[6 * v + 1], s.vertices[6 * v + 2]); }
Vec3 vertexNormal(const DeformableSurface& s, int v) {
  return Vec3(s.vertices[6 * v + 3], s.vertices[6 * v + 4], s.vertices[6 * v + 5]);
}

TEST(DeformableSurface, OneVertexPerSurfaceNodeWithTheMeanNormalOfItsCorners) {
  const CubeMesh cube;
  DeformableSurface surface;
  ASSERT_TRUE(buildDeformableSurface(cube.view(), surface));
  EXPECT_EQ(surface.vertexCount(), 8) << "the interior node is left out";
  ASSERT_EQ(surface.indices.size(), 3 * cube.surface.size());
  for (const std::uint32_t index : surface.indices) EXPECT_LT(index, 8u);
  std::set<std::uint32_t> used(surface.indices.begin(), surface.indices.end());
  EXPECT_EQ(used.size(), 8u);
  // Each triangle keeps its nodes and its winding.
  for (std::size_t t = 0; t < cube.surface.size(); ++t)
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(vertexPosition(surface, static_cast<int>(surface.indices[3 * t + k])), cube.positions[cube.surface[t][k]]);
  // Every corner meets three faces at right angles, however each face was split: its normal is the
  // diagonal. (Weighting by area or by triangle count would tilt it towards the faces split at it.)
  for (int v = 0; v < 8; ++v) {
    const Vec3 p = vertexPosition(surface, v);
    EXPECT_NEAR(vertexNormal(surface, v).norm(), 1.0, 1e-6);
    EXPECT_TRUE(vertexNormal(surface, v).isApprox(p / std::sqrt(3.0), 1e-6)) << vertexNormal(surface, v).transpose();
  }
  EXPECT_EQ(surface.bounds.lower, Vec3::Constant(-1));
  EXPECT_EQ(surface.bounds.upper, Vec3::Constant(1));
  // Each vertex names its node, for per-node values such as stress.
  ASSERT_EQ(surface.nodes.size(), 8u);
  for (int v = 0; v < 8; ++v) EXPECT_EQ(vertexPosition(surface, v), cube.positions[surface.nodes[v]]) << v;
}

TEST(DeformableSurface, FollowsTheNodesAndReusesItsStorage) {
  CubeMesh cube;
  DeformableSurface surface;
  ASSERT_TRUE(buildDeformableSurface(cube.view(), surface));
  // Squash the top down to z = 0: the surface moves with the nodes, normals stay outward.
  for (Vec3& p : cube.positions)
    if (p.z() > 0.5) p.z() = 0.0;
  ASSERT_TRUE(buildDeformableSurface(cube.view(), surface));
  EXPECT_EQ(surface.vertexCount(), 8);
  EXPECT_EQ(surface.indices.size(), 36u);
  EXPECT_DOUBLE_EQ(surface.bounds.upper.z(), 0.0);
  const Vec3 centre(0, 0, -0.5);
  for (int v = 0; v < 8; ++v) EXPECT_GT(vertexNormal(surface, v).dot(vertexPosition(surface, v) - centre), 0.0);
}

TEST(DeformableSurface, NonFiniteSurfaceNodesDrawNothingButAnInteriorOneDoesNotMatter) {
  CubeMesh cube;
  DeformableSurface surface;
  cube.positions[8].x() = std::nan("");  // the interior node
  EXPECT_TRUE(buildDeformableSurface(cube.view(), surface));
  cube.positions[3].y() = INFINITY;
  EXPECT_FALSE(buildDeformableSurface(cube.view(), surface));
  EXPECT_TRUE(surface.vertices.empty());
  EXPECT_TRUE(surface.indices.empty());
  EXPECT_TRUE(surface.nodes.empty());
}

TEST(DeformableSurface, AWorldsDeformableBoxHasOutwardUnitNormalsOnItsSurfaceNodes) {
  const Scene scene = contactlab::test::softBoxOnSlab(Vec3(0.1, 0.2, 0.1), Vec3(0, 0, 0.3));
  const World world(scene);
  ASSERT_EQ(world.deformableBodyCount(), 1);
  const DeformableMeshView mesh = world.deformableBody(0);
  std::set<int> surfaceNodes;
  for (const auto& triangle : mesh.surface) surfaceNodes.insert(triangle.begin(), triangle.end());
  DeformableSurface surface;
  ASSERT_TRUE(buildDeformableSurface(mesh, surface));
  EXPECT_EQ(surface.vertexCount(), static_cast<int>(surfaceNodes.size()));
  EXPECT_EQ(surface.indices.size(), 3 * mesh.surface.size());
  for (int v = 0; v < surface.vertexCount(); ++v) {
    const Vec3 n = vertexNormal(surface, v);
    EXPECT_NEAR(n.norm(), 1.0, 1e-6);
    EXPECT_GT(n.dot(vertexPosition(surface, v) - Vec3(0, 0, 0.3)), 0.0) << "vertex " << v;
  }
  EXPECT_TRUE(surface.bounds.lower.isApprox(Vec3(-0.1, -0.2, 0.2), 1e-6)) << surface.bounds.lower.transpose();
  EXPECT_TRUE(surface.bounds.upper.isApprox(Vec3(0.1, 0.2, 0.4), 1e-6)) << surface.bounds.upper.transpose();
}

}  // namespace
}  // namespace contactlab::render
