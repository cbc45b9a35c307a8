#include "geometry/mesh_library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <optional>

#include "geometry/mesh_mass_properties.h"
#include "geometry/procedural_meshes.h"
#include "geometry/ring_mesh.h"
#include "support/tetgen_cache.h"

namespace contactlab {
namespace {

using test::tetgenSettingsIn;

TEST(MeshLibrary, SameRequestSharesOneGeometryAndScaleScalesVolumeByItsCube) {
  const test::TemporaryDirectory cache;
  const auto unit = namedMeshGeometry("cube", 1.0, tetgenSettingsIn(cache));
  EXPECT_EQ(namedMeshGeometry("cube", 1.0, tetgenSettingsIn(cache)), unit);
  const auto doubled = namedMeshGeometry("cube", 2.0, tetgenSettingsIn(cache));
  EXPECT_NE(doubled, unit);
  EXPECT_NEAR(unit->volume, 1.0, 1e-12);
  EXPECT_NEAR(doubled->volume, 8.0, 1e-12);
  EXPECT_NEAR(doubled->principalInertiaPerUnitDensity.x(), 8.0 * 8.0 / 12.0, 1e-12);  // V (a^2 + a^2) / 12, a = 2
  EXPECT_EQ(doubled->source, "cube");
  EXPECT_FALSE(doubled->sourceIsObjFile);
  EXPECT_EQ(doubled->scale, 2.0);
  EXPECT_FALSE(doubled->tetrahedra.empty());
  for (std::size_t v = 0; v < doubled->surface.vertices.size(); ++v)
    EXPECT_EQ(doubled->tetVertices[v], doubled->surface.vertices[v]);
}

TEST(MeshLibrary, UnknownNameListsTheKnownOnes) {
  try {
    namedSurface("teapot");
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown mesh \"teapot\" (known: bishop, bunny, bunny-coarse, cube, funnel, glass, jack", 0), 0u)
        << e.what();
  }
}

// The jack's cubic symmetry makes its inertia isotropic, so its body frame keeps the arms on the
// axes (principalAxes keeps a diagonal tensor's axes).
TEST(MeshLibrary, JackKeepsItsArmsOnTheBodyAxes) {
  const test::TemporaryDirectory cache;
  const auto jack = namedMeshGeometry("jack", 1.0, tetgenSettingsIn(cache));
  EXPECT_TRUE(jack->boundsUpper.isApprox(Vec3::Constant(0.5), 0.02)) << jack->boundsUpper.transpose();
  EXPECT_TRUE(jack->boundsLower.isApprox(Vec3::Constant(-0.5), 0.02)) << jack->boundsLower.transpose();
  const Vec3 moments = jack->principalInertiaPerUnitDensity;
  EXPECT_NEAR(moments.minCoeff() / moments.maxCoeff(), 1.0, 0.02);
}


double signedTetVolume(const std::vector<Vec3>& vertices, const std::array<int, 4>& tet) {
  const Vec3& a = vertices[tet[0]];
  return (vertices[tet[1]] - a).dot((vertices[tet[2]] - a).cross(vertices[tet[3]] - a)) / 6.0;
}

