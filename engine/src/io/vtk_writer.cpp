#include "io/vtk_writer.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace contactlab {
// This file's helpers, in a namespace of its own: a unity build compiles several files as one, and
// their file-local names must not meet.
namespace vtk_writer_impl {
namespace {

namespace fs = std::filesystem;

constexpr int kVtkTriangle = 5;
constexpr int kVtkTetrahedron = 10;

// The shortest text that reads back as the same double (std::to_chars), so ASCII loses nothing.
void appendNumber(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void appendNumber(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

// Text for an XML attribute value.
std::string escapedAttribute(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Text for an XML comment, which may not hold "--" nor end in '-'.
std::string commentText(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '-' && !out.empty() && out.back() == '-') out += ' ';
    out += c;
  }
  if (!out.empty() && out.back() == '-') out += ' ';
  return out;
}

// The body's problem, or "" when it can be written.
std::string bodyProblem(const VtkBody& body) {
  const std::size_t pointCount = body.points.size();
  if (!body.velocities.empty() && body.velocities.size() != pointCount)
    return std::to_string(body.velocities.size()) + " velocities for " + std::to_string(pointCount) + " points";
  if (!body.tetStress.empty() && body.tetStress.size() != body.tetrahedra.size())
    return std::to_string(body.tetStress.size()) + " stresses for " + std::to_string(body.tetrahedra.size()) +
           " tetrahedra";
  const auto badIndex = [&](int v) { return v < 0 || static_cast<std::size_t>(v) >= pointCount; };
  for (std::size_t t = 0; t < body.tetrahedra.size(); ++t)
    for (const int v : body.tetrahedra[t])
      if (badIndex(v))
        return "tetrahedron " + std::to_string(t) + " uses point " + std::to_string(v) + ", out of range [0, " +
               std::to_string(pointCount) + ")";
  for (std::size_t t = 0; t < body.triangles.size(); ++t)
    for (const int v : body.triangles[t])
      if (badIndex(v))
        return "triangle " + std::to_string(t) + " uses point " + std::to_string(v) + ", out of range [0, " +
               std::to_string(pointCount) + ")";
  return {};
}

// One DataArray of `count` tuples, each written by `row(i, out)`.
template <class Row>
void appendDataArray(std::string& out, const std::string& attributes, std::size_t count, const Row& row) {
  out += "        <DataArray " + attributes + " format=\"ascii\">\n";
  for (std::size_t i = 0; i < count; ++i) {
    out += "          ";
    row(i, out);
    out += '\n';
  }
  out += "        </DataArray>\n";
}

void appendVec3(std::string& out, const Vec3& v) {
  appendNumber(out, v.x());
  out += ' ';
  appendNumber(out, v.y());
  out += ' ';
  appendNumber(out, v.z());
}

std::string unstructuredGrid(const std::vector<VtkBody>& bodies) {
  // A cell, its points numbered in the frame's list of all bodies' points.
  struct Cell {
    std::array<std::int64_t, 4> points;
    int corners;
    double stress;
    int body;
  };
  std::vector<const Vec3*> points, velocities;
  std::vector<Cell> cells;
  std::string names;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const VtkBody& body = bodies[b];
    const auto offset = static_cast<std::int64_t>(points.size());
    names += (names.empty() ? "" : ", ") + std::to_string(b) + " = " + body.name;
    for (std::size_t p = 0; p < body.points.size(); ++p) {
      points.push_back(&body.points[p]);
      velocities.push_back(body.velocities.empty() ? nullptr : &body.velocities[p]);
    }
    for (std::size_t t = 0; t < body.tetrahedra.size(); ++t) {
      const auto& tet = body.tetrahedra[t];
      cells.push_back({{offset + tet[0], offset + tet[1], offset + tet[2], offset + tet[3]}, 4,
                       body.tetStress.empty() ? 0.0 : body.tetStress[t], static_cast<int>(b)});
    }
    for (const auto& tri : body.triangles)
      cells.push_back({{offset + tri[0], offset + tri[1], offset + tri[2], 0}, 3, 0.0, static_cast<int>(b)});
  }

  std::string out = "<?xml version=\"1.0\"?>\n";
  out += "<!-- bodies: " + commentText(names) + " -->\n";
  out += "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <UnstructuredGrid>\n";
  out += "    <Piece NumberOfPoints=\"" + std::to_string(points.size()) + "\" NumberOfCells=\"" +
         std::to_string(cells.size()) + "\">\n";
  out += "      <PointData Vectors=\"velocity\">\n";
  appendDataArray(out, "type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\"", points.size(),
                  [&](std::size_t i, std::string& o) { appendVec3(o, velocities[i] ? *velocities[i] : Vec3::Zero()); });
  out += "      </PointData>\n";
  out += "      <CellData Scalars=\"stress\">\n";
  appendDataArray(out, "type=\"Float64\" Name=\"stress\"", cells.size(),
                  [&](std::size_t i, std::string& o) { appendNumber(o, cells[i].stress); });
  appendDataArray(out, "type=\"Int32\" Name=\"body\"", cells.size(),
                  [&](std::size_t i, std::string& o) { appendNumber(o, static_cast<std::int64_t>(cells[i].body)); });
  out += "      </CellData>\n";
  out += "      <Points>\n";
  appendDataArray(out, "type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"", points.size(),
                  [&](std::size_t i, std::string& o) { appendVec3(o, *points[i]); });
  out += "      </Points>\n";
  out += "      <Cells>\n";
  appendDataArray(out, "type=\"Int64\" Name=\"connectivity\"", cells.size(), [&](std::size_t i, std::string& o) {
    for (int k = 0; k < cells[i].corners; ++k) {
      if (k > 0) o += ' ';
      appendNumber(o, cells[i].points[k]);
    }
  });
  std::int64_t end = 0;
  appendDataArray(out, "type=\"Int64\" Name=\"offsets\"", cells.size(), [&](std::size_t i, std::string& o) {
    appendNumber(o, end += cells[i].corners);
  });
  appendDataArray(out, "type=\"UInt8\" Name=\"types\"", cells.size(), [&](std::size_t i, std::string& o) {
    appendNumber(o, static_cast<std::int64_t>(cells[i].corners == 4 ? kVtkTetrahedron : kVtkTriangle));
  });
  out += "      </Cells>\n";
  out += "    </Piece>\n";
  out += "  </UnstructuredGrid>\n";
  out += "</VTKFile>\n";
  return out;
}

// Writes under a temporary name in the same directory, then renames: a reader (ParaView watching the
// series, or a run killed mid-write) sees the old file or the new one, never half of one.
void replaceFile(const fs::path& file, const std::string& text) {
  const fs::path partial = file.string() + ".partial." + std::to_string(::getpid());
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write VTK file " + file.string() + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(partial, ignored);
      throw std::runtime_error("cannot write VTK file " + file.string() + ": " + reason);
    }
  }
  std::error_code ec;
  fs::rename(partial, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(partial, ignored);
    throw std::runtime_error("cannot write VTK file " + file.string() + ": " + ec.message());
  }
}

}  // namespace
}  // namespace vtk_writer_impl

