#include "geometry/mesh_library.h"

#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <tuple>

#include "geometry/mesh_body_frame.h"
#include "geometry/mesh_simplification.h"
#include "geometry/procedural_meshes.h"
#include "io/obj_reader.h"

namespace contactlab {
namespace {

// Every named mesh at scale 1, in metres: a scene's "scale" sizes it.
const std::map<std::string, std::function<TriangleMesh()>>& namedBuilders() {
  static const std::map<std::string, std::function<TriangleMesh()>> builders = {
      {"jack", [] { return jackMesh(0.5, 0.1, 1200); }},
      {"torus", [] { return torusMesh(0.4, 0.1, 32, 16); }},
      {"funnel", [] { return funnelMesh(1.0, 0.25, 1.0, 0.4, 0.05); }},
      {"glass", [] { return glassMesh(0.5, 1.2, 0.05, 0.08); }},
      {"pawn", [] { return chessPieceMesh(ChessPiece::Pawn); }},
      {"rook", [] { return chessPieceMesh(ChessPiece::Rook); }},
      {"knight", [] { return chessPieceMesh(ChessPiece::Knight); }},
      {"bishop", [] { return chessPieceMesh(ChessPiece::Bishop); }},
      {"queen", [] { return chessPieceMesh(ChessPiece::Queen); }},
      {"king", [] { return chessPieceMesh(ChessPiece::King); }},
      {"bunny", [] { return stanfordBunnyMesh(kBunnyPath, 1000); }},
      {"cube", [] { return boxMesh(Vec3::Constant(0.5)); }},
      {"sphere", [] { return uvSphereMesh(0.5, 32, 16); }},
  };
  return builders;
}

using GeometryKey = std::tuple<bool, std::string, double, double, double, std::string, std::string>;

std::shared_ptr<const MeshGeometry> sharedGeometry(bool fromObj, const std::string& source, double scale,
                                                   const TetgenSettings& settings,
                                                   const std::function<TriangleMesh()>& surface) {
  static std::mutex mutex;
  static std::map<GeometryKey, std::shared_ptr<const MeshGeometry>> built;
  const GeometryKey key{fromObj, source, scale, settings.radiusEdgeRatio, settings.maxVolume, settings.executable,
                        settings.cacheDirectory};
  const std::lock_guard lock(mutex);
  if (const auto it = built.find(key); it != built.end()) return it->second;
  auto geometry = std::make_shared<const MeshGeometry>(buildMeshGeometry(surface(), source, fromObj, scale, settings));
  built.emplace(key, geometry);
  return geometry;
}

}  // namespace

const std::vector<std::string>& meshNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, builder] : namedBuilders()) out.push_back(name);
    return out;
  }();
  return names;
}

TriangleMesh namedSurface(const std::string& name) {
  const auto it = namedBuilders().find(name);
  if (it == namedBuilders().end()) {
    std::string known;
    for (const std::string& n : meshNames()) known += (known.empty() ? "" : ", ") + n;
    throw MeshError("unknown mesh \"" + name + "\" (known: " + known + ")");
  }
  return it->second();
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
  if (!(std::isfinite(scale) && scale > 0.0))
    throw MeshError(source + ": scale must be positive and finite, got " + std::to_string(scale));
  TriangleMesh scaled = surface;
  for (Vec3& v : scaled.vertices) v *= scale;
  MeshGeometry geometry = meshInBodyFrame(scaled, source).geometry;
  geometry.source = source;
  geometry.sourceIsObjFile = sourceIsObjFile;
  geometry.scale = scale;
  Tetrahedralization tets = tetrahedralize(geometry.surface, settings, source);
  geometry.tetVertices = std::move(tets.vertices);
  geometry.tetrahedra = std::move(tets.tetrahedra);
  return geometry;
}

std::shared_ptr<const MeshGeometry> namedMeshGeometry(const std::string& name, double scale,
                                                      const TetgenSettings& settings) {
  return sharedGeometry(false, name, scale, settings, [&] { return namedSurface(name); });
}

std::shared_ptr<const MeshGeometry> objMeshGeometry(const std::string& path, double scale,
                                                    const TetgenSettings& settings) {
  return sharedGeometry(true, path, scale, settings, [&] { return readObjFile(path); });
}

}  // namespace contactlab
