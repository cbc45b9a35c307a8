#pragma once
// A deformable body's boundary as drawn this frame: its surface nodes where the last step left
// them, with smooth normals, and the boundary triangles over them. GL-free so it can be tested; the
// renderer uploads it as it is, every frame, into a buffer of its own.
#include <cstdint>
#include <vector>

#include "contactlab/render/bounds.h"
#include "contactlab/world.h"

namespace contactlab::render {

struct DeformableSurface {
  std::vector<float> vertices;         // 6 per surface node: x, y, z, nx, ny, nz (the unit meshes' layout)
  std::vector<std::uint32_t> indices;  // 3 per boundary triangle, counter-clockwise from outside
  std::vector<int> nodes;              // per vertex: its node in the mesh (for per-node values such as stress)
  Bounds bounds{Vec3::Zero(), Vec3::Zero()};  // of the surface nodes, world frame
  int vertexCount() const { return static_cast<int>(vertices.size() / 6); }
};

// Fills `surface` (its storage is reused) with the boundary of `mesh`: one vertex per node that a
// boundary triangle uses, interior nodes left out. A vertex's normal is the mean of its triangles'
// normals weighted by their angles at the vertex, so that it does not depend on how the mesher split
// a face and the body is lit smoothly as it bends. Returns false, leaving `surface` empty, when a
// surface node is not finite (a blown-up body is not drawn).
bool buildDeformableSurface(const DeformableMeshView& mesh, DeformableSurface& surface);

}  // namespace contactlab::render
