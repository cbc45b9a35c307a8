#include "geometry/shape_geometry.h"

#include <cmath>
#include <numbers>
#include <sstream>

namespace contactlab {

const char* shapeKindName(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::Sphere: return "sphere";
    case ShapeKind::Box: return "box";
    case ShapeKind::Capsule: return "capsule";
    case ShapeKind::Plane: return "plane";
    case ShapeKind::Mesh: return "mesh";
    case ShapeKind::Count: break;
  }
  return "unknown";
}

namespace {
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
}  // namespace

Aabb shapeAabb(const Shape& shape, const Pose& pose) {
  return std::visit(
      Overloaded{
          [&](const SphereShape& s) {
            return Aabb{pose.position.array() - s.radius, pose.position.array() + s.radius};
          },
          [&](const BoxShape& b) {
            // Extent of a rotated box along each world axis: |R| h.
            const Vec3 extent = pose.rotation.cwiseAbs() * b.halfExtents;
            return Aabb{pose.position - extent, pose.position + extent};
          },
          [&](const CapsuleShape& c) {
            const Vec3 axis = pose.rotation.col(2) * c.halfLength;
            const Vec3 extent = axis.cwiseAbs().array() + c.radius;
            return Aabb{pose.position - extent, pose.position + extent};
          },
          [&](const PlaneShape& p) {
            // The half-space n.x <= d: bounded only along an axis the normal is aligned with.
            Aabb box{Vec3::Constant(-kUnboundedExtent), Vec3::Constant(kUnboundedExtent)};
            for (int axis = 0; axis < 3; ++axis) {
              const Vec3 n = p.normal.normalized();
              if (std::abs(n[axis]) > 1.0 - 1e-12) {
                if (n[axis] > 0) box.upper[axis] = p.offset;
                else box.lower[axis] = -p.offset;
              }
            }
            return box;
          },
          [&](const MeshShape& m) {
            // The body-frame box of the surface, rotated as a box is: centre R c, extent |R| h.
            const MeshGeometry& g = *m.geometry;
            const Vec3 centre = pose.position + pose.rotation * (0.5 * (g.boundsLower + g.boundsUpper));
            const Vec3 extent = pose.rotation.cwiseAbs() * (0.5 * (g.boundsUpper - g.boundsLower));
            return Aabb{centre - extent, centre + extent};
          },
      },
      shape);
}

double boundingRadius(const Shape& shape) {
  return std::visit(Overloaded{
                        [](const SphereShape& s) { return s.radius; },
                        [](const BoxShape& b) { return b.halfExtents.norm(); },
                        [](const CapsuleShape& c) { return c.halfLength + c.radius; },
                        [](const PlaneShape&) { return 0.0; },
                        [](const MeshShape& m) { return m.geometry->boundingRadius; },
                    },
                    shape);
}

MassProperties unitDensityMassProperties(const Shape& shape) {
  constexpr double pi = std::numbers::pi;
  return std::visit(
      Overloaded{
          [&](const SphereShape& s) {
            const double v = 4.0 / 3.0 * pi * s.radius * s.radius * s.radius;
            return MassProperties{v, Vec3::Constant(0.4 * v * s.radius * s.radius)};
          },
          [&](const BoxShape& b) {
            const Vec3 e = 2.0 * b.halfExtents;
            const double v = e.prod();
            const Vec3 sq = e.cwiseProduct(e);
            return MassProperties{v, Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y()) * v / 12.0};
          },
          [&](const CapsuleShape& c) {
            // Cylinder of length L = 2h plus two hemispheres whose centres of mass sit 3r/8 from
            // the cylinder's end faces (parallel axis theorem for the transverse moment).
            const double r = c.radius, h = c.halfLength, length = 2.0 * h;
            const double vCyl = pi * r * r * length;
            const double vHemis = 4.0 / 3.0 * pi * r * r * r;  // both hemispheres
            const double axial = vCyl * r * r / 2.0 + vHemis * 0.4 * r * r;
            const double cylTransverse = vCyl * (3.0 * r * r + length * length) / 12.0;
            const double d = h + 3.0 * r / 8.0;  // hemisphere centroid from the capsule centre
            const double hemiAboutCentroid = vHemis * (0.4 * r * r - 9.0 / 64.0 * r * r);
            const double hemisTransverse = hemiAboutCentroid + vHemis * d * d;
            const double transverse = cylTransverse + hemisTransverse;
            return MassProperties{vCyl + vHemis, Vec3(transverse, transverse, axial)};
          },
          [&](const PlaneShape&) { return MassProperties{}; },
          [&](const MeshShape& m) {
            // Computed exactly when the geometry was built (geometry/mesh_mass_properties.h).
            return MassProperties{m.geometry->volume, m.geometry->principalInertiaPerUnitDensity};
          },
      },
      shape);
}

