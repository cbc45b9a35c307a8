#include "geometry/mesh_library.h"

#include <gtest/gtest.h>

#include "geometry/procedural_meshes.h"
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
    EXPECT_EQ(std::string(e.what()).rfind("unknown mesh \"teapot\" (known: bishop, bunny, cube, funnel, glass, jack", 0), 0u)
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

}  // namespace
}  // namespace contactlab
