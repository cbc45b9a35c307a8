#pragma once
// Closed meshes with tetrahedralizations, made in code for the collision tests: solids made of
// grid cubes (a box, a jack-like cross) and a sphere made of a subdivided icosahedron.
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "contactlab/mesh.h"

namespace contactlab::test {

// The solid made of the cubes (i, j, k) of an nx x ny x nz grid of cubes of edge `cell` for which
// `filled` holds, centred on the grid's centre. Each cube is split into the 6 tetrahedra around its
// main diagonal (the same diagonal in every cube, so neighbours share faces); each boundary face
// of a cube gives two triangles.
inline MeshGeometry cubeGridMesh(const std::string& source, const std::array<int, 3>& cells, double cell,
                                 const std::function<bool(int, int, int)>& filled) {
  using Cell = std::array<int, 3>;
  auto isFilled = [&](const Cell& c) {
    for (int axis = 0; axis < 3; ++axis)
      if (c[axis] < 0 || c[axis] >= cells[axis]) return false;
    return filled(c[0], c[1], c[2]);
  };
  auto gridPoint = [](const Cell& c, int axis, int step) {
    Cell p = c;
    p[axis] += step;
    return p;
  };

  std::vector<std::array<Cell, 3>> surfaceTriangles;
  std::vector<std::array<Cell, 4>> tetrahedra;
  for (int i = 0; i < cells[0]; ++i)
    for (int j = 0; j < cells[1]; ++j)
      for (int k = 0; k < cells[2]; ++k) {
        const Cell c{i, j, k};
        if (!isFilled(c)) continue;
        const std::array<std::array<int, 3>, 6> orders{{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
        for (const auto& order : orders) {
          const Cell p1 = gridPoint(c, order[0], 1), p2 = gridPoint(p1, order[1], 1), p3 = gridPoint(p2, order[2], 1);
          // The permutation's parity fixes the orientation; an odd one swaps two corners.
          const bool even = (order[0] + 1) % 3 == order[1];
          tetrahedra.push_back(even ? std::array<Cell, 4>{c, p1, p2, p3} : std::array<Cell, 4>{c, p2, p1, p3});
        }
        for (int axis = 0; axis < 3; ++axis)
          for (int side : {-1, 1}) {
            if (isFilled(gridPoint(c, axis, side))) continue;
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            const Cell p00 = side > 0 ? gridPoint(c, axis, 1) : c;
            const Cell p10 = gridPoint(p00, u, 1), p01 = gridPoint(p00, v, 1), p11 = gridPoint(p10, v, 1);
            // u x v = +axis: counter-clockwise seen from +axis.
            if (side > 0) surfaceTriangles.push_back({p00, p10, p11}), surfaceTriangles.push_back({p00, p11, p01});
            else surfaceTriangles.push_back({p00, p11, p10}), surfaceTriangles.push_back({p00, p01, p11});
          }
      }

  MeshGeometry mesh;
  mesh.source = source;
  std::map<Cell, int> index;
  const Vec3 centre = 0.5 * cell * Vec3(cells[0], cells[1], cells[2]);
  auto indexOf = [&](const Cell& p) {
    const auto [it, added] = index.try_emplace(p, static_cast<int>(index.size()));
    if (added) mesh.tetVertices.push_back(cell * Vec3(p[0], p[1], p[2]) - centre);
    return it->second;
  };
  // Surface vertices first, as MeshGeometry requires.
  for (const auto& [a, b, c] : surfaceTriangles) mesh.surface.triangles.push_back({indexOf(a), indexOf(b), indexOf(c)});
  mesh.surface.vertices = mesh.tetVertices;
  for (const auto& [a, b, c, d] : tetrahedra) mesh.tetrahedra.push_back({indexOf(a), indexOf(b), indexOf(c), indexOf(d)});
  mesh.volume = cell * cell * cell * static_cast<double>(tetrahedra.size()) / 6.0;
  mesh.boundsLower = mesh.boundsUpper = mesh.surface.vertices.front();
  for (const Vec3& v : mesh.surface.vertices) {
    mesh.boundingRadius = std::max(mesh.boundingRadius, v.norm());
    mesh.boundsLower = mesh.boundsLower.cwiseMin(v);
    mesh.boundsUpper = mesh.boundsUpper.cwiseMax(v);
  }
  return mesh;
}

// A box of the given half extents, made of n^3 grid cubes (n = 1: 8 vertices, 12 triangles, 6
// tetrahedra).
inline std::shared_ptr<const MeshGeometry> boxMesh(const Vec3& halfExtents, int n = 1) {
  MeshGeometry mesh = cubeGridMesh("box", {n, n, n}, 1.0, [](int, int, int) { return true; });
  const Vec3 scale = 2.0 * halfExtents / n;
  for (Vec3& v : mesh.tetVertices) v = v.cwiseProduct(scale);
  mesh.surface.vertices.assign(mesh.tetVertices.begin(), mesh.tetVertices.begin() + mesh.surface.vertices.size());
  mesh.volume = 8.0 * halfExtents.prod();
  mesh.boundingRadius = halfExtents.norm();
  return std::make_shared<const MeshGeometry>(std::move(mesh));
}

// A jack-like cross: three orthogonal square arms of `thickness` cells across and `length` cells
// long (length - thickness even), through the centre.
inline std::shared_ptr<const MeshGeometry> crossMesh(int length, int thickness, double cell) {
  const int low = (length - thickness) / 2, high = low + thickness;
  auto inCore = [&](int c) { return c >= low && c < high; };
  return std::make_shared<const MeshGeometry>(
      cubeGridMesh("cross", {length, length, length}, cell, [&](int i, int j, int k) {
        return (inCore(j) && inCore(k)) || (inCore(i) && inCore(k)) || (inCore(i) && inCore(j));
      }));
}

// A sphere of this radius: an icosahedron with each triangle split `subdivisions` times into four,
// its vertices pushed onto the sphere, and one tetrahedron from the centre to each triangle.
inline std::shared_ptr<const MeshGeometry> sphereMesh(double radius, int subdivisions) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> vertices{{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<int, 3>> triangles{{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                            {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                            {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                            {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<int, int>, int> midpoints;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto [it, added] = midpoints.try_emplace(key, static_cast<int>(vertices.size()));
      if (added) vertices.push_back(0.5 * (vertices[a] + vertices[b]));
      return it->second;
    };
    std::vector<std::array<int, 3>> finer;
    for (const auto& [a, b, c] : triangles) {
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    triangles = std::move(finer);
  }
  MeshGeometry mesh;
  mesh.source = "sphere";
  for (Vec3& v : vertices) v = radius * v.normalized();
  mesh.surface = {vertices, triangles};
  mesh.tetVertices = vertices;
  const int centre = static_cast<int>(vertices.size());
  mesh.tetVertices.push_back(Vec3::Zero());
  // det[a, b, c] = a . (b x c) > 0: the triangle abc is counter-clockwise seen from outside.
  for (const auto& [a, b, c] : triangles) mesh.tetrahedra.push_back({centre, a, b, c});
  mesh.boundingRadius = radius;
  return std::make_shared<const MeshGeometry>(std::move(mesh));
}

}  // namespace contactlab::test
