#pragma once
// A raw closed surface (an OBJ file's coordinates, a procedural mesh) moved into the body frame
// every body uses: centre of mass at the origin, principal axes of inertia along x, y, z.
#include <string>

#include "contactlab/mesh.h"
#include "geometry/shape_geometry.h"

namespace contactlab {

struct MeshInBodyFrame {
  // surface, volume, principal inertia, bounds and bounding radius filled; no tetrahedra yet, and
  // source / scale left for the caller.
  MeshGeometry geometry;
  // Body frame -> the input's frame: x_input = rotation x_body + position. A body placed at this
  // pose sits exactly where the input's coordinates put the mesh.
  Pose bodyToInput;
};

// Throws MeshError naming `source` when the surface is not closed and consistently oriented
// (requireClosedOrientedSurface) or encloses no positive volume (inside out).
MeshInBodyFrame meshInBodyFrame(const TriangleMesh& input, const std::string& source);

}  // namespace contactlab
