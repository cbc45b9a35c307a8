#include "io/vtk_writer.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/temporary_directory.h"

namespace contactlab {
// Named apart from other test files' helpers (the tests are compiled in unity batches).
namespace vtk_writer_test {
namespace {

using test::TemporaryDirectory;

// meshio (Debian python3-meshio, installed by scripts/install-deps.sh) is an independent reader of
// VTK XML files. Debian installs it for the system's interpreter, which need not be the first
// python3 on the PATH.
constexpr const char* kPython = "/usr/bin/python3";

// Reads a .vtu with meshio and a .pvd with Python's own XML parser, and prints what they hold as
// "<name> <rows>" headers each followed by its rows; floats as repr(), which reads back exactly.
constexpr const char* kReaderScript = R"(import sys
import xml.etree.ElementTree as ElementTree
import meshio

def table(name, array):
    array = array.reshape(len(array), -1)
    print(name, len(array))
    for row in array:
        print(' '.join(repr(float(x)) for x in row))

mesh = meshio.read(sys.argv[1])
table('points', mesh.points)
table('velocity', mesh.point_data['velocity'])
for block, cells in enumerate(mesh.cells):
    table('cells:' + cells.type, cells.data)
    table('stress:' + cells.type, mesh.cell_data['stress'][block])
    table('body:' + cells.type, mesh.cell_data['body'][block])
for dataset in ElementTree.parse(sys.argv[2]).getroot().iter('DataSet'):
    print('dataset', dataset.get('timestep'), dataset.get('file'))
)";

struct ReaderOutput {
  std::vector<std::pair<std::string, std::vector<std::vector<double>>>> tables;  // in the order printed
  std::vector<std::pair<double, std::string>> datasets;                          // the .pvd's (time, file)
  std::string text;                                                              // everything, for messages
};

ReaderOutput readWithMeshio(const TemporaryDirectory& directory, const std::filesystem::path& vtu,
                            const std::filesystem::path& pvd) {
  const std::string script = directory.write("read_vtk.py", kReaderScript);
  const std::string command =
      std::string(kPython) + " '" + script + "' '" + vtu.string() + "' '" + pvd.string() + "' 2>&1";
  ReaderOutput out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::array<char, 4096> buffer;
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) out.text.append(buffer.data(), n);
  const int status = pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(command + " failed (is python3-meshio installed? scripts/install-deps.sh):\n" + out.text);
  std::istringstream lines(out.text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name == "dataset") {
      double time = 0.0;
      std::string file;
      fields >> time >> file;
      out.datasets.emplace_back(time, file);
      continue;
    }
    std::size_t rows = 0;
    fields >> rows;
    std::vector<std::vector<double>> table;
    for (std::size_t r = 0; r < rows && std::getline(lines, line); ++r) {
      std::istringstream values(line);
      std::vector<double> row;
      for (double value; values >> value;) row.push_back(value);
      table.push_back(std::move(row));
    }
    out.tables.emplace_back(name, std::move(table));
  }
  return out;
}

// A deformable body of two tetrahedra sharing a face, moved by `shift`.
VtkBody jelly(double shift) {
  VtkBody body;
  body.name = "jelly <1> -- soft";
  body.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.7, 0.7, 0.7}};
  for (Vec3& p : body.points) p += Vec3(shift, 0.1, 1.0 / 3.0);
  body.velocities = {{0.1, 0.2, 0.3}, {-1, 0, 0}, {0, -2.5, 0}, {0, 0, 1e-7}, {shift, 1.0 / 3.0, -0.0}};
  body.tetrahedra = {{0, 1, 2, 3}, {1, 4, 2, 3}};
  body.tetStress = {1234.5, 6.02e23 * shift};
  return body;
}

// A rigid body's surface: a square of two triangles, no velocities given.
VtkBody floorBody() {
  VtkBody body;
  body.name = "floor";
  body.points = {{-5, -5, 0}, {5, -5, 0}, {5, 5, 0}, {-5, 5, 0}};
  body.triangles = {{0, 1, 2}, {0, 2, 3}};
  return body;
}

std::vector<std::vector<double>> rowsOf(const std::vector<Vec3>& vectors) {
  std::vector<std::vector<double>> rows;
  for (const Vec3& v : vectors) rows.push_back({v.x(), v.y(), v.z()});
  return rows;
}

