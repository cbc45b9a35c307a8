#include "io/tetgen_bridge.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "geometry/procedural_meshes.h"
#include "support/tetgen_cache.h"

namespace contactlab {
namespace {

using test::TemporaryDirectory;
using test::tetgenSettingsIn;

double tetVolume(const Tetrahedralization& t, const std::array<int, 4>& tet) {
  const Vec3& a = t.vertices[tet[0]];
  return (t.vertices[tet[1]] - a).dot((t.vertices[tet[2]] - a).cross(t.vertices[tet[3]] - a)) / 6.0;
}

// A 2 x 1 x 3 box: the tetrahedra fill exactly the box's volume 6, all positively oriented, the
// surface's vertices first and in order, and the faces on no second tetrahedron are exactly the
// box's 12 triangles (-Y: tetgen adds no point on the surface).
TEST(TetgenBridge, BoxTetrahedralizesIntoItsVolume) {
  const TemporaryDirectory cache;
  const TriangleMesh box = boxMesh(Vec3(1.0, 0.5, 1.5));
  const Tetrahedralization t = tetrahedralize(box, tetgenSettingsIn(cache), "box");
  EXPECT_FALSE(t.fromCache);
  ASSERT_GE(t.vertices.size(), box.vertices.size());
  for (std::size_t v = 0; v < box.vertices.size(); ++v) EXPECT_EQ(t.vertices[v], box.vertices[v]);
  double volume = 0.0;
  for (const auto& tet : t.tetrahedra) {
    const double v = tetVolume(t, tet);
    EXPECT_GT(v, 0.0);
    volume += v;
  }
  EXPECT_NEAR(volume, 6.0, 1e-12);
  std::map<std::array<int, 3>, int> faceUses;
  for (const auto& tet : t.tetrahedra)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> face;
      for (int k = 0, n = 0; k < 4; ++k)
        if (k != skip) face[n++] = tet[k];
      std::sort(face.begin(), face.end());
      ++faceUses[face];
    }
  std::set<std::array<int, 3>> boundary, surface;
  for (const auto& [face, uses] : faceUses)
    if (uses == 1) boundary.insert(face);
  for (auto tri : box.triangles) {
    std::sort(tri.begin(), tri.end());
    surface.insert(tri);
  }
  EXPECT_EQ(boundary, surface);
}

// A volume limit makes tetgen add interior points (never surface ones, -Y): more tetrahedra, every
// added vertex strictly inside the unit sphere mesh.
TEST(TetgenBridge, MaximumVolumeAddsInteriorPoints) {
  const TemporaryDirectory cache;
  const TriangleMesh sphere = uvSphereMesh(1.0, 24, 12);
  const Tetrahedralization coarse = tetrahedralize(sphere, tetgenSettingsIn(cache), "sphere");
  TetgenSettings limited = tetgenSettingsIn(cache);
  limited.maxVolume = 0.01;
  const Tetrahedralization fine = tetrahedralize(sphere, limited, "sphere");
  EXPECT_GT(fine.tetrahedra.size(), coarse.tetrahedra.size() + 100);
  for (std::size_t v = sphere.vertices.size(); v < fine.vertices.size(); ++v) EXPECT_LT(fine.vertices[v].norm(), 1.0);
}

TEST(TetgenBridge, SecondCallIsACacheHitAndACorruptEntryIsRebuilt) {
  const TemporaryDirectory cache;
  const TriangleMesh sphere = uvSphereMesh(1.0, 12, 6);
  const Tetrahedralization first = tetrahedralize(sphere, tetgenSettingsIn(cache), "sphere");
  const Tetrahedralization second = tetrahedralize(sphere, tetgenSettingsIn(cache), "sphere");
  EXPECT_FALSE(first.fromCache);
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(second.vertices, first.vertices);
  EXPECT_EQ(second.tetrahedra, first.tetrahedra);

  // Other settings are another entry.
  TetgenSettings finer = tetgenSettingsIn(cache);
  finer.maxVolume = 0.01;
  EXPECT_FALSE(tetrahedralize(sphere, finer, "sphere").fromCache);

  // Flip bytes in the middle of every entry: the checksum fails, tetgen runs again.
  for (const auto& entry : std::filesystem::directory_iterator(cache.path())) {
    std::fstream file(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(std::filesystem::file_size(entry.path()) / 2));
    file.write("garbage!", 8);
  }
  const Tetrahedralization rebuilt = tetrahedralize(sphere, tetgenSettingsIn(cache), "sphere");
  EXPECT_FALSE(rebuilt.fromCache);
  EXPECT_EQ(rebuilt.tetrahedra, first.tetrahedra);
  EXPECT_TRUE(tetrahedralize(sphere, tetgenSettingsIn(cache), "sphere").fromCache);
}

std::string errorOf(const TriangleMesh& mesh, const TetgenSettings& settings) {
  try {
    tetrahedralize(mesh, settings, "broken.obj");
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no error";
}

// Two closed boxes passing through each other: a closed, oriented surface that tetgen refuses.
TEST(TetgenBridge, SelfIntersectingSurfaceGivesTetgensReason) {
  const TemporaryDirectory cache;
  TriangleMesh crossed = boxMesh(Vec3(1.0, 0.2, 0.2));
  const TriangleMesh second = boxMesh(Vec3(0.2, 1.0, 0.2));
  const int offset = static_cast<int>(crossed.vertices.size());
  crossed.vertices.insert(crossed.vertices.end(), second.vertices.begin(), second.vertices.end());
  for (auto tri : second.triangles) crossed.triangles.push_back({tri[0] + offset, tri[1] + offset, tri[2] + offset});
  const std::string message = errorOf(crossed, tetgenSettingsIn(cache));
  EXPECT_EQ(message.rfind("broken.obj: tetgen ", 0), 0u) << message;
  EXPECT_NE(message.find("its output:"), std::string::npos) << message;
  EXPECT_NE(message.find("intersect"), std::string::npos) << message;
}

TEST(TetgenBridge, OpenSurfaceAndMissingTetgenAreClearErrors) {
  const TemporaryDirectory cache;
  TriangleMesh open = boxMesh(Vec3::Ones());
  open.triangles.pop_back();
  EXPECT_NE(errorOf(open, tetgenSettingsIn(cache)).find("broken.obj: the surface is open"), std::string::npos);

  TetgenSettings missing = tetgenSettingsIn(cache);
  missing.executable = (cache.path() / "no-tetgen-here").string();
  EXPECT_EQ(errorOf(boxMesh(Vec3::Ones()), missing),
            "broken.obj: cannot tetrahedralize: the tetgen program is not at " + missing.executable +
                " (install the Debian package tetgen)");
}

}  // namespace
}  // namespace contactlab
