#include "io/obj_reader.h"

#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <tiny_obj_loader.h>

namespace contactlab {

namespace {

// tinyobjloader reads a coordinate it cannot parse ("nan", "abc") as 0 and says nothing, so a
// broken vertex would load as a vertex at the origin: the 'v' lines are checked here first. The
// first three numbers are the position (a fourth, w, or three colour values may follow).
void checkVertexLines(const std::string& text, const std::function<void(const std::string&)>& fail) {
  std::istringstream in(text);
  std::string line;
  int vertex = 0;
  for (int lineNumber = 1; std::getline(in, line); ++lineNumber) {
    std::istringstream tokens(line);
    std::string keyword;
    if (!(tokens >> keyword) || keyword != "v") continue;
    ++vertex;
    for (int axis = 0; axis < 3; ++axis) {
      std::string token;
      const std::string where = "line " + std::to_string(lineNumber) + ": vertex " + std::to_string(vertex);
      if (!(tokens >> token)) fail(where + " has " + std::to_string(axis) + " coordinates; a vertex needs x y z");
      double value = 0.0;
      const char* const begin = token.data() + (token.starts_with('+') ? 1 : 0);  // from_chars takes no '+'
      const auto [end, error] = std::from_chars(begin, token.data() + token.size(), value);
      if (error == std::errc::result_out_of_range || (error == std::errc() && !std::isfinite(value)))
        fail(where + " has a coordinate that is not a finite number: \"" + token + "\"");
      if (error != std::errc() || end != token.data() + token.size())
        fail(where + " has a coordinate that is not a number: \"" + token + "\"");
    }
  }
}

}  // namespace

TriangleMesh readObjFile(const std::string& path) {
  const auto fail = [&](const std::string& what) { throw MeshError(path + ": " + what); };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("is a directory, not an OBJ file");
  if (!std::filesystem::is_regular_file(path, ec)) fail("no such OBJ file");
  std::ifstream file(path, std::ios::binary);
  std::ostringstream contents;
  if (!(contents << file.rdbuf())) fail("cannot be read");
  const std::string text = contents.str();
  checkVertexLines(text, fail);

  tinyobj::attrib_t attributes;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warnings, errors;
  // No material reader: materials do not matter here, and a missing .mtl must not fail the load.
  std::istringstream stream(text);
  const bool loaded = tinyobj::LoadObj(&attributes, &shapes, &materials, &warnings, &errors, &stream, nullptr,
                                       /*triangulate=*/true);
  if (!loaded) fail("not a readable OBJ file: " + (errors.empty() ? std::string("tinyobjloader gave no reason") : errors));
  // tinyobjloader skips a face with fewer than three corners, or (when it triangulates a quad) one
  // with a corner index out of range, and says so only in its warnings; a surface with a face
  // missing must not load as if the file were whole. Its other warnings (materials) do not matter.
  for (const char* dropped : {"Degenerated face found", "Face with invalid vertex index found"})
    if (warnings.find(dropped) != std::string::npos)
      fail(std::string("a face was skipped by tinyobjloader: ") + dropped +
           " (every 'f' line needs at least three valid vertex indices)");

  const std::size_t fileVertexCount = attributes.vertices.size() / 3;
  TriangleMesh mesh;
  std::map<std::array<double, 3>, int> weldedIndex;  // position -> index in mesh.vertices
  std::vector<int> meshIndexOfFileVertex(fileVertexCount, -1);
  const auto meshVertex = [&](int fileIndex, std::size_t face) {
    if (fileIndex < 0 || static_cast<std::size_t>(fileIndex) >= fileVertexCount)
      fail("face " + std::to_string(face + 1) + " refers to vertex " + std::to_string(fileIndex + 1) + ", but the file has " +
           std::to_string(fileVertexCount) + " vertices");
    int& index = meshIndexOfFileVertex[fileIndex];
    if (index < 0) {
      const std::array<double, 3> position = {attributes.vertices[3 * fileIndex], attributes.vertices[3 * fileIndex + 1],
                                              attributes.vertices[3 * fileIndex + 2]};
      const auto [it, added] = weldedIndex.emplace(position, static_cast<int>(mesh.vertices.size()));
      if (added) mesh.vertices.emplace_back(position[0], position[1], position[2]);
      index = it->second;
    }
    return index;
  };

  std::size_t face = 0;  // counted over all objects, as a reader of the file would
  for (const tinyobj::shape_t& shape : shapes) {
    std::size_t corner = 0;
    for (const unsigned char faceSize : shape.mesh.num_face_vertices) {
      if (faceSize != 3) fail("face " + std::to_string(face + 1) + " has " + std::to_string(faceSize) + " corners after triangulation");
      std::array<int, 3> triangle;
      for (int k = 0; k < 3; ++k) triangle[k] = meshVertex(shape.mesh.indices[corner + k].vertex_index, face);
      mesh.triangles.push_back(triangle);
      corner += 3;
      ++face;
    }
  }
  if (mesh.triangles.empty()) fail("no faces (an OBJ surface needs 'f' lines)");
  return mesh;
}

}  // namespace contactlab
