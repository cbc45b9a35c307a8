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

}  // namespace contactlab::render