// The paper's ring (Verschoor & Jalba 2019, sec. 6.2) keeps its own 108 tetrahedra: tetgen does not
// run (the settings do not matter), the surface is their boundary over the first vertices, and the
// body frame moves both alike. Its volume is the polygonal ring's, 4 n R w^2 sin(2 pi / n).
TEST(MeshLibrary, RingKeepsItsDirectTetrahedra) {
  const test::TemporaryDirectory cache;
  const auto ring = namedMeshGeometry("ring", 1.0, tetgenSettingsIn(cache));
  EXPECT_EQ(namedMeshGeometry("ring", 1.0), ring);  // the settings are not part of the request
  EXPECT_TRUE(ring->directTetrahedra);
  EXPECT_TRUE(std::filesystem::is_empty(cache.path()));  // nothing went through tetgen's cache
  EXPECT_EQ(ring->source, "ring");
  EXPECT_FALSE(ring->sourceIsObjFile);
  ASSERT_EQ(ring->tetVertices.size(), 72u);
  EXPECT_EQ(ring->tetrahedra.size(), 108u);
  ASSERT_EQ(ring->surface.vertices.size(), 72u);
  EXPECT_EQ(ring->surface.triangles.size(), 144u);
  for (std::size_t v = 0; v < ring->surface.vertices.size(); ++v)
    EXPECT_EQ(ring->tetVertices[v], ring->surface.vertices[v]);

  const double R = 0.1, w = 0.0125, expected = 4.0 * 18 * R * w * w * std::sin(2.0 * std::numbers::pi / 18);
  double volume = 0.0;
  for (const auto& tet : ring->tetrahedra) {
    const double v = signedTetVolume(ring->tetVertices, tet);
    EXPECT_GT(v, 0.0);
    volume += v;
  }
  EXPECT_NEAR(volume / expected, 1.0, 1e-12);
  EXPECT_NEAR(ring->volume / expected, 1.0, 1e-12);
  // The same tetrahedra as ringTetMesh's (all its vertices are on the surface: none renumbered).
  const TetMesh direct = ringTetMesh(R, w);
  EXPECT_EQ(ring->tetrahedra, direct.tetrahedra);
  // Symmetric about its axis: the body frame is the ring's own, z the axis of the largest moment.
  EXPECT_LT(ring->centreOfMassInSource.norm(), 1e-15);
  EXPECT_NEAR(ring->boundsUpper.z(), w, 1e-15);
  EXPECT_NEAR(ring->boundsLower.z(), -w, 1e-15);
  EXPECT_NEAR(ring->boundingRadius, std::hypot(R + w, w), 1e-15);
  const Vec3 moments = ring->principalInertiaPerUnitDensity;
  EXPECT_NEAR(moments.x() / moments.y(), 1.0, 1e-12);
  EXPECT_GT(moments.z(), moments.x());

  const auto doubled = namedMeshGeometry("ring", 2.0);
  EXPECT_NEAR(doubled->volume / ring->volume, 8.0, 1e-12);
  EXPECT_TRUE(doubled->directTetrahedra);
  EXPECT_EQ(doubled->tetrahedra, ring->tetrahedra);
}

TEST(MeshLibrary, NamedTetMeshIsTheRingsOnly) {
  const std::optional<TetMesh> ring = namedTetMesh("ring");
  ASSERT_TRUE(ring.has_value());
  EXPECT_EQ(ring->tetrahedra.size(), 108u);
  const TriangleMesh surface = namedSurface("ring");
  EXPECT_EQ(surface.vertices, ring->vertices);
  EXPECT_EQ(surface.triangles, extractBoundary(*ring, "ring").triangles);
  EXPECT_FALSE(namedTetMesh("cube").has_value());
  EXPECT_THROW(namedTetMesh("teapot"), MeshError);
}

// Tetrahedra with an interior vertex (a 2 x 2 x 2 box's centre): the boundary's vertices are
// numbered first, the interior one last, and the tetrahedra follow.
TEST(MeshLibrary, DirectTetrahedraPutTheBoundaryVerticesFirst) {
  const TetMesh box = boxTetMesh(Vec3(1.0, 2.0, 3.0), 2, 2, 2);  // vertex 13 is the centre
  const MeshGeometry geometry = buildMeshGeometry(box, "box.tets", 0.5);
  EXPECT_TRUE(geometry.directTetrahedra);
  ASSERT_EQ(geometry.tetVertices.size(), 27u);
  ASSERT_EQ(geometry.surface.vertices.size(), 26u);
  for (std::size_t v = 0; v < 26; ++v) EXPECT_EQ(geometry.tetVertices[v], geometry.surface.vertices[v]);
  EXPECT_LT(geometry.tetVertices[26].norm(), 1e-15);  // the centre, at the centre of mass
  EXPECT_EQ(geometry.surface.triangles.size(), 48u);
  EXPECT_NEAR(geometry.volume, 0.75, 1e-15);  // 0.5 x 1 x 1.5
  double volume = 0.0;
  for (const auto& tet : geometry.tetrahedra) {
    const double v = signedTetVolume(geometry.tetVertices, tet);
    EXPECT_GT(v, 0.0);
    volume += v;
  }
  EXPECT_NEAR(volume, 0.75, 1e-15);
  // The body frame's axes are the box's (in some order): its extents are the halved box's.
  Vec3 extent = geometry.boundsUpper - geometry.boundsLower;
  std::sort(extent.data(), extent.data() + 3);
  EXPECT_TRUE(extent.isApprox(Vec3(0.5, 1.0, 1.5), 1e-12)) << extent.transpose();
  EXPECT_THROW(buildMeshGeometry(box, "box.tets", 0.0), MeshError);
  TetMesh inverted = box;
  std::swap(inverted.tetrahedra[3][0], inverted.tetrahedra[3][1]);
  try {
    buildMeshGeometry(inverted, "box.tets", 1.0);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("box.tets: tetrahedron 3 is not positively oriented", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace contactlab