VtkSeriesWriter::VtkSeriesWriter(std::filesystem::path directory, std::string baseName)
    : directory_(std::move(directory)), baseName_(std::move(baseName)) {
  if (baseName_.empty() || baseName_.find('/') != std::string::npos)
    throw std::invalid_argument("VTK series in " + directory_.string() + ": the base name \"" + baseName_ +
                                "\" must be a non-empty file name without '/'");
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec || !std::filesystem::is_directory(directory_))
    throw std::runtime_error("cannot create the VTK output directory " + directory_.string() + ": " +
                             (ec ? ec.message() : "a file of that name is in the way"));
}

std::filesystem::path VtkSeriesWriter::framePath(std::size_t index) const {
  std::string number = std::to_string(index);
  if (number.size() < 6) number.insert(0, 6 - number.size(), '0');
  return directory_ / (baseName_ + "_" + number + ".vtu");
}

void VtkSeriesWriter::writeFrame(double time, const std::vector<VtkBody>& bodies) {
  const std::filesystem::path frame = framePath(times_.size());
  if (!std::isfinite(time))
    throw std::invalid_argument(frame.string() + ": the frame's time must be finite, got " + std::to_string(time));
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (const std::string problem = vtk_writer_impl::bodyProblem(bodies[b]); !problem.empty())
      throw std::invalid_argument(frame.string() + ": body " + std::to_string(b) + " (\"" + bodies[b].name +
                                  "\"): " + problem);
  vtk_writer_impl::replaceFile(frame, vtk_writer_impl::unstructuredGrid(bodies));
  times_.push_back(time);

  // The collection: frame files by name relative to it, so the directory can be moved whole.
  std::string pvd = "<?xml version=\"1.0\"?>\n";
  pvd += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  pvd += "  <Collection>\n";
  for (std::size_t i = 0; i < times_.size(); ++i) {
    pvd += "    <DataSet timestep=\"";
    vtk_writer_impl::appendNumber(pvd, times_[i]);
    pvd += "\" group=\"\" part=\"0\" file=\"" + vtk_writer_impl::escapedAttribute(framePath(i).filename().string()) +
           "\"/>\n";
  }
  pvd += "  </Collection>\n";
  pvd += "</VTKFile>\n";
  vtk_writer_impl::replaceFile(collectionPath(), pvd);
}

}  // namespace contactlab
