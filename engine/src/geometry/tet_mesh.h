#pragma once
// A tetrahedral mesh of a deformable body (Verschoor & Jalba sec. 2.1) and its boundary surface, the
// part that collides (sec. 2.3: vertex-face and edge-edge pairs).
#include <array>
#include <string>
#include <vector>

#include "contactlab/mesh.h"

namespace contactlab {

struct TetMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 4>> tetrahedra;  // positively oriented: det[b-a, c-a, d-a] > 0
};

// The faces that belong to one tetrahedron only, counter-clockwise seen from outside, and what the
// collision code walks: surface vertices (ascending), unique surface edges (a < b, sorted).
struct TetBoundary {
  std::vector<std::array<int, 3>> triangles;  // indices into TetMesh::vertices
  std::vector<std::array<int, 2>> edges;
  std::vector<int> vertices;
};

// The edges of `triangles`, each once as (a, b) with a < b, sorted.
std::vector<std::array<int, 2>> uniqueEdges(const std::vector<std::array<int, 3>>& triangles);

// Throws MeshError naming `source` when a tetrahedron has an index out of range or is not positively
// oriented (volume <= 0), or when a face is shared by more than two tetrahedra or by two on the
// same side of it (overlapping tetrahedra).
TetBoundary extractBoundary(const TetMesh& mesh, const std::string& source);

// A box of `size` centred at the origin cut into nx x ny x nz cells of 6 tetrahedra each (the Kuhn
// split along each cell's main diagonal, which makes neighbouring cells' faces match). For beams,
// bars and slabs whose resolution a test or scene states exactly. Throws std::invalid_argument for a
// division below 1 or a non-positive size.
TetMesh boxTetMesh(const Vec3& size, int nx, int ny, int nz);

}  // namespace contactlab
