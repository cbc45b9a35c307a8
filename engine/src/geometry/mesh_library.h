#pragma once
// Mesh geometries by name or OBJ file, ready for bodies: scaled, in the body frame, with exact mass
// properties and tetgen's tetrahedra. Each distinct request is built once per process and shared.
#include <memory>
#include <string>
#include <vector>

#include "contactlab/mesh.h"
#include "io/tetgen_bridge.h"

namespace contactlab {

// The procedural meshes a scene may name: "jack", "torus", "funnel", "glass", "pawn", "rook",
// "knight", "bishop", "queen", "king", "bunny", "cube", "sphere" (sizes in docs/meshes.md).
const std::vector<std::string>& meshNames();

// The named surface at scale 1 in its own coordinates; throws MeshError for an unknown name (listing
// the known ones) and, for "bunny", when glmark2-data's model is missing.
TriangleMesh namedSurface(const std::string& name);

// The Stanford bunny of the glmark2 benchmark (Debian package glmark2-data), turned z-up and
// simplified by simplifyMesh to about `targetTriangles` (from 69,666).
inline constexpr const char* kBunnyPath = "/usr/share/glmark2/models/bunny.obj";
TriangleMesh stanfordBunnyMesh(const std::string& path, int targetTriangles);

// Scales the surface, moves it into the body frame (meshInBodyFrame) and tetrahedralizes it.
// Throws MeshError naming `source`.
MeshGeometry buildMeshGeometry(const TriangleMesh& surface, const std::string& source, bool sourceIsObjFile,
                               double scale, const TetgenSettings& settings);

// Shared geometries: the same name (or path), scale and settings give the same pointer.
std::shared_ptr<const MeshGeometry> namedMeshGeometry(const std::string& name, double scale,
                                                      const TetgenSettings& settings = {});
std::shared_ptr<const MeshGeometry> objMeshGeometry(const std::string& path, double scale,
                                                    const TetgenSettings& settings = {});

}  // namespace contactlab
