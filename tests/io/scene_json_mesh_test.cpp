// Mesh bodies in scene files: the "mesh" and "obj" keys, sharing, round trip and errors.
#include <gtest/gtest.h>

#include "contactlab/scene.h"
#include "geometry/procedural_meshes.h"
#include "support/temporary_directory.h"

namespace contactlab {
namespace {

using test::TemporaryDirectory;

std::string errorOf(const std::string& text, const std::string& source = "mesh.json") {
  try {
    parseSceneJson(text, source);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// The OBJ text of a closed mesh, 1-based faces.
std::string objText(const TriangleMesh& mesh) {
  std::string text;
  for (const Vec3& v : mesh.vertices)
    text += "v " + std::to_string(v.x()) + " " + std::to_string(v.y()) + " " + std::to_string(v.z()) + "\n";
  for (const auto& t : mesh.triangles)
    text += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " + std::to_string(t[2] + 1) + "\n";
  return text;
}

TEST(SceneJsonMesh, NamedMeshBodiesShareTheirGeometryAndRoundTrip) {
  const Scene scene = parseSceneJson(R"({"bodies": [
      {"shape": "mesh", "mesh": "cube", "scale": 0.5, "position": [0, 0, 1]},
      {"shape": "mesh", "mesh": "cube", "scale": 0.5, "position": [0, 0, 2], "static": true},
      {"shape": "mesh", "mesh": "cube", "position": [0, 0, 3]}]})",
                                     "mesh.json");
  ASSERT_EQ(scene.bodies.size(), 3u);
  const auto& first = std::get<MeshShape>(scene.bodies[0].shape);
  EXPECT_EQ(first.geometry, std::get<MeshShape>(scene.bodies[1].shape).geometry);
  EXPECT_NE(first.geometry, std::get<MeshShape>(scene.bodies[2].shape).geometry);
  EXPECT_NEAR(first.geometry->volume, 0.125, 1e-12);
  EXPECT_EQ(std::get<MeshShape>(scene.bodies[2].shape).geometry->scale, 1.0);

  const Scene back = parseSceneJson(sceneToJson(scene), "saved.json");
  ASSERT_EQ(back.bodies.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    // Same name and scale: the very same shared geometry.
    EXPECT_EQ(std::get<MeshShape>(back.bodies[i].shape).geometry, std::get<MeshShape>(scene.bodies[i].shape).geometry);
    EXPECT_EQ(back.bodies[i].position, scene.bodies[i].position);
    EXPECT_EQ(back.bodies[i].motion, scene.bodies[i].motion);
  }
}

TEST(SceneJsonMesh, ObjPathIsRelativeToTheSceneFileAndSavedAbsolute) {
  const TemporaryDirectory directory;
  directory.write("box.obj", objText(boxMesh(Vec3(0.5, 1.0, 1.5))));
  const std::string scenePath = directory.write(
      "scene.json", R"({"bodies": [{"shape": "mesh", "obj": "box.obj", "scale": 2, "position": [0, 0, 5]}]})");
  const Scene scene = loadSceneFile(scenePath);
  const MeshGeometry& box = *std::get<MeshShape>(scene.bodies[0].shape).geometry;
  EXPECT_NEAR(box.volume, 6.0 * 8.0, 1e-9);
  EXPECT_TRUE(box.sourceIsObjFile);
  EXPECT_EQ(box.source, (directory.path() / "box.obj").string());
  const Scene back = parseSceneJson(sceneToJson(scene), "elsewhere/saved.json");
  EXPECT_EQ(std::get<MeshShape>(back.bodies[0].shape).geometry.get(), &box);
}

// The example scenes in scenes/: every mesh body gets its named geometry.
TEST(SceneJsonMesh, ExampleSceneFilesLoad) {
  const std::string scenes = std::string(CONTACTLAB_TEST_DATA) + "/../../scenes/";
  const Scene drop = loadSceneFile(scenes + "jack_drop.json");
  ASSERT_EQ(drop.bodies.size(), 2u);
  EXPECT_EQ(std::get<MeshShape>(drop.bodies[1].shape).geometry->source, "jack");
  const Scene gallery = loadSceneFile(scenes + "mesh_gallery.json");
  EXPECT_EQ(gallery.bodies.size(), 12u);
}

TEST(SceneJsonMesh, ErrorsNameTheSceneFileTheBodyAndTheProblem) {
  EXPECT_EQ(errorOf(R"({"bodies": [{"shape": "mesh", "mesh": "teapot", "position": [0, 0, 0]}]})")
                .rfind("mesh.json: bodies[0].mesh: unknown mesh \"teapot\" (known: ", 0),
            0u);
  EXPECT_NE(errorOf(R"({"bodies": [{"shape": "mesh", "position": [0, 0, 0]}]})").find("mesh.json: bodies[0].mesh: missing"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"bodies": [{"shape": "mesh", "mesh": "cube", "obj": "a.obj", "position": [0, 0, 0]}]})")
                .find("mesh.json: bodies[0].obj: give either mesh or obj, not both"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"bodies": [{"shape": "mesh", "mesh": "cube", "scale": -1, "position": [0, 0, 0]}]})")
                .find("mesh.json: bodies[0].scale"),
            std::string::npos);

  const TemporaryDirectory directory;
  const std::string missing = errorOf(R"({"bodies": [{"shape": "mesh", "obj": "absent.obj", "position": [0, 0, 0]}]})",
                                      (directory.path() / "scene.json").string());
  EXPECT_NE(missing.find("scene.json: bodies[0].obj: " + (directory.path() / "absent.obj").string() + ": no such OBJ file"),
            std::string::npos)
      << missing;

  // Two boxes through each other: closed and oriented, but tetgen refuses it.
  TriangleMesh crossed = boxMesh(Vec3(1.0, 0.2, 0.2));
  const TriangleMesh second = boxMesh(Vec3(0.2, 1.0, 0.2));
  for (auto t : second.triangles) crossed.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  crossed.vertices.insert(crossed.vertices.end(), second.vertices.begin(), second.vertices.end());
  directory.write("crossed.obj", objText(crossed));
  const std::string refused = errorOf(R"({"bodies": [{"name": "x", "shape": "mesh", "obj": "crossed.obj", "position": [0, 0, 0]}]})",
                                      (directory.path() / "scene.json").string());
  EXPECT_NE(refused.find("scene.json: bodies[0].obj: " + (directory.path() / "crossed.obj").string() + ": tetgen "),
            std::string::npos)
      << refused;
}

}  // namespace
}  // namespace contactlab
