#include "geometry/deformable_shape.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "geometry/mesh_library.h"
#include "geometry/mesh_mass_properties.h"
#include "geometry/procedural_meshes.h"
#include "support/tetgen_cache.h"

namespace contactlab {
// Named apart from other test files' helpers (the tests are compiled in unity batches).
namespace deformable_shape_test {
namespace {

using test::TemporaryDirectory;
using test::tetgenSettingsIn;

constexpr double kPi = std::numbers::pi;

double tetVolumeSum(const TetMesh& mesh) {
  double sum = 0.0;
  for (const auto& tet : mesh.tetrahedra) {
    const Vec3& a = mesh.vertices[tet[0]];
    sum += (mesh.vertices[tet[1]] - a).dot((mesh.vertices[tet[2]] - a).cross(mesh.vertices[tet[3]] - a)) / 6.0;
  }
  return sum;
}

// tetgen -a bounds every tetrahedron's volume except where it would need a point on the surface,
// which -Y forbids: a few tetrahedra against the surface stay larger. The count it gives is what
// the limit is for: at least the volume over the limit.
void expectVolumeLimitHeld(const TetMesh& mesh, double maxVolume) {
  double largest = 0.0;
  std::size_t over = 0;
  for (const auto& tet : mesh.tetrahedra) {
    const Vec3& a = mesh.vertices[tet[0]];
    const double v = (mesh.vertices[tet[1]] - a).dot((mesh.vertices[tet[2]] - a).cross(mesh.vertices[tet[3]] - a)) / 6.0;
    largest = std::max(largest, v);
    over += v > maxVolume;
  }
  EXPECT_GE(static_cast<double>(mesh.tetrahedra.size()), tetVolumeSum(mesh) / maxVolume);
  EXPECT_LE(over, mesh.tetrahedra.size() / 30) << "of " << mesh.tetrahedra.size();
  EXPECT_LE(largest, 4.0 * maxVolume);
}

double longestEdgeOf(const TriangleMesh& mesh) {
  double longest = 0.0;
  for (const auto& tri : mesh.triangles)
    for (int k = 0; k < 3; ++k) longest = std::max(longest, (mesh.vertices[tri[k]] - mesh.vertices[tri[(k + 1) % 3]]).norm());
  return longest;
}

std::set<std::array<int, 3>> sortedTriangles(const std::vector<std::array<int, 3>>& triangles) {
  std::set<std::array<int, 3>> out;
  for (auto tri : triangles) {
    std::sort(tri.begin(), tri.end());
    out.insert(tri);
  }
  return out;
}

// The boundary of the tetrahedra is closed, outward (divergence theorem: it encloses the tetrahedra's
// volume with a positive sign) and exactly the refined surface (tetgen ran with -Y).
void expectBoundaryIsTheSurface(const TetMesh& tets, const TriangleMesh& surface, const std::string& source) {
  const TetBoundary boundary = extractBoundary(tets, source);  // also: every tetrahedron positive
  const TriangleMesh closed{tets.vertices, boundary.triangles};
  EXPECT_NO_THROW(requireClosedOrientedSurface(closed, source));
  double enclosed = 0.0;
  for (const auto& [a, b, c] : boundary.triangles)
    enclosed += tets.vertices[a].dot(tets.vertices[b].cross(tets.vertices[c])) / 6.0;
  EXPECT_NEAR(enclosed / tetVolumeSum(tets), 1.0, 1e-12);
  ASSERT_GE(tets.vertices.size(), surface.vertices.size());
  for (std::size_t v = 0; v < surface.vertices.size(); ++v) EXPECT_EQ(tets.vertices[v], surface.vertices[v]);
  EXPECT_EQ(sortedTriangles(boundary.triangles), sortedTriangles(surface.triangles));
}

std::string errorOf(const DeformableSolid& solid, double maxTetVolume, const TetgenSettings& settings) {
  try {
    tetrahedralizeShape(solid, maxTetVolume, "jelly.obj", settings);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no error";
}

TEST(DeformableShape, RegularTetrahedronEdgeGivesItsVolume) {
  const double edge = regularTetrahedronEdge(1e-3);
  EXPECT_NEAR(edge * edge * edge / (6.0 * std::numbers::sqrt2), 1e-3, 1e-15);
  EXPECT_NEAR(regularTetrahedronEdge(1.0 / (6.0 * std::numbers::sqrt2)), 1.0, 1e-15);
}

TEST(DeformableShape, SolidVolumes) {
  EXPECT_NEAR(solidVolume(SphereShape{0.1}, "s"), 4.0 / 3.0 * kPi * 1e-3, 1e-15);
  EXPECT_NEAR(solidVolume(BoxShape{Vec3(0.1, 0.2, 0.3)}, "b"), 0.048, 1e-15);
  EXPECT_NEAR(solidVolume(CapsuleShape{0.1, 0.2}, "c"), kPi * 0.01 * 0.4 + 4.0 / 3.0 * kPi * 1e-3, 1e-15);
  EXPECT_NEAR(solidVolume(boxMesh(Vec3(0.1, 0.2, 0.3)), "m"), 0.048, 1e-15);
}

// The surfaces before tetgen: no edge longer than asked, closed and outward, every vertex of a
// sphere or capsule on the smooth surface, a box's grid filling its faces exactly.
TEST(DeformableShape, RefinedSurfacesKeepEdgesShort) {
  for (const double maxEdge : {0.3, 0.05, 0.013}) {
    SCOPED_TRACE(maxEdge);
    const TriangleMesh box = refinedSurface(BoxShape{Vec3(0.1, 0.05, 0.2)}, maxEdge, "box");
    EXPECT_LE(longestEdgeOf(box), maxEdge);
    EXPECT_NO_THROW(requireClosedOrientedSurface(box, "box"));
    EXPECT_NEAR(integrateMassProperties(box).volume, 0.008, 1e-15);

    const TriangleMesh sphere = refinedSurface(SphereShape{0.1}, maxEdge, "sphere");
    EXPECT_LE(longestEdgeOf(sphere), maxEdge);
    EXPECT_NO_THROW(requireClosedOrientedSurface(sphere, "sphere"));
    for (const Vec3& v : sphere.vertices) EXPECT_NEAR(v.norm(), 0.1, 1e-15);

    const TriangleMesh capsule = refinedSurface(CapsuleShape{0.05, 0.15}, maxEdge, "capsule");
    EXPECT_LE(longestEdgeOf(capsule), maxEdge);
    EXPECT_NO_THROW(requireClosedOrientedSurface(capsule, "capsule"));
    for (const Vec3& v : capsule.vertices) {
      const Vec3 axis(0.0, 0.0, std::clamp(v.z(), -0.15, 0.15));
      EXPECT_NEAR((v - axis).norm(), 0.05, 1e-15);
    }
    EXPECT_GT(integrateMassProperties(capsule).volume, 0.0);
  }
  // Finer asks give finer surfaces, and a sphere's triangles stay within a factor of each other.
  EXPECT_LT(refinedSurface(SphereShape{1.0}, 0.5, "s").triangles.size(), refinedSurface(SphereShape{1.0}, 0.2, "s").triangles.size());
  const TriangleMesh sphere = refinedSurface(SphereShape{1.0}, 0.1, "sphere");
  double shortest = 1.0;
  for (const auto& tri : sphere.triangles)
    for (int k = 0; k < 3; ++k) shortest = std::min(shortest, (sphere.vertices[tri[k]] - sphere.vertices[tri[(k + 1) % 3]]).norm());
  EXPECT_GT(shortest, 0.4 * 0.1);
}

// A mesh surface: long edges are split at their midpoints until all fit; the old vertices keep their
// indices and the solid its volume exactly (midpoints lie on the flat triangles).
TEST(DeformableShape, MeshSurfaceSplitsLongEdges) {
  const TriangleMesh coarse = boxMesh(Vec3(0.4, 0.1, 0.05));
  const double volume = integrateMassProperties(coarse).volume;
  for (const double maxEdge : {0.5, 0.11, 0.03}) {
    SCOPED_TRACE(maxEdge);
    const TriangleMesh fine = refinedSurface(coarse, maxEdge, "slab.obj");
    EXPECT_LE(longestEdgeOf(fine), maxEdge);
    EXPECT_NO_THROW(requireClosedOrientedSurface(fine, "slab.obj"));
    EXPECT_NEAR(integrateMassProperties(fine).volume, volume, 1e-15);
    for (std::size_t v = 0; v < coarse.vertices.size(); ++v) EXPECT_EQ(fine.vertices[v], coarse.vertices[v]);
  }
  // Already short enough: unchanged.
  const TriangleMesh same = refinedSurface(coarse, 1.0, "slab.obj");
  EXPECT_EQ(same.vertices, coarse.vertices);
  EXPECT_EQ(same.triangles, coarse.triangles);
}

// Without refinement tetgen -Y keeps a box at 6 tetrahedra whatever the volume asked; with it the
// count follows the volume and the tetrahedra fill the box exactly.
TEST(DeformableShape, TetCountGrowsAsTheMaximumVolumeShrinks) {
  const TemporaryDirectory cache;
  const BoxShape box{Vec3::Constant(0.1)};
  const double volume = solidVolume(box, "box");
  std::size_t previous = 0;
  for (const double fraction : {10.0, 100.0, 1000.0}) {
    SCOPED_TRACE(fraction);
    const double maxVolume = volume / fraction;
    const TetMesh tets = tetrahedralizeShape(box, maxVolume, "box", tetgenSettingsIn(cache));
    EXPECT_GE(tets.tetrahedra.size(), static_cast<std::size_t>(fraction));
    EXPECT_GT(tets.tetrahedra.size(), 3 * previous);
    previous = tets.tetrahedra.size();
    expectVolumeLimitHeld(tets, maxVolume);
    EXPECT_NEAR(tetVolumeSum(tets), volume, 1e-15);
    expectBoundaryIsTheSurface(tets, refinedSurface(box, regularTetrahedronEdge(maxVolume), "box"), "box");
  }
}

// A sphere's tetrahedra fill its inscribed polyhedron exactly. The polyhedron falls short of the
// ball by at most the caps cut off above its triangles: a triangle with edges up to L has a
// circumradius up to L / sqrt(3), so a cap is at most L^2 / (6 r) high, and the shortfall is at most
// 4 pi r^2 L^2 / (6 r), a fraction L^2 / (2 r^2) of the ball. Likewise for the capsule.
TEST(DeformableShape, RoundSolidsFillTheirVolumeWithinTheTessellationError) {
  const TemporaryDirectory cache;
  const std::vector<std::pair<std::string, DeformableSolid>> solids = {{"sphere", SphereShape{0.1}},
                                                                      {"capsule", CapsuleShape{0.05, 0.1}}};
  for (const auto& [name, solid] : solids) {
    SCOPED_TRACE(name);
    const double volume = solidVolume(solid, name);
    const double radius = name == "sphere" ? 0.1 : 0.05;
    std::size_t previous = 0;
    for (const double fraction : {10.0, 100.0, 1000.0}) {
      SCOPED_TRACE(fraction);
      const double maxVolume = volume / fraction;
      const TetMesh tets = tetrahedralizeShape(solid, maxVolume, name, tetgenSettingsIn(cache));
      EXPECT_GT(tets.tetrahedra.size(), previous);
      previous = tets.tetrahedra.size();
      const TriangleMesh surface = refinedSurface(solid, regularTetrahedronEdge(maxVolume), name);
      EXPECT_NEAR(tetVolumeSum(tets) / integrateMassProperties(surface).volume, 1.0, 1e-12);
      const double edge = regularTetrahedronEdge(maxVolume);
      EXPECT_LT(tetVolumeSum(tets), volume);
      EXPECT_GT(tetVolumeSum(tets), volume * (1.0 - edge * edge / (2.0 * radius * radius)));
      expectVolumeLimitHeld(tets, maxVolume);
      expectBoundaryIsTheSurface(tets, surface, name);
    }
  }
}

// A mesh body: the bunny (glmark2-data, a project dependency), its surface refined where its
// triangles are larger than the tetrahedra asked for.
TEST(DeformableShape, BunnyMeshTetrahedralizes) {
  const TemporaryDirectory cache;
  const TriangleMesh bunny = namedSurface("bunny");
  const double volume = solidVolume(bunny, "bunny");
  for (const double maxVolume : {defaultMaxTetVolume(volume), volume / 2000.0}) {
    const TetMesh tets = tetrahedralizeShape(bunny, maxVolume, "bunny", tetgenSettingsIn(cache));
    EXPECT_NEAR(tetVolumeSum(tets) / volume, 1.0, 1e-9);
    expectVolumeLimitHeld(tets, maxVolume);
    expectBoundaryIsTheSurface(tets, refinedSurface(bunny, regularTetrahedronEdge(maxVolume), "bunny"), "bunny");
  }
}

// The default gives a few hundred tetrahedra for compact primitives, whatever their size (the
// count depends on the ratio of volumes only).
TEST(DeformableShape, DefaultMaximumVolumeGivesAFewHundredTetrahedra) {
  const TemporaryDirectory cache;
  const std::vector<std::pair<std::string, DeformableSolid>> solids = {
      {"0.2 m box", BoxShape{Vec3::Constant(0.1)}},  {"2 m box", BoxShape{Vec3::Constant(1.0)}},
      {"1 m bar", BoxShape{Vec3(0.5, 0.05, 0.05)}},  {"0.1 m sphere", SphereShape{0.1}},
      {"capsule", CapsuleShape{0.05, 0.05}}};
  for (const auto& [name, solid] : solids) {
    const TetMesh tets = tetrahedralizeShape(solid, defaultMaxTetVolume(solidVolume(solid, name)), name, tetgenSettingsIn(cache));
    EXPECT_GE(tets.tetrahedra.size(), 200u) << name;
    EXPECT_LE(tets.tetrahedra.size(), 400u) << name;
  }
}

TEST(DeformableShape, OpenSurfaceGivesAMeshErrorNamingTheSource) {
  TriangleMesh open = boxMesh(Vec3::Constant(0.1));
  open.triangles.pop_back();
  const std::string message = errorOf(open, 1e-4, {});
  EXPECT_EQ(message.rfind("jelly.obj: the surface is open", 0), 0u) << message;
}

TEST(DeformableShape, MissingTetgenNamesItsPath) {
  const TemporaryDirectory cache;
  TetgenSettings settings = tetgenSettingsIn(cache);
  settings.executable = (cache.path() / "no-tetgen-here").string();
  const std::string message = errorOf(SphereShape{0.1}, 1e-4, settings);
  EXPECT_EQ(message.rfind("jelly.obj: ", 0), 0u) << message;
  EXPECT_NE(message.find("tetgen program is not at " + settings.executable), std::string::npos) << message;
}

TEST(DeformableShape, BadSizesAndVolumesNameTheSourceAndTheValue) {
  EXPECT_EQ(errorOf(SphereShape{0.1}, 0.0, {}), "jelly.obj: the maximum tetrahedron volume must be positive and finite, got 0");
  EXPECT_EQ(errorOf(SphereShape{0.1}, std::nan(""), {}).rfind("jelly.obj: the maximum tetrahedron volume must be", 0), 0u);
  EXPECT_EQ(errorOf(SphereShape{-1.0}, 1e-3, {}), "jelly.obj: the sphere's radius must be positive and finite, got -1");
  EXPECT_EQ(errorOf(BoxShape{Vec3(0.1, 0.0, 0.1)}, 1e-3, {}),
            "jelly.obj: the box's half extents must be positive and finite, got 0");
  EXPECT_EQ(errorOf(CapsuleShape{0.1, -0.5}, 1e-3, {}),
            "jelly.obj: the capsule's half length must be finite and not negative, got -0.5");
  // A volume far too small for the solid stops before building millions of triangles.
  for (const DeformableSolid& solid : std::vector<DeformableSolid>{BoxShape{Vec3::Constant(1.0)}, SphereShape{1.0},
                                                                   CapsuleShape{1.0, 1.0}, boxMesh(Vec3::Constant(1.0))}) {
    const std::string message = errorOf(solid, 1e-12, {});
    EXPECT_EQ(message.rfind("jelly.obj: surface edges of at most", 0), 0u) << message;
    EXPECT_NE(message.find("more than the 1000000 allowed"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace deformable_shape_test
}  // namespace contactlab
