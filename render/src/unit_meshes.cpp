#include "unit_meshes.h"

#include <cmath>

#include "contactlab/math.h"

namespace contactlab::render {
namespace {

// Smooth enough at the sizes bodies appear, light enough for thousands of instances on a software
// rasterizer.
constexpr int kSphereSegments = 24;
constexpr int kSphereRings = 12;
// MeshKind::SmallSphere: for spheres under kSmallSphereRadiusPixels on screen.
constexpr int kSmallSphereSegments = 12;
constexpr int kSmallSphereRings = 6;
constexpr int kCylinderSegments = 24;

void addVertex(MeshData& mesh, const Vec3& position, const Vec3& normal) {
  for (int i = 0; i < 3; ++i) mesh.vertices.push_back(static_cast<float>(position[i]));
  for (int i = 0; i < 3; ++i) mesh.vertices.push_back(static_cast<float>(normal[i]));
}

std::uint32_t vertexCount(const MeshData& mesh) { return static_cast<std::uint32_t>(mesh.vertices.size() / 6); }

// A quad a, b, c, d listed counter-clockwise seen from outside.
void addQuad(MeshData& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
}

MeshData cube() {
  MeshData mesh;
  for (int axis = 0; axis < 3; ++axis) {
    for (const double sign : {-1.0, 1.0}) {
      Vec3 normal = Vec3::Zero();
      normal[axis] = sign;
      // u, v span the face so that u x v = normal.
      Vec3 u = Vec3::Zero(), v = Vec3::Zero();
      u[(axis + 1) % 3] = 1.0;
      v[(axis + 2) % 3] = 1.0;
      if (sign < 0) std::swap(u, v);
      const std::uint32_t first = vertexCount(mesh);
      addVertex(mesh, normal - u - v, normal);
      addVertex(mesh, normal + u - v, normal);
      addVertex(mesh, normal + u + v, normal);
      addVertex(mesh, normal - u + v, normal);
      addQuad(mesh, first, first + 1, first + 2, first + 3);
    }
  }
  return mesh;
}

MeshData sphere(int segments, int rings) {
  MeshData mesh;
  for (int ring = 0; ring <= rings; ++ring) {
    const double polar = M_PI * ring / rings;  // 0 at +z
    for (int segment = 0; segment <= segments; ++segment) {
      const double azimuth = 2.0 * M_PI * segment / segments;
      const Vec3 point(std::sin(polar) * std::cos(azimuth), std::sin(polar) * std::sin(azimuth), std::cos(polar));
      addVertex(mesh, point, point);
    }
  }
  const auto at = [segments](int ring, int segment) { return static_cast<std::uint32_t>(ring * (segments + 1) + segment); };
  for (int ring = 0; ring < rings; ++ring)
    for (int segment = 0; segment < segments; ++segment)
      addQuad(mesh, at(ring, segment), at(ring + 1, segment), at(ring + 1, segment + 1), at(ring, segment + 1));
  return mesh;
}

MeshData openCylinder() {
  MeshData mesh;
  for (int segment = 0; segment <= kCylinderSegments; ++segment) {
    const double azimuth = 2.0 * M_PI * segment / kCylinderSegments;
    const Vec3 normal(std::cos(azimuth), std::sin(azimuth), 0.0);
    addVertex(mesh, normal - Vec3::UnitZ(), normal);
    addVertex(mesh, normal + Vec3::UnitZ(), normal);
  }
  for (std::uint32_t segment = 0; segment < kCylinderSegments; ++segment) {
    const std::uint32_t bottom = 2 * segment;
    addQuad(mesh, bottom, bottom + 2, bottom + 3, bottom + 1);
  }
  return mesh;
}

MeshData quad() {
  MeshData mesh;
  addVertex(mesh, Vec3(-1, -1, 0), Vec3::UnitZ());
  addVertex(mesh, Vec3(1, -1, 0), Vec3::UnitZ());
  addVertex(mesh, Vec3(1, 1, 0), Vec3::UnitZ());
  addVertex(mesh, Vec3(-1, 1, 0), Vec3::UnitZ());
  addQuad(mesh, 0, 1, 2, 3);
  return mesh;
}

}  // namespace

MeshData buildUnitMesh(MeshKind kind) {
  switch (kind) {
    case MeshKind::Box: return cube();
    case MeshKind::Sphere: return sphere(kSphereSegments, kSphereRings);
    case MeshKind::SmallSphere: return sphere(kSmallSphereSegments, kSmallSphereRings);
    case MeshKind::Cylinder: return openCylinder();
    case MeshKind::Quad: return quad();
    case MeshKind::Count: break;
  }
  return {};
}

MeshData buildSurfaceMesh(const TriangleMesh& surface) {
  const double cosCrease = std::cos(40.0 * M_PI / 180.0);
  // Area-weighted face normals (the cross product's length is twice the area).
  std::vector<Vec3> weighted(surface.triangles.size());
  std::vector<std::vector<int>> trianglesAt(surface.vertices.size());
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    const auto& tri = surface.triangles[t];
    const Vec3& a = surface.vertices[tri[0]];
    weighted[t] = (surface.vertices[tri[1]] - a).cross(surface.vertices[tri[2]] - a);
    for (const int v : tri) trianglesAt[v].push_back(static_cast<int>(t));
  }
  MeshData mesh;
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    const Vec3 own = weighted[t].normalized();
    for (const int v : surface.triangles[t]) {
      Vec3 normal = Vec3::Zero();
      for (const int other : trianglesAt[v])
        if (weighted[other].normalized().dot(own) >= cosCrease) normal += weighted[other];
      addVertex(mesh, surface.vertices[v], normal.normalized());
      mesh.indices.push_back(vertexCount(mesh) - 1);
    }
  }
  return mesh;
}

}  // namespace contactlab::render
