#include "geometry/mesh_library.h"

#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "geometry/mesh_body_frame.h"
#include "geometry/mesh_simplification.h"
#include "geometry/procedural_meshes.h"
#include "geometry/ring_mesh.h"
#include "io/obj_reader.h"

namespace contactlab {
// This file's helpers, in a namespace of its own: a unity build compiles several files as one, and
// their file-local names must not meet.
namespace mesh_library_impl {
namespace {

// The ring of Verschoor & Jalba's "Rings" scene (sec. 6.2): 18 segments, 72 vertices, 108
// tetrahedra, 144 boundary triangles; 0.225 m across, a 2.5 cm square section (docs/meshes.md).
constexpr double kRingMajorRadius = 0.1, kRingSectionHalfWidth = 0.0125;

// A solid's tetrahedra renumbered so that their boundary's vertices come first, in their order in
// the input, and interior vertices after; `surface` is the boundary over those first vertices.
struct BoundaryFirst {
  TriangleMesh surface;
  TetMesh tets;
};

BoundaryFirst boundaryFirst(const TetMesh& input, const std::string& source) {
  const TetBoundary boundary = extractBoundary(input, source);
  const int vertexCount = static_cast<int>(input.vertices.size());
  std::vector<int> renumbered(vertexCount, -1);
  BoundaryFirst out;
  for (const int v : boundary.vertices) {  // ascending: the boundary keeps the input's order
    renumbered[v] = static_cast<int>(out.tets.vertices.size());
    out.tets.vertices.push_back(input.vertices[v]);
  }
  out.surface.vertices = out.tets.vertices;
  for (int v = 0; v < vertexCount; ++v)
    if (renumbered[v] < 0) {
      renumbered[v] = static_cast<int>(out.tets.vertices.size());
      out.tets.vertices.push_back(input.vertices[v]);
    }
  out.surface.triangles.reserve(boundary.triangles.size());
  for (const auto& [a, b, c] : boundary.triangles)
    out.surface.triangles.push_back({renumbered[a], renumbered[b], renumbered[c]});
  out.tets.tetrahedra.reserve(input.tetrahedra.size());
  for (const auto& [a, b, c, d] : input.tetrahedra)
    out.tets.tetrahedra.push_back({renumbered[a], renumbered[b], renumbered[c], renumbered[d]});
  return out;
}

// A named mesh: a surface that tetgen fills, or (`tets` set) a solid built with its own
// tetrahedra, whose surface is their boundary.
struct NamedMesh {
  std::function<TriangleMesh()> surface;
  std::function<TetMesh()> tets;
};

NamedMesh surfaceOnly(std::function<TriangleMesh()> surface) { return {std::move(surface), {}}; }

NamedMesh withTetrahedra(const std::string& name, std::function<TetMesh()> tets) {
  return {[name, tets] { return boundaryFirst(tets(), name).surface; }, tets};
}

// Every named mesh at scale 1, in metres: a scene's "scale" sizes it.
const std::map<std::string, NamedMesh>& namedMeshes() {
  static const std::map<std::string, NamedMesh> meshes = {
      {"jack", surfaceOnly([] { return jackMesh(0.5, 0.1, 1200); })},
      {"torus", surfaceOnly([] { return torusMesh(0.4, 0.1, 32, 16); })},
      {"funnel", surfaceOnly([] { return funnelMesh(1.0, 0.25, 1.0, 0.4, 0.05); })},
      {"glass", surfaceOnly([] { return glassMesh(0.5, 1.2, 0.05, 0.08); })},
      {"pawn", surfaceOnly([] { return chessPieceMesh(ChessPiece::Pawn); })},
      {"rook", surfaceOnly([] { return chessPieceMesh(ChessPiece::Rook); })},
      {"knight", surfaceOnly([] { return chessPieceMesh(ChessPiece::Knight); })},
      {"bishop", surfaceOnly([] { return chessPieceMesh(ChessPiece::Bishop); })},
      {"queen", surfaceOnly([] { return chessPieceMesh(ChessPiece::Queen); })},
      {"king", surfaceOnly([] { return chessPieceMesh(ChessPiece::King); })},
      {"bunny", surfaceOnly([] { return stanfordBunnyMesh(kBunnyPath, 1000); })},
      // Coarser for deformable bunnies: tetgen keeps the surface's triangles (-Y), so these set the
      // tetrahedron count (the bunnies scene's, docs/deformable.md).
      {"bunny-coarse", surfaceOnly([] { return stanfordBunnyMesh(kBunnyPath, 400); })},
      {"cube", surfaceOnly([] { return boxMesh(Vec3::Constant(0.5)); })},
      {"sphere", surfaceOnly([] { return uvSphereMesh(0.5, 32, 16); })},
      {"ring", withTetrahedra("ring", [] { return ringTetMesh(kRingMajorRadius, kRingSectionHalfWidth); })},
  };
  return meshes;
}

const NamedMesh& namedMesh(const std::string& name) {
  const auto it = namedMeshes().find(name);
  if (it == namedMeshes().end()) {
    std::string known;
    for (const std::string& n : meshNames()) known += (known.empty() ? "" : ", ") + n;
    throw MeshError("unknown mesh \"" + name + "\" (known: " + known + ")");
  }
  return it->second;
}

using GeometryKey = std::tuple<bool, std::string, double, double, double, std::string, std::string>;

std::shared_ptr<const MeshGeometry> sharedGeometry(const GeometryKey& key, const std::function<MeshGeometry()>& build) {
  static std::mutex mutex;
  static std::map<GeometryKey, std::shared_ptr<const MeshGeometry>> built;
  const std::lock_guard lock(mutex);
  if (const auto it = built.find(key); it != built.end()) return it->second;
  auto geometry = std::make_shared<const MeshGeometry>(build());
  built.emplace(key, geometry);
  return geometry;
}

GeometryKey tetgenKey(bool fromObj, const std::string& source, double scale, const TetgenSettings& settings) {
  return {fromObj, source, scale, settings.radiusEdgeRatio, settings.maxVolume, settings.executable,
          settings.cacheDirectory};
}

void requireScale(double scale, const std::string& source) {
  if (!(std::isfinite(scale) && scale > 0.0))
    throw MeshError(source + ": scale must be positive and finite, got " + std::to_string(scale));
}

}  // namespace
}  // namespace mesh_library_impl

const std::vector<std::string>& meshNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, mesh] : mesh_library_impl::namedMeshes()) out.push_back(name);
    return out;
  }();
  return names;
}