template <std::size_t N>
std::vector<std::vector<double>> rowsOf(const std::vector<std::array<int, N>>& cells, int offset) {
  std::vector<std::vector<double>> rows;
  for (const auto& cell : cells) {
    std::vector<double> row;
    for (const int v : cell) row.push_back(v + offset);
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::vector<double>> column(const std::vector<double>& values) {
  std::vector<std::vector<double>> rows;
  for (const double v : values) rows.push_back({v});
  return rows;
}

// Two frames of a tetrahedral body and a triangle body, read back by meshio: the points of both
// bodies in order, the tetrahedra then the triangles (numbered in the frame's point list), the
// velocities (zeros where none were given), von Mises stress (0 on the rigid body's cells) and
// each cell's body; the .pvd lists both frames with their times.
TEST(VtkWriter, MeshioReadsBackEveryFrame) {
  const TemporaryDirectory directory;
  VtkSeriesWriter writer(directory.path() / "out" / "run", "drop");
  const std::vector<double> times = {0.0, 1.0 / 60.0};
  for (std::size_t frame = 0; frame < times.size(); ++frame) {
    writer.writeFrame(times[frame], {jelly(0.5 * frame), floorBody()});
    EXPECT_EQ(writer.frameCount(), frame + 1);
  }
  EXPECT_EQ(writer.collectionPath(), directory.path() / "out" / "run" / "drop.pvd");
  EXPECT_EQ(writer.framePath(1), directory.path() / "out" / "run" / "drop_000001.vtu");

  for (std::size_t frame = 0; frame < times.size(); ++frame) {
    SCOPED_TRACE(frame);
    const ReaderOutput read = readWithMeshio(directory, writer.framePath(frame), writer.collectionPath());
    const VtkBody body = jelly(0.5 * frame), floor = floorBody();
    std::vector<Vec3> points = body.points, velocities = body.velocities;
    points.insert(points.end(), floor.points.begin(), floor.points.end());
    velocities.resize(points.size(), Vec3::Zero());
    const std::vector<std::pair<std::string, std::vector<std::vector<double>>>> expected = {
        {"points", rowsOf(points)},
        {"velocity", rowsOf(velocities)},
        {"cells:tetra", rowsOf(body.tetrahedra, 0)},
        {"stress:tetra", column(body.tetStress)},
        {"body:tetra", column({0, 0})},
        {"cells:triangle", rowsOf(floor.triangles, 5)},
        {"stress:triangle", column({0, 0})},
        {"body:triangle", column({1, 1})}};
    EXPECT_EQ(read.tables, expected) << read.text;
    const std::vector<std::pair<double, std::string>> datasets = {{times[0], "drop_000000.vtu"},
                                                                  {times[1], "drop_000001.vtu"}};
    EXPECT_EQ(read.datasets, datasets) << read.text;
  }
}

// After each frame the .pvd is complete: a run stopped after its first frame has a valid series of
// one frame.
TEST(VtkWriter, CollectionIsValidAfterEveryFrame) {
  const TemporaryDirectory directory;
  VtkSeriesWriter writer(directory.path(), "single");
  writer.writeFrame(2.5, {floorBody()});
  const ReaderOutput read = readWithMeshio(directory, writer.framePath(0), writer.collectionPath());
  EXPECT_EQ(read.datasets, (std::vector<std::pair<double, std::string>>{{2.5, "single_000000.vtu"}})) << read.text;
  // No temporary files are left beside the series.
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory.path()))
    if (entry.path().extension() != ".py") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"single.pvd", "single_000000.vtu"}));
}

std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

TEST(VtkWriter, ErrorsNameThePathAndTheProblem) {
  const TemporaryDirectory directory;
  // A file where a directory should be.
  const std::string blocker = directory.write("blocker", "not a directory");
  const std::string created = errorOf([&] { VtkSeriesWriter(std::filesystem::path(blocker) / "frames", "run"); });
  EXPECT_EQ(created.rfind("cannot create the VTK output directory " + blocker + "/frames: ", 0), 0u) << created;
  EXPECT_THROW(VtkSeriesWriter(directory.path(), ""), std::invalid_argument);
  EXPECT_THROW(VtkSeriesWriter(directory.path(), "a/b"), std::invalid_argument);

  // The directory vanishes after the writer made it: the frame cannot be written.
  VtkSeriesWriter writer(directory.path() / "gone", "run");
  std::filesystem::remove(directory.path() / "gone");
  const std::string written = errorOf([&] { writer.writeFrame(0.0, {floorBody()}); });
  EXPECT_EQ(written.rfind("cannot write VTK file " + (directory.path() / "gone" / "run_000000.vtu").string() + ": ", 0), 0u)
      << written;

  VtkSeriesWriter checked(directory.path(), "checked");
  VtkBody bad = floorBody();
  bad.triangles.push_back({0, 1, 4});
  const std::string index = errorOf([&] { checked.writeFrame(0.0, {jelly(0.0), bad}); });
  EXPECT_EQ(index, (directory.path() / "checked_000000.vtu").string() +
                       ": body 1 (\"floor\"): triangle 2 uses point 4, out of range [0, 4)");
  VtkBody fewVelocities = jelly(0.0);
  fewVelocities.velocities.pop_back();
  EXPECT_NE(errorOf([&] { checked.writeFrame(0.0, {fewVelocities}); }).find("4 velocities for 5 points"), std::string::npos);
  VtkBody fewStresses = jelly(0.0);
  fewStresses.tetStress.pop_back();
  EXPECT_NE(errorOf([&] { checked.writeFrame(0.0, {fewStresses}); }).find("1 stresses for 2 tetrahedra"), std::string::npos);
  EXPECT_THROW(checked.writeFrame(std::nan(""), {floorBody()}), std::invalid_argument);
  EXPECT_EQ(checked.frameCount(), 0u);
}

}  // namespace
}  // namespace vtk_writer_test
}  // namespace contactlab
