#include "geometry/tet_mesh.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {
// This file's helpers, in a namespace of its own: a unity build compiles several files as one, and
// their file-local names must not meet.
namespace tet_mesh_impl {
namespace {

// det[b-a, c-a, d-a] / 6: the signed volume of the tetrahedron (a, b, c, d).
double signedVolume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

// The faces of a positively oriented tetrahedron (a, b, c, d), each counter-clockwise seen from
// outside: the face opposite a vertex, taken in an odd permutation of the tetrahedron's order,
// has its normal pointing away from that vertex.
constexpr std::array<std::array<int, 3>, 4> kOutwardFaces{{{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}}};

struct FaceUse {
  std::array<int, 3> key;  // the face's vertices in ascending order
  int tet;
  int face;  // into kOutwardFaces
};

// The face as the tetrahedron sees it from outside.
std::array<int, 3> orientedFace(const TetMesh& mesh, const FaceUse& use) {
  const auto& tet = mesh.tetrahedra[use.tet];
  const auto& corners = kOutwardFaces[use.face];
  return {tet[corners[0]], tet[corners[1]], tet[corners[2]]};
}

// Two tetrahedra on opposite sides of a face see it in opposite orders; the same cyclic order means
// both lie on one side.
bool sameSide(const TetMesh& mesh, const FaceUse& a, const FaceUse& b) {
  const std::array<int, 3> fa = orientedFace(mesh, a), fb = orientedFace(mesh, b);
  for (int shift = 0; shift < 3; ++shift)
    if (fa[0] == fb[shift] && fa[1] == fb[(shift + 1) % 3]) return true;
  return false;
}

}  // namespace
}  // namespace tet_mesh_impl

std::vector<std::array<int, 2>> uniqueEdges(const std::vector<std::array<int, 3>>& triangles) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(3 * triangles.size());
  for (const auto& tri : triangles)
    for (int k = 0; k < 3; ++k) edges.push_back({std::min(tri[k], tri[(k + 1) % 3]), std::max(tri[k], tri[(k + 1) % 3])});
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

TetBoundary extractBoundary(const TetMesh& mesh, const std::string& source) {
  using tet_mesh_impl::FaceUse;
  using tet_mesh_impl::kOutwardFaces;
  const auto fail = [&](const std::string& what) { throw MeshError(source + ": " + what); };
  const int vertexCount = static_cast<int>(mesh.vertices.size());
  std::vector<FaceUse> uses;
  uses.reserve(4 * mesh.tetrahedra.size());
  for (std::size_t t = 0; t < mesh.tetrahedra.size(); ++t) {
    const auto& tet = mesh.tetrahedra[t];
    for (const int v : tet)
      if (v < 0 || v >= vertexCount)
        fail("tetrahedron " + std::to_string(t) + " uses vertex " + std::to_string(v) + ", out of range [0, " +
             std::to_string(vertexCount) + ")");
    const double volume = tet_mesh_impl::signedVolume(
        mesh.vertices[tet[0]], mesh.vertices[tet[1]], mesh.vertices[tet[2]], mesh.vertices[tet[3]]);
    // Written so that NaN (a non-finite vertex) fails too.
    if (!(volume > 0.0))
      fail("tetrahedron " + std::to_string(t) + " is not positively oriented (signed volume " + std::to_string(volume) +
           ")");
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key;
      for (int k = 0; k < 3; ++k) key[k] = tet[kOutwardFaces[f][k]];
      std::sort(key.begin(), key.end());
      uses.push_back({key, static_cast<int>(t), f});
    }
  }
  // Grouping equal faces by sorting keeps this O(n log n) without a hash of triples; ties stay in
  // tetrahedron order, so the triangles come out in the order of their tetrahedra.
  std::stable_sort(uses.begin(), uses.end(), [](const FaceUse& a, const FaceUse& b) { return a.key < b.key; });

  std::vector<const FaceUse*> boundaryFaces;
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t end = i + 1;
    while (end < uses.size() && uses[end].key == uses[i].key) ++end;
    const auto faceName = [&] {
      const auto& k = uses[i].key;
      return "face (" + std::to_string(k[0]) + ", " + std::to_string(k[1]) + ", " + std::to_string(k[2]) + ")";
    };
    if (end - i > 2)
      fail(faceName() + " is shared by " + std::to_string(end - i) + " tetrahedra (" + std::to_string(uses[i].tet) +
           ", " + std::to_string(uses[i + 1].tet) + ", " + std::to_string(uses[i + 2].tet) + ", ...); at most two may share one");
    if (end - i == 1) boundaryFaces.push_back(&uses[i]);
    if (end - i == 2 && tet_mesh_impl::sameSide(mesh, uses[i], uses[i + 1]))
      fail("tetrahedra " + std::to_string(uses[i].tet) + " and " + std::to_string(uses[i + 1].tet) +
           " lie on the same side of their shared " + faceName() + " (they overlap)");
    i = end;
  }
  std::sort(boundaryFaces.begin(), boundaryFaces.end(), [](const FaceUse* a, const FaceUse* b) {
    return a->tet != b->tet ? a->tet < b->tet : a->face < b->face;
  });

  TetBoundary boundary;
  boundary.triangles.reserve(boundaryFaces.size());
  for (const FaceUse* use : boundaryFaces) boundary.triangles.push_back(tet_mesh_impl::orientedFace(mesh, *use));
  boundary.edges = uniqueEdges(boundary.triangles);
  for (const auto& tri : boundary.triangles) boundary.vertices.insert(boundary.vertices.end(), tri.begin(), tri.end());
  std::sort(boundary.vertices.begin(), boundary.vertices.end());
  boundary.vertices.erase(std::unique(boundary.vertices.begin(), boundary.vertices.end()), boundary.vertices.end());
  return boundary;
}

