#include "contactlab/render/deformable_surface.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace contactlab::render {
namespace deformable_surface {

// Angle of the triangle's corner at `at` between the edges to `b` and `c`; 0 for a degenerate edge.
double cornerAngle(const Vec3& at, const Vec3& b, const Vec3& c) {
  const Vec3 u = b - at, v = c - at;
  const double lengths = u.norm() * v.norm();
  if (!(lengths > 0.0)) return 0.0;
  return std::acos(std::clamp(u.dot(v) / lengths, -1.0, 1.0));
}

}  // namespace deformable_surface

bool buildDeformableSurface(const DeformableMeshView& mesh, DeformableSurface& surface) {
  using namespace deformable_surface;
  surface.vertices.clear();
  surface.indices.clear();
  surface.nodes.clear();
  surface.bounds = {Vec3::Zero(), Vec3::Zero()};
  const int nodes = static_cast<int>(mesh.positions.size());

  // Surface nodes in order of first use, and each one's vertex.
  std::vector<int> vertexOf(mesh.positions.size(), -1);
  std::vector<int> nodeOf;
  for (const auto& triangle : mesh.surface) {
    for (const int node : triangle) {
      if (node < 0 || node >= nodes) return false;
      if (vertexOf[node] >= 0) continue;
      if (!mesh.positions[node].allFinite()) return false;
      vertexOf[node] = static_cast<int>(nodeOf.size());
      nodeOf.push_back(node);
    }
  }
  if (nodeOf.empty()) return false;

  std::vector<Vec3> normals(nodeOf.size(), Vec3::Zero());
  surface.indices.reserve(3 * mesh.surface.size());
  for (const auto& triangle : mesh.surface) {
    const Vec3& a = mesh.positions[triangle[0]];
    const Vec3& b = mesh.positions[triangle[1]];
    const Vec3& c = mesh.positions[triangle[2]];
    const Vec3 normal = (b - a).cross(c - a);
    const double length = normal.norm();
    for (const int node : triangle) surface.indices.push_back(static_cast<std::uint32_t>(vertexOf[node]));
    if (!(length > 0.0)) continue;  // crushed flat: no direction of its own
    const Vec3 unit = normal / length;
    normals[vertexOf[triangle[0]]] += cornerAngle(a, b, c) * unit;
    normals[vertexOf[triangle[1]]] += cornerAngle(b, c, a) * unit;
    normals[vertexOf[triangle[2]]] += cornerAngle(c, a, b) * unit;
  }

  surface.vertices.reserve(6 * nodeOf.size());
  Vec3 lower = mesh.positions[nodeOf[0]], upper = lower;
  for (std::size_t v = 0; v < nodeOf.size(); ++v) {
    const Vec3& p = mesh.positions[nodeOf[v]];
    lower = lower.cwiseMin(p);
    upper = upper.cwiseMax(p);
    // A node whose triangles were all crushed (or cancel out) still needs a unit normal for lighting.
    const Vec3 n = normals[v].norm() > 0.0 ? normals[v].normalized() : Vec3::UnitZ();
    for (int i = 0; i < 3; ++i) surface.vertices.push_back(static_cast<float>(p[i]));
    for (int i = 0; i < 3; ++i) surface.vertices.push_back(static_cast<float>(n[i]));
  }
  surface.bounds = {lower, upper};
  surface.nodes = std::move(nodeOf);
  return true;
}

}  // namespace contactlab::render
