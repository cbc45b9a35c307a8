#pragma once
// Vertex data of the unit meshes named by MeshKind (see instances.h): positions and outward
// normals interleaved, triangles wound counter-clockwise seen from outside.
#include <cstdint>
#include <vector>

#include "contactlab/render/instances.h"

namespace contactlab::render {

struct MeshData {
  std::vector<float> vertices;  // x, y, z, nx, ny, nz per vertex
  std::vector<std::uint32_t> indices;
};

MeshData buildUnitMesh(MeshKind kind);

// A mesh body's surface for drawing: each corner takes the area-weighted mean normal of the
// triangles round its vertex that bend less than 40 degrees from its own triangle, so curved
// surfaces look smooth and creases (a box's edges, a rook's battlements) stay sharp.
MeshData buildSurfaceMesh(const TriangleMesh& surface);

}  // namespace contactlab::render