std::string meshGeometryProblem(const MeshGeometry& mesh) {
  if (mesh.surface.triangles.empty()) return "the surface has no triangles";
  if (mesh.tetrahedra.empty()) return "there are no tetrahedra";
  if (mesh.tetVertices.size() < mesh.surface.vertices.size())
    return "the tetrahedra's vertex list is shorter than the surface's, which it must start with";
  auto badIndex = [](const auto& elements, std::size_t vertexCount, const char* what) -> std::string {
    for (std::size_t e = 0; e < elements.size(); ++e)
      for (int v : elements[e])
        if (v < 0 || static_cast<std::size_t>(v) >= vertexCount)
          return std::string(what) + " " + std::to_string(e) + " names vertex " + std::to_string(v) + " of " +
                 std::to_string(vertexCount);
    return "";
  };
  auto notFinite = [](const std::vector<Vec3>& points, const char* what) -> std::string {
    for (std::size_t v = 0; v < points.size(); ++v)
      if (!points[v].allFinite()) return std::string(what) + " " + std::to_string(v) + " is not finite";
    return "";
  };
  for (const std::string& problem :
       {badIndex(mesh.surface.triangles, mesh.surface.vertices.size(), "triangle"),
        badIndex(mesh.tetrahedra, mesh.tetVertices.size(), "tetrahedron"),
        notFinite(mesh.surface.vertices, "surface vertex"), notFinite(mesh.tetVertices, "tetrahedron vertex")})
    if (!problem.empty()) return problem;
  return "";
}

std::string shapeProblem(const Shape& shape) {
  std::ostringstream why;
  auto positiveFinite = [](double x) { return std::isfinite(x) && x > 0.0; };
  std::visit(Overloaded{
                 [&](const SphereShape& s) {
                   if (!positiveFinite(s.radius)) why << "radius must be positive and finite, got " << s.radius;
                 },
                 [&](const BoxShape& b) {
                   for (int i = 0; i < 3; ++i)
                     if (!positiveFinite(b.halfExtents[i])) {
                       why << "size must be positive and finite, got " << 2.0 * b.halfExtents[i];
                       break;
                     }
                 },
                 [&](const CapsuleShape& c) {
                   if (!positiveFinite(c.radius)) why << "radius must be positive and finite, got " << c.radius;
                   else if (!(std::isfinite(c.halfLength) && c.halfLength >= 0.0))
                     why << "length must be non-negative and finite, got " << 2.0 * c.halfLength;
                 },
                 [&](const PlaneShape& p) {
                   if (!p.normal.allFinite() || p.normal.norm() < 1e-12)
                     why << "normal must be a finite non-zero vector";
                   else if (!std::isfinite(p.offset)) why << "offset must be finite";
                 },
                 [&](const MeshShape& m) {
                   if (!m.geometry) why << "mesh has no geometry";
                   else if (!positiveFinite(m.geometry->volume))
                     why << "mesh \"" << m.geometry->source << "\" must enclose a positive volume, got "
                         << m.geometry->volume;
                   else if (m.geometry->tetrahedra.empty())
                     why << "mesh \"" << m.geometry->source << "\" has no tetrahedralization";
                   else if (const std::string problem = meshGeometryProblem(*m.geometry); !problem.empty())
                     why << "mesh \"" << m.geometry->source << "\": " << problem;
                 },
             },
             shape);
  return why.str();
}

}  // namespace contactlab