TetMesh boxTetMesh(const Vec3& size, int nx, int ny, int nz) {
  if (nx < 1 || ny < 1 || nz < 1)
    throw std::invalid_argument("boxTetMesh: the divisions must be at least 1, got " + std::to_string(nx) + " x " +
                                std::to_string(ny) + " x " + std::to_string(nz));
  if (!(size.allFinite() && size.minCoeff() > 0.0))
    throw std::invalid_argument("boxTetMesh: the size must be positive and finite, got (" + std::to_string(size.x()) +
                                ", " + std::to_string(size.y()) + ", " + std::to_string(size.z()) + ")");
  TetMesh mesh;
  mesh.vertices.reserve(static_cast<std::size_t>(nx + 1) * (ny + 1) * (nz + 1));
  // size * (i / n - 1/2): both faces land exactly on +-size / 2.
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        mesh.vertices.emplace_back(size.x() * (static_cast<double>(i) / nx - 0.5),
                                   size.y() * (static_cast<double>(j) / ny - 0.5),
                                   size.z() * (static_cast<double>(k) / nz - 0.5));
  const auto index = [&](const std::array<int, 3>& p) { return p[0] + (nx + 1) * (p[1] + (ny + 1) * p[2]); };

  // Kuhn's split: one tetrahedron per path from the cell's corner (0,0,0) to (1,1,1) stepping
  // along the axes in the order of a permutation. Every cell is split the same way, so a face
  // between cells is cut along the same diagonal from both sides. The tetrahedron
  // (c, c + e_p0, c + e_p0 + e_p1, c + 1) has det[e_p0, e_p0 + e_p1, 1] = det[e_p0, e_p1, e_p2],
  // the permutation's sign: an odd one swaps the middle corners.
  constexpr std::array<std::array<int, 3>, 6> kOrders{{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}};
  mesh.tetrahedra.reserve(6 * static_cast<std::size_t>(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (int o = 0; o < 6; ++o) {
          std::array<int, 3> p{i, j, k};
          std::array<int, 4> tet;
          tet[0] = index(p);
          for (int step = 0; step < 3; ++step) {
            ++p[kOrders[o][step]];
            tet[step + 1] = index(p);
          }
          if (o >= 3) std::swap(tet[1], tet[2]);  // the odd permutations
          mesh.tetrahedra.push_back(tet);
        }
  return mesh;
}

}  // namespace contactlab
