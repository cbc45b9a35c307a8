#include "geometry/tet_mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "geometry/mesh_mass_properties.h"

namespace contactlab {
namespace {

double tetVolume(const TetMesh& mesh, const std::array<int, 4>& tet) {
  const Vec3& a = mesh.vertices[tet[0]];
  return (mesh.vertices[tet[1]] - a).dot((mesh.vertices[tet[2]] - a).cross(mesh.vertices[tet[3]] - a)) / 6.0;
}

// Sum over the boundary's triangles of the signed volume of (origin, a, b, c): the enclosed volume
// when the triangles are closed and face outwards (divergence theorem), minus it when inwards.
double enclosedVolume(const TetMesh& mesh, const TetBoundary& boundary) {
  double volume = 0.0;
  for (const auto& [a, b, c] : boundary.triangles)
    volume += mesh.vertices[a].dot(mesh.vertices[b].cross(mesh.vertices[c])) / 6.0;
  return volume;
}

std::string errorOf(const TetMesh& mesh) {
  try {
    extractBoundary(mesh, "beam.tets");
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no error";
}

TetMesh singleTet() {
  return {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 2, 3}}};
}

TEST(TetMesh, SingleTetrahedronIsItsOwnBoundary) {
  const TetMesh mesh = singleTet();
  const TetBoundary boundary = extractBoundary(mesh, "tet");
  ASSERT_EQ(boundary.triangles.size(), 4u);
  EXPECT_EQ(boundary.vertices, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(boundary.edges, (std::vector<std::array<int, 2>>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
  EXPECT_NEAR(enclosedVolume(mesh, boundary), 1.0 / 6.0, 1e-15);
  // Each face's normal points away from the vertex it leaves out.
  for (const auto& [a, b, c] : boundary.triangles) {
    const int opposite = 6 - a - b - c;
    const Vec3 normal = (mesh.vertices[b] - mesh.vertices[a]).cross(mesh.vertices[c] - mesh.vertices[a]);
    EXPECT_LT(normal.dot(mesh.vertices[opposite] - mesh.vertices[a]), 0.0);
  }
}

// Two tetrahedra glued on the face (1, 2, 3): that face is inside, the other six are the boundary.
TEST(TetMesh, SharedFaceIsNotBoundary) {
  TetMesh mesh = singleTet();
  mesh.vertices.push_back({1, 1, 1});
  mesh.tetrahedra.push_back({1, 4, 2, 3});
  ASSERT_GT(tetVolume(mesh, mesh.tetrahedra[1]), 0.0);
  const TetBoundary boundary = extractBoundary(mesh, "pair");
  EXPECT_EQ(boundary.triangles.size(), 6u);
  EXPECT_EQ(boundary.edges.size(), 9u);
  EXPECT_EQ(boundary.vertices, (std::vector<int>{0, 1, 2, 3, 4}));
  for (auto tri : boundary.triangles) {
    std::sort(tri.begin(), tri.end());
    EXPECT_NE(tri, (std::array<int, 3>{1, 2, 3}));
  }
  EXPECT_NEAR(enclosedVolume(mesh, boundary), tetVolume(mesh, mesh.tetrahedra[0]) + tetVolume(mesh, mesh.tetrahedra[1]),
              1e-15);
}

class TetMeshBox : public testing::TestWithParam<std::array<int, 3>> {};

TEST_P(TetMeshBox, FillsTheBoxWithPositiveTetrahedra) {
  const auto [nx, ny, nz] = GetParam();
  const Vec3 size(0.4, 0.1, 0.25);
  const TetMesh mesh = boxTetMesh(size, nx, ny, nz);
  EXPECT_EQ(mesh.vertices.size(), static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  EXPECT_EQ(mesh.tetrahedra.size(), static_cast<std::size_t>(6 * nx * ny * nz));
  double volume = 0.0;
  for (const auto& tet : mesh.tetrahedra) {
    const double v = tetVolume(mesh, tet);
    EXPECT_NEAR(v, size.prod() / (6.0 * nx * ny * nz), 1e-15);  // Kuhn's six are congruent in volume
    volume += v;
  }
  EXPECT_NEAR(volume, size.prod(), 1e-15);
  Vec3 lower = mesh.vertices.front(), upper = mesh.vertices.front();
  for (const Vec3& v : mesh.vertices) lower = lower.cwiseMin(v), upper = upper.cwiseMax(v);
  EXPECT_EQ(lower, -0.5 * size);
  EXPECT_EQ(upper, 0.5 * size);
}

// Faces match between cells, so only the box's own faces are boundary: 2 triangles per cell face on
// the box's surface. The boundary is closed and oriented (every edge in two triangles, run once each
// way) and faces outwards (it encloses +volume).
TEST_P(TetMeshBox, BoundaryIsTheClosedOutwardBoxSurface) {
  const auto [nx, ny, nz] = GetParam();
  const Vec3 size(0.4, 0.1, 0.25);
  const TetMesh mesh = boxTetMesh(size, nx, ny, nz);
  const TetBoundary boundary = extractBoundary(mesh, "box");
  EXPECT_EQ(boundary.triangles.size(), static_cast<std::size_t>(4 * (nx * ny + ny * nz + nz * nx)));
  const TriangleMesh surface{mesh.vertices, boundary.triangles};
  EXPECT_NO_THROW(requireClosedOrientedSurface(surface, "box boundary"));
  std::map<std::array<int, 2>, int> edgeUses;
  for (const auto& tri : boundary.triangles)
    for (int k = 0; k < 3; ++k) ++edgeUses[{std::min(tri[k], tri[(k + 1) % 3]), std::max(tri[k], tri[(k + 1) % 3])}];
  for (const auto& [edge, uses] : edgeUses) EXPECT_EQ(uses, 2) << edge[0] << "-" << edge[1];
  EXPECT_NEAR(enclosedVolume(mesh, boundary), size.prod(), 1e-15);

  // Edges: unique, ascending within and between; vertices: exactly those on the box's faces.
  EXPECT_EQ(boundary.edges.size(), edgeUses.size());
  EXPECT_TRUE(std::is_sorted(boundary.edges.begin(), boundary.edges.end()));
  for (const auto& [a, b] : boundary.edges) EXPECT_LT(a, b);
  EXPECT_TRUE(std::adjacent_find(boundary.edges.begin(), boundary.edges.end()) == boundary.edges.end());
  const int interior = std::max(nx - 1, 0) * std::max(ny - 1, 0) * std::max(nz - 1, 0);
  EXPECT_EQ(boundary.vertices.size(), mesh.vertices.size() - interior);
  EXPECT_TRUE(std::is_sorted(boundary.vertices.begin(), boundary.vertices.end()));
  for (const int v : boundary.vertices)
    EXPECT_TRUE((mesh.vertices[v].cwiseAbs() - 0.5 * size).cwiseAbs().minCoeff() == 0.0) << v;
}

INSTANTIATE_TEST_SUITE_P(TetMeshDivisions, TetMeshBox,
                         testing::Values(std::array{1, 1, 1}, std::array{2, 1, 1}, std::array{3, 2, 4},
                                         std::array{5, 5, 5}));

TEST(TetMesh, BoundaryErrorsNameTheSourceAndTheProblem) {
  TetMesh outOfRange = singleTet();
  outOfRange.tetrahedra[0][2] = 7;
  EXPECT_EQ(errorOf(outOfRange), "beam.tets: tetrahedron 0 uses vertex 7, out of range [0, 4)");

  TetMesh negative = singleTet();
  std::swap(negative.tetrahedra[0][2], negative.tetrahedra[0][3]);
  EXPECT_EQ(errorOf(negative).rfind("beam.tets: tetrahedron 0 is not positively oriented", 0), 0u) << errorOf(negative);

  TetMesh flat = singleTet();
  flat.vertices[3] = {0.5, 0.5, 0.0};
  EXPECT_NE(errorOf(flat).find("tetrahedron 0 is not positively oriented"), std::string::npos) << errorOf(flat);

  // Three tetrahedra on the face (0, 1, 2): the first above it, two below.
  TetMesh fan = singleTet();
  fan.vertices.push_back({0.2, 0.2, -1});
  fan.vertices.push_back({0.3, 0.1, -2});
  fan.tetrahedra.push_back({0, 2, 1, 4});
  fan.tetrahedra.push_back({0, 2, 1, 5});
  EXPECT_EQ(errorOf(fan).rfind("beam.tets: face (0, 1, 2) is shared by 3 tetrahedra (0, 1, 2, ...)", 0), 0u)
      << errorOf(fan);

  // Two tetrahedra on the same side of (0, 1, 2).
  TetMesh overlap = singleTet();
  overlap.vertices.push_back({0.1, 0.1, 2});
  overlap.tetrahedra.push_back({0, 1, 2, 4});
  EXPECT_EQ(errorOf(overlap), "beam.tets: tetrahedra 0 and 1 lie on the same side of their shared face (0, 1, 2) (they overlap)");
}

TEST(TetMesh, BoxRejectsBadDivisionsAndSizes) {
  EXPECT_THROW(boxTetMesh(Vec3(1, 1, 1), 0, 1, 1), std::invalid_argument);
  EXPECT_THROW(boxTetMesh(Vec3(1, 1, 1), 1, -2, 1), std::invalid_argument);
  EXPECT_THROW(boxTetMesh(Vec3(1, 0, 1), 1, 1, 1), std::invalid_argument);
  EXPECT_THROW(boxTetMesh(Vec3(1, 1, std::nan("")), 1, 1, 1), std::invalid_argument);
  try {
    boxTetMesh(Vec3(1, 1, 1), 2, 0, 3);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 x 0 x 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace contactlab
