#include "geometry/ring_mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>
#include <tuple>

#include "geometry/mesh_mass_properties.h"

namespace contactlab {
// The tests' helpers, in a namespace of their own: the test binary is a unity build too.
namespace ring_mesh_test {
namespace {

constexpr double kPi = std::numbers::pi;

double tetVolume(const TetMesh& mesh, const std::array<int, 4>& tet) {
  const Vec3& a = mesh.vertices[tet[0]];
  return (mesh.vertices[tet[1]] - a).dot((mesh.vertices[tet[2]] - a).cross(mesh.vertices[tet[3]] - a)) / 6.0;
}

// The ring of n straight segments: n trapezoids between the radii R - w and R + w (each the
// difference of two isosceles triangles, ((R + w)^2 - (R - w)^2) sin(2 pi / n) / 2 = 2 R w sin(2 pi / n)),
// 2 w thick.
double polygonalRingVolume(double majorRadius, double halfWidth, int segments) {
  return segments * 2.0 * majorRadius * halfWidth * std::sin(2.0 * kPi / segments) * 2.0 * halfWidth;
}

// Each face of every tetrahedron (its vertices sorted) and how many tetrahedra hold it.
std::map<std::array<int, 3>, int> faceUses(const TetMesh& mesh) {
  std::map<std::array<int, 3>, int> uses;
  for (const auto& tet : mesh.tetrahedra)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> face;
      for (int k = 0, j = 0; k < 4; ++k)
        if (k != skip) face[j++] = tet[k];
      std::sort(face.begin(), face.end());
      ++uses[face];
    }
  return uses;
}

TEST(RingMesh, PaperRingHas72Vertices108TetrahedraAnd144BoundaryTriangles) {
  const TetMesh ring = ringTetMesh(0.1, 0.0125);
  EXPECT_EQ(ring.vertices.size(), 72u);
  EXPECT_EQ(ring.tetrahedra.size(), 108u);
  const TetBoundary boundary = extractBoundary(ring, "ring");
  EXPECT_EQ(boundary.triangles.size(), 144u);
  EXPECT_EQ(boundary.vertices.size(), 72u);  // every vertex on the surface
  // Closed and oriented: every directed edge once, its reverse once; a torus: V - E + F = 0.
  EXPECT_NO_THROW(requireClosedOrientedSurface(TriangleMesh{ring.vertices, boundary.triangles}, "ring"));
  std::map<std::array<int, 2>, int> edgeUses;
  for (const auto& tri : boundary.triangles)
    for (int k = 0; k < 3; ++k) ++edgeUses[{std::min(tri[k], tri[(k + 1) % 3]), std::max(tri[k], tri[(k + 1) % 3])}];
  for (const auto& [edge, uses] : edgeUses) EXPECT_EQ(uses, 2) << edge[0] << "-" << edge[1];
  EXPECT_EQ(boundary.edges.size(), edgeUses.size());
  EXPECT_EQ(72 - static_cast<int>(boundary.edges.size()) + 144, 0);
}

TEST(RingMesh, VerticesAreTheSectionsCorners) {
  const double R = 0.1, w = 0.0125;
  const TetMesh ring = ringTetMesh(R, w);
  for (int k = 0; k < 18; ++k) {
    const double angle = 2.0 * kPi * k / 18;
    const Vec3 radial(std::cos(angle), std::sin(angle), 0.0);
    const std::array<Vec3, 4> corners{(R - w) * radial - w * Vec3::UnitZ(), (R + w) * radial - w * Vec3::UnitZ(),
                                      (R + w) * radial + w * Vec3::UnitZ(), (R - w) * radial + w * Vec3::UnitZ()};
    for (int c = 0; c < 4; ++c) EXPECT_TRUE(ring.vertices[4 * k + c].isApprox(corners[c], 1e-14)) << k << " " << c;
  }
}

// Conforming: every face is held by one tetrahedron (the boundary) or two on opposite sides of it,
// the sections' squares included, the wrap-around one (vertices 0-3, between the last segment and
// the first) too; no boundary triangle crosses the inside (each lies on one of the ring's four faces).
TEST(RingMesh, EveryInteriorFaceIsSharedByExactlyTwoTetrahedra) {
  const double R = 0.1, w = 0.0125;
  const TetMesh ring = ringTetMesh(R, w);
  const auto uses = faceUses(ring);
  int interior = 0, boundary = 0, wrapAround = 0;
  for (const auto& [face, count] : uses) {
    ASSERT_LE(count, 2) << face[0] << " " << face[1] << " " << face[2];
    count == 2 ? ++interior : ++boundary;
    if (face[2] < 4) {
      EXPECT_EQ(count, 2);
      ++wrapAround;
    }
  }
  EXPECT_EQ(interior, 144);  // 6 inside each segment, 2 on each of the 18 sections
  EXPECT_EQ(boundary, 144);
  EXPECT_EQ(wrapAround, 2);
  // Each section's square is cut once, along corner 0 - corner 2, from both sides.
  for (int k = 0; k < 18; ++k) {
    EXPECT_EQ(uses.count({4 * k, 4 * k + 1, 4 * k + 2}), 1u) << k;
    EXPECT_EQ(uses.count({4 * k, 4 * k + 2, 4 * k + 3}), 1u) << k;
    EXPECT_EQ(uses.count({4 * k, 4 * k + 1, 4 * k + 3}), 0u) << k;
    EXPECT_EQ(uses.count({4 * k + 1, 4 * k + 2, 4 * k + 3}), 0u) << k;
  }
  const TetBoundary surface = extractBoundary(ring, "ring");  // also throws for overlapping neighbours
  for (const auto& [a, b, c] : surface.triangles) {
    const auto side = [&](int v) {
      const Vec3& p = ring.vertices[v];
      const double r = std::hypot(p.x(), p.y());
      return std::array<bool, 4>{r < R, r > R, p.z() > 0.0, p.z() < 0.0};  // inner, outer, top, bottom
    };
    const auto sa = side(a), sb = side(b), sc = side(c);
    bool onOneFace = false;
    for (int f = 0; f < 4; ++f) onOneFace = onOneFace || (sa[f] && sb[f] && sc[f]);
    EXPECT_TRUE(onOneFace) << a << " " << b << " " << c;
  }
}

// Exact up to rounding: every segment is a prism over a trapezoid with plane faces, which its six
// tetrahedra fill. The boundary encloses the same volume, positively (it faces out).
class RingMeshShapes : public ::testing::TestWithParam<std::tuple<double, double, int>> {};

TEST_P(RingMeshShapes, PositiveTetrahedraFillThePolygonalRing) {
  const auto [R, w, n] = GetParam();
  const TetMesh ring = ringTetMesh(R, w, n);
  ASSERT_EQ(ring.vertices.size(), static_cast<std::size_t>(4 * n));
  ASSERT_EQ(ring.tetrahedra.size(), static_cast<std::size_t>(6 * n));
  const double expected = polygonalRingVolume(R, w, n);
  double volume = 0.0;
  for (const auto& tet : ring.tetrahedra) {
    const double v = tetVolume(ring, tet);
    EXPECT_GT(v, 0.0);
    volume += v;
  }
  EXPECT_NEAR(volume / expected, 1.0, 1e-12);
  const TetBoundary boundary = extractBoundary(ring, "ring");
  EXPECT_EQ(boundary.triangles.size(), static_cast<std::size_t>(8 * n));
  const TriangleMesh surface{ring.vertices, boundary.triangles};
  ASSERT_NO_THROW(requireClosedOrientedSurface(surface, "ring"));
  EXPECT_NEAR(integrateMassProperties(surface).volume / expected, 1.0, 1e-12);
  for (const auto& [face, count] : faceUses(ring)) EXPECT_LE(count, 2);
}

INSTANTIATE_TEST_SUITE_P(RingMesh, RingMeshShapes,
                         ::testing::Values(std::tuple{0.1, 0.0125, 18}, std::tuple{1.0, 0.5, 3},
                                           std::tuple{1.0, 0.999, 4}, std::tuple{2.0, 0.01, 7},
                                           std::tuple{0.3, 0.2, 64}));

// Pappus in the limit: the polygonal ring tends to (2 w)^2 2 pi R.
TEST(RingMesh, VolumeTendsToTheSmoothRing) {
  const double R = 0.1, w = 0.0125, smooth = 4.0 * w * w * 2.0 * kPi * R;
  EXPECT_NEAR(polygonalRingVolume(R, w, 18) / smooth, std::sin(2.0 * kPi / 18) / (2.0 * kPi / 18), 1e-15);
  double volume = 0.0;
  const TetMesh fine = ringTetMesh(R, w, 2000);
  for (const auto& tet : fine.tetrahedra) volume += tetVolume(fine, tet);
  EXPECT_NEAR(volume / smooth, 1.0, 1e-5);
}

TEST(RingMesh, RejectsBadSizesAndSegmentCounts) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double R : {0.0, -0.1, nan, inf}) EXPECT_THROW(ringTetMesh(R, 0.01), std::invalid_argument) << R;
  for (const double w : {0.0, -0.01, nan, inf}) EXPECT_THROW(ringTetMesh(0.1, w), std::invalid_argument) << w;
  EXPECT_THROW(ringTetMesh(0.1, 0.1), std::invalid_argument);
  EXPECT_THROW(ringTetMesh(0.1, 0.2), std::invalid_argument);
  for (const int n : {2, 0, -5}) EXPECT_THROW(ringTetMesh(0.1, 0.01, n), std::invalid_argument) << n;
  EXPECT_NO_THROW(ringTetMesh(0.1, 0.0999, 3));
  const auto messageOf = [](double R, double w, int n) -> std::string {
    try {
      ringTetMesh(R, w, n);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(messageOf(-1, 0.01, 18), "ringTetMesh: the major radius must be positive and finite (got major radius -1, "
                                     "section half width 0.01, 18 segments)");
  EXPECT_NE(messageOf(0.1, nan, 18).find("the section half width must be positive and finite"), std::string::npos);
  EXPECT_NE(messageOf(0.1, 0.1, 18).find("the section half width must be below the major radius"), std::string::npos);
  EXPECT_NE(messageOf(0.1, 0.01, 2).find("at least 3 segments"), std::string::npos);
}

}  // namespace
}  // namespace ring_mesh_test
}  // namespace contactlab
