#include "io/obj_reader.h"

#include <gtest/gtest.h>

#include "geometry/mesh_mass_properties.h"
#include "support/temporary_directory.h"

namespace contactlab {
namespace {

using test::TemporaryDirectory;

// The unit cube written with quads, a vertex per face corner repeated (as some exporters do), a
// comment, a normal and a texture coordinate that the reader must ignore.
constexpr const char* kQuadCube = R"(# unit cube
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
v 0 0 0
vn 0 0 -1
vt 0 0
f 9/1/1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
)";

TEST(ObjReader, QuadsAreTriangulatedAndRepeatedPositionsWelded) {
  const TemporaryDirectory directory;
  const TriangleMesh mesh = readObjFile(directory.write("cube.obj", kQuadCube));
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_NO_THROW(requireClosedOrientedSurface(mesh, "cube.obj"));
  EXPECT_NEAR(integrateMassProperties(mesh).volume, 1.0, 1e-15);
}

void expectObjError(const std::string& path, const std::string& fragment) {
  try {
    readObjFile(path);
    FAIL() << "no error; expected one mentioning " << fragment;
  } catch (const MeshError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

TEST(ObjReader, BadFilesGiveErrorsNamingTheFile) {
  const TemporaryDirectory directory;
  expectObjError((directory.path() / "absent.obj").string(), "no such OBJ file");
  expectObjError(directory.write("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"), "no faces");
  expectObjError(directory.write("nan.obj", "v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n"), "vertex 2 has a coordinate that is not a finite number");
  // tinyobjloader reads these as 0; the reader checks the 'v' lines itself.
  expectObjError(directory.write("text.obj", "v 0 0 0\nv 1 abc 0\nv 0 1 0\nf 1 2 3\n"),
                 "line 2: vertex 2 has a coordinate that is not a number: \"abc\"");
  expectObjError(directory.write("nanword.obj", "# c\nv 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n"),
                 "line 3: vertex 2 has a coordinate that is not a finite number: \"nan\"");
  expectObjError(directory.write("short.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n"), "vertex 2 has 2 coordinates");
  expectObjError(directory.path().string(), "is a directory");
  expectObjError(directory.write("range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n"), "face 1 refers to vertex 7, but the file has 3 vertices");
  // A closed cube plus a face line with two corners, and a quad with an index out of range: the
  // loader skips such faces, which would leave the rest loading as if the file were whole.
  expectObjError(directory.write("two.obj", std::string(kQuadCube) + "f 1 2\n"), "Degenerated face found");
  expectObjError(directory.write("quad.obj", std::string(kQuadCube) + "f 1 2 3 99\n"), "invalid vertex index");
}

}  // namespace
}  // namespace contactlab
