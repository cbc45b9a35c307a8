#include "geometry/marching_tetrahedra.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace contactlab {
namespace {

constexpr double kEndMargin = 0.05;  // of an edge's length

}  // namespace

TriangleMesh marchingTetrahedra(const std::function<double(const Vec3&)>& f, const Vec3& lower, const Vec3& upper,
                                double cellSize) {
  const Eigen::Vector3i cells = ((upper - lower) / cellSize).array().ceil().cast<int>().max(1);
  const Eigen::Vector3i points = cells.array() + 1;
  const auto pointIndex = [&](int i, int j, int k) { return (k * points.y() + j) * points.x() + i; };
  std::vector<Vec3> position(static_cast<std::size_t>(points.prod()));
  std::vector<double> value(position.size());
  for (int k = 0; k < points.z(); ++k)
    for (int j = 0; j < points.y(); ++j)
      for (int i = 0; i < points.x(); ++i) {
        const int p = pointIndex(i, j, k);
        position[p] = lower + cellSize * Vec3(i, j, k);
        const double v = f(position[p]);
        value[p] = v == 0.0 ? std::numeric_limits<double>::min() : v;  // a sample on the surface counts as outside
      }

  TriangleMesh mesh;
  std::map<std::pair<int, int>, int> vertexOnEdge;  // grid edge (lower point index first) -> vertex
  const auto crossing = [&](int inside, int outside) {
    const auto key = std::minmax(inside, outside);
    const auto [it, added] = vertexOnEdge.emplace(key, static_cast<int>(mesh.vertices.size()));
    if (added) {
      double in = 0.0, out = 1.0;  // parameters along the edge from the inside point
      for (int step = 0; step < 40; ++step) {
        const double middle = 0.5 * (in + out);
        (f(position[inside] + middle * (position[outside] - position[inside])) < 0.0 ? in : out) = middle;
      }
      // Kept off the edge's ends: where the surface passes (nearly) through a grid point, every edge
      // from it would put its vertex on that point, and the coincident vertices make zero-area
      // triangles that tetgen refuses.
      const double t = std::clamp(0.5 * (in + out), kEndMargin, 1.0 - kEndMargin);
      mesh.vertices.push_back(position[inside] + t * (position[outside] - position[inside]));
    }
    return it->second;
  };
  // Orients the triangle so its normal points from the inside corners towards the outside ones.
  const auto addTriangle = [&](std::array<int, 3> tri, const Vec3& outward) {
    const Vec3& a = mesh.vertices[tri[0]];
    if ((mesh.vertices[tri[1]] - a).cross(mesh.vertices[tri[2]] - a).dot(outward) < 0.0) std::swap(tri[1], tri[2]);
    mesh.triangles.push_back(tri);
  };

  // The six tetrahedra of a cube: paths from corner 0 to corner 7 along the axes in every order
  // (corner bits: x = 1, y = 2, z = 4).
  constexpr int kAxisOrders[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  for (int k = 0; k < cells.z(); ++k)
    for (int j = 0; j < cells.y(); ++j)
      for (int i = 0; i < cells.x(); ++i) {
        const auto corner = [&](int bits) { return pointIndex(i + (bits & 1), j + ((bits >> 1) & 1), k + ((bits >> 2) & 1)); };
        int insideCorners = 0;
        for (int bits = 0; bits < 8; ++bits) insideCorners += value[corner(bits)] < 0.0;
        if (insideCorners == 0 || insideCorners == 8) continue;  // most cubes: the surface misses them
        for (const auto& order : kAxisOrders) {
          const std::array<int, 4> tet = {corner(0), corner(order[0]), corner(order[0] | order[1]), corner(7)};
          std::vector<int> inside, outside;
          for (const int p : tet) (value[p] < 0.0 ? inside : outside).push_back(p);
          if (inside.empty() || outside.empty()) continue;
          Vec3 outward = Vec3::Zero();
          for (const int p : outside) outward += position[p] / static_cast<double>(outside.size());
          for (const int p : inside) outward -= position[p] / static_cast<double>(inside.size());
          if (inside.size() == 1) {
            addTriangle({crossing(inside[0], outside[0]), crossing(inside[0], outside[1]), crossing(inside[0], outside[2])}, outward);
          } else if (inside.size() == 3) {
            addTriangle({crossing(inside[0], outside[0]), crossing(inside[1], outside[0]), crossing(inside[2], outside[0])}, outward);
          } else {
            // Two in, two out: the section is the quad round the four crossed edges.
            const int a = crossing(inside[0], outside[0]), b = crossing(inside[0], outside[1]);
            const int c = crossing(inside[1], outside[1]), d = crossing(inside[1], outside[0]);
            addTriangle({a, b, c}, outward);
            addTriangle({a, c, d}, outward);
          }
        }
      }
  return mesh;
}

}  // namespace contactlab
