#include "geometry/procedural_meshes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>

#include "geometry/mesh_library.h"
#include "geometry/mesh_mass_properties.h"
#include "io/tetgen_bridge.h"
#include "support/tetgen_cache.h"

namespace contactlab {
namespace {

constexpr double kPi = std::numbers::pi;

// Every named mesh: closed and consistently oriented (each directed edge once, its reverse once),
// positive volume, and tetgen fills exactly that volume with positive tetrahedra.
TEST(ProceduralMeshes, EveryNamedMeshIsClosedOrientedAndTetrahedralizes) {
  const test::TemporaryDirectory cache;
  const TetgenSettings settings = test::tetgenSettingsIn(cache);
  for (const std::string& name : meshNames()) {
    SCOPED_TRACE(name);
    if (name == "bunny" && !std::filesystem::exists(kBunnyPath)) continue;  // glmark2-data not installed
    const TriangleMesh mesh = namedSurface(name);
    ASSERT_NO_THROW(requireClosedOrientedSurface(mesh, name));
    const double volume = integrateMassProperties(mesh).volume;
    EXPECT_GT(volume, 0.0);
    EXPECT_LE(mesh.triangles.size(), 2600u);
    const Tetrahedralization tets = tetrahedralize(mesh, settings, name);
    double tetVolume = 0.0;
    for (const auto& tet : tets.tetrahedra) {
      const Vec3& a = tets.vertices[tet[0]];
      const double v = (tets.vertices[tet[1]] - a).dot((tets.vertices[tet[2]] - a).cross(tets.vertices[tet[3]] - a)) / 6.0;
      EXPECT_GT(v, 0.0);
      tetVolume += v;
    }
    EXPECT_NEAR(tetVolume / volume, 1.0, 1e-9);
  }
}

// Three orthogonal capsules of radius r and segment half-length h: three cylinders 2 pi r^2 h,
// less the three pairwise overlaps (Steinmetz bicylinders, 16 r^3 / 3 each), plus the central
// tricylinder 8 (2 - sqrt 2) r^3 counted once again, plus six hemispherical ends (4 pi r^3).
TEST(ProceduralMeshes, JackVolumeMatchesTheUnionOfItsCapsules) {
  const double reach = 0.5, r = 0.1, h = reach - r;
  const double analytic = 3.0 * 2.0 * kPi * r * r * h - 16.0 * r * r * r + 8.0 * (2.0 - std::sqrt(2.0)) * r * r * r +
                          4.0 * kPi * r * r * r;
  const TriangleMesh jack = jackMesh(reach, r, 1200);
  EXPECT_LE(jack.triangles.size(), 1200u);
  EXPECT_GE(jack.triangles.size(), 1000u);
  EXPECT_NEAR(integrateMassProperties(jack).volume / analytic, 1.0, 0.03);
  // Its tips reach `reach` along each axis.
  Vec3 extent = Vec3::Zero();
  for (const Vec3& v : jack.vertices) extent = extent.cwiseMax(v.cwiseAbs());
  EXPECT_TRUE(extent.isApprox(Vec3::Constant(reach), 0.02)) << extent.transpose();
}

// Pappus: a 16-gon tube revolved in 32 steps holds a little less than 2 pi^2 R r^2.
TEST(ProceduralMeshes, TorusVolumeIsNearPappus) {
  const double R = 0.4, r = 0.1;
  const double volume = integrateMassProperties(torusMesh(R, r, 32, 16)).volume;
  const double analytic = 2.0 * kPi * kPi * R * r * r;
  EXPECT_LT(volume, analytic);
  EXPECT_GT(volume, 0.96 * analytic);
}

// The glass's wall and base: the outer cylinder less the hollow.
TEST(ProceduralMeshes, GlassVolumeIsItsWallsAndBase) {
  const double R = 0.5, H = 1.2, wall = 0.05, base = 0.08;
  const double analytic = kPi * R * R * H - kPi * (R - wall) * (R - wall) * (H - base);
  const double volume = integrateMassProperties(glassMesh(R, H, wall, base)).volume;
  EXPECT_NEAR(volume / analytic, 1.0, 0.02);  // the 32-gon's area is 0.6 % under the circle's
}

TEST(ProceduralMeshes, MissingBunnyNamesTheDebianPackage) {
  try {
    stanfordBunnyMesh("/nonexistent/bunny.obj", 1000);
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find("glmark2-data"), std::string::npos) << e.what();
  }
}

TEST(ProceduralMeshes, BunnyIsSimplifiedToAboutAThousandTriangles) {
  if (!std::filesystem::exists(kBunnyPath)) GTEST_SKIP() << kBunnyPath << " missing (Debian package glmark2-data)";
  const TriangleMesh bunny = stanfordBunnyMesh(kBunnyPath, 1000);
  EXPECT_LE(bunny.triangles.size(), 1000u);
  EXPECT_GE(bunny.triangles.size(), 900u);
  EXPECT_NO_THROW(requireClosedOrientedSurface(bunny, "bunny"));
}

}  // namespace
}  // namespace contactlab
