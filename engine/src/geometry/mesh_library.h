#pragma once
// Mesh geometries by name or OBJ file, ready for bodies: scaled, in the body frame, with exact mass
// properties and tetgen's tetrahedra (or, for a mesh built with its own, those: the "ring"). Each
// distinct request is built once per process and shared.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contactlab/mesh.h"
#include "geometry/tet_mesh.h"
#include "io/tetgen_bridge.h"

namespace contactlab {

// The procedural meshes a scene may name: "jack", "torus", "funnel", "glass", "pawn", "rook",
// "knight", "bishop", "queen", "king", "bunny", "bunny-coarse", "cube", "sphere", "ring", "ring" (sizes in docs/meshes.md).
// The ring is built with its own tetrahedra (ringTetMesh), the others are surfaces for tetgen.
const std::vector<std::string>& meshNames();

// The named surface at scale 1 in its own coordinates; throws MeshError for an unknown name (listing
// the known ones) and, for "bunny", when glmark2-data's model is missing.
TriangleMesh namedSurface(const std::string& name);

// The Stanford bunny of the glmark2 benchmark (Debian package glmark2-data), turned z-up and
// simplified by simplifyMesh to about `targetTriangles` (from 69,666).
inline constexpr const char* kBunnyPath = "/usr/share/glmark2/models/bunny.obj";
TriangleMesh stanfordBunnyMesh(const std::string& path, int targetTriangles);

// The named mesh's own tetrahedra at scale 1 in its own coordinates, for a mesh built with them
// (the ring; namedSurface is then their boundary); nullopt for a surface that tetgen fills. Throws
// MeshError for an unknown name, as namedSurface.
std::optional<TetMesh> namedTetMesh(const std::string& name);

// Scales the surface, moves it into the body frame (meshInBodyFrame) and tetrahedralizes it.
// Throws MeshError naming `source`.
MeshGeometry buildMeshGeometry(const TriangleMesh& surface, const std::string& source, bool sourceIsObjFile,
                               double scale, const TetgenSettings& settings);
// A solid given by its own tetrahedra: the surface is their boundary (extractBoundary), renumbered
// so that the boundary's vertices come first (in their order in `tets`) and interior ones follow;
// the tetrahedra are scaled and moved into the surface's body frame by the same transform, and kept
// as they are otherwise (directTetrahedra; tetgen does not run). Throws MeshError naming `source`
// when the tetrahedra are inconsistent (extractBoundary) or their boundary is not a closed,
// oriented surface of positive volume (meshInBodyFrame).
MeshGeometry buildMeshGeometry(const TetMesh& tets, const std::string& source, double scale);

// Shared geometries: the same name (or path), scale and settings give the same pointer. A mesh with
// its own tetrahedra ignores the tetgen settings (any settings give the same pointer).
std::shared_ptr<const MeshGeometry> namedMeshGeometry(const std::string& name, double scale,
                                                      const TetgenSettings& settings = {});
std::shared_ptr<const MeshGeometry> objMeshGeometry(const std::string& path, double scale,
                                                    const TetgenSettings& settings = {});

}  // namespace contactlab