TriangleMesh namedSurface(const std::string& name) { return mesh_library_impl::namedMesh(name).surface(); }

std::optional<TetMesh> namedTetMesh(const std::string& name) {
  const mesh_library_impl::NamedMesh& mesh = mesh_library_impl::namedMesh(name);
  if (!mesh.tets) return std::nullopt;
  return mesh.tets();
}

TriangleMesh stanfordBunnyMesh(const std::string& path, int targetTriangles) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw MeshError(path + ": the Stanford bunny's model is missing (install the Debian package glmark2-data)");
  TriangleMesh bunny = readObjFile(path);
  // The model is y-up; bodies stand on z: a quarter turn about x, (x, y, z) -> (x, -z, y).
  for (Vec3& v : bunny.vertices) v = Vec3(v.x(), -v.z(), v.y());
  return simplifyMesh(bunny, targetTriangles);
}

MeshGeometry buildMeshGeometry(const TriangleMesh& surface, const std::string& source, bool sourceIsObjFile,
                               double scale, const TetgenSettings& settings) {
  mesh_library_impl::requireScale(scale, source);
  TriangleMesh scaled = surface;
  for (Vec3& v : scaled.vertices) v *= scale;
  const MeshInBodyFrame inBodyFrame = meshInBodyFrame(scaled, source);
  MeshGeometry geometry = inBodyFrame.geometry;
  geometry.bodyToSourceRotation = Quat(inBodyFrame.bodyToInput.rotation);
  geometry.centreOfMassInSource = inBodyFrame.bodyToInput.position;
  geometry.source = source;
  geometry.sourceIsObjFile = sourceIsObjFile;
  geometry.scale = scale;
  Tetrahedralization tets = tetrahedralize(geometry.surface, settings, source);
  geometry.tetVertices = std::move(tets.vertices);
  geometry.tetrahedra = std::move(tets.tetrahedra);
  return geometry;
}

MeshGeometry buildMeshGeometry(const TetMesh& tets, const std::string& source, double scale) {
  mesh_library_impl::requireScale(scale, source);
  TetMesh scaled = tets;
  for (Vec3& v : scaled.vertices) v *= scale;
  mesh_library_impl::BoundaryFirst parts = mesh_library_impl::boundaryFirst(scaled, source);
  const MeshInBodyFrame inBodyFrame = meshInBodyFrame(parts.surface, source);
  MeshGeometry geometry = inBodyFrame.geometry;
  const Pose& bodyToSource = inBodyFrame.bodyToInput;
  geometry.bodyToSourceRotation = Quat(bodyToSource.rotation);
  geometry.centreOfMassInSource = bodyToSource.position;
  geometry.source = source;
  geometry.sourceIsObjFile = false;
  geometry.scale = scale;
  // The inverse of bodyToSource, written as meshInBodyFrame writes it: the first vertices, the
  // surface's, come out equal to its body-frame vertices to the bit. A rotation keeps every
  // tetrahedron's orientation.
  geometry.tetVertices.reserve(parts.tets.vertices.size());
  for (const Vec3& v : parts.tets.vertices)
    geometry.tetVertices.push_back(bodyToSource.rotation.transpose() * (v - bodyToSource.position));
  geometry.tetrahedra = std::move(parts.tets.tetrahedra);
  geometry.directTetrahedra = true;
  return geometry;
}

std::shared_ptr<const MeshGeometry> namedMeshGeometry(const std::string& name, double scale,
                                                      const TetgenSettings& settings) {
  using namespace mesh_library_impl;
  const NamedMesh& mesh = namedMesh(name);
  // tetgen does not run for a mesh with its own tetrahedra: its settings do not make another geometry.
  if (mesh.tets)
    return sharedGeometry(tetgenKey(false, name, scale, TetgenSettings{}),
                          [&] { return buildMeshGeometry(mesh.tets(), name, scale); });
  return sharedGeometry(tetgenKey(false, name, scale, settings),
                        [&] { return buildMeshGeometry(mesh.surface(), name, false, scale, settings); });
}

std::shared_ptr<const MeshGeometry> objMeshGeometry(const std::string& path, double scale,
                                                    const TetgenSettings& settings) {
  using namespace mesh_library_impl;
  return sharedGeometry(tetgenKey(true, path, scale, settings),
                        [&] { return buildMeshGeometry(readObjFile(path), path, true, scale, settings); });
}

}  // namespace contactlab
