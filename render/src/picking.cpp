#include "contactlab/render/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

namespace contactlab::render {
namespace {

// Entry distance of the ray origin + t direction (t >= 0) into a sphere at centre.
std::optional<double> intersectSphere(const Vec3& centre, double radius, const Vec3& origin, const Vec3& direction) {
  const Vec3 offset = origin - centre;
  const double a = direction.squaredNorm();
  const double b = offset.dot(direction);
  const double c = offset.squaredNorm() - radius * radius;
  if (c <= 0.0) return 0.0;  // starts inside
  const double discriminant = b * b - a * c;
  if (b > 0.0 || discriminant < 0.0) return std::nullopt;
  return (-b - std::sqrt(discriminant)) / a;
}

// Slab test in the box's own frame.
std::optional<double> intersectBox(const Vec3& halfExtents, const Vec3& origin, const Vec3& direction) {
  double entry = 0.0;
  double exit = std::numeric_limits<double>::infinity();
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(direction[axis]) < 1e-300) {
      if (std::abs(origin[axis]) > halfExtents[axis]) return std::nullopt;
      continue;
    }
    double near = (-halfExtents[axis] - origin[axis]) / direction[axis];
    double far = (halfExtents[axis] - origin[axis]) / direction[axis];
    if (near > far) std::swap(near, far);
    entry = std::max(entry, near);
    exit = std::min(exit, far);
    if (entry > exit) return std::nullopt;
  }
  return entry;
}

// Capsule along the local z axis from -halfLength to +halfLength: the nearest of the open
// cylinder's side and the two end spheres.
std::optional<double> intersectCapsule(double radius, double halfLength, const Vec3& origin, const Vec3& direction) {
  std::optional<double> nearest;
  const auto keep = [&](std::optional<double> t) {
    if (t && (!nearest || *t < *nearest)) nearest = t;
  };
  keep(intersectSphere(Vec3(0, 0, halfLength), radius, origin, direction));
  keep(intersectSphere(Vec3(0, 0, -halfLength), radius, origin, direction));
  const double a = direction.x() * direction.x() + direction.y() * direction.y();
  const double b = origin.x() * direction.x() + origin.y() * direction.y();
  const double c = origin.x() * origin.x() + origin.y() * origin.y() - radius * radius;
  if (a > 0.0) {
    const double discriminant = b * b - a * c;
    if (discriminant >= 0.0) {
      const double t = std::max(0.0, (-b - std::sqrt(discriminant)) / a);
      const double exitT = (-b + std::sqrt(discriminant)) / a;
      if (t <= exitT && std::abs(origin.z() + t * direction.z()) <= halfLength) keep(t);
    }
  }
  return nearest;
}

// Nearest entry through any triangle of a closed surface (Moller-Trumbore), or 0 when the ray
// starts inside (an odd number of crossings ahead).
std::optional<double> intersectSurface(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> triangles,
                                       const Vec3& origin, const Vec3& direction) {
  std::optional<double> nearest;
  int crossings = 0;
  for (const auto& tri : triangles) {
    const Vec3& a = vertices[tri[0]];
    const Vec3 edge1 = vertices[tri[1]] - a, edge2 = vertices[tri[2]] - a;
    const Vec3 p = direction.cross(edge2);
    const double det = edge1.dot(p);
    if (std::abs(det) < 1e-300) continue;
    const Vec3 s = origin - a;
    const double u = s.dot(p) / det;
    if (u < 0.0 || u > 1.0) continue;
    const Vec3 q = s.cross(edge1);
    const double v = direction.dot(q) / det;
    if (v < 0.0 || u + v > 1.0) continue;
    const double t = edge2.dot(q) / det;
    if (t < 0.0) continue;
    ++crossings;
    if (!nearest || t < *nearest) nearest = t;
  }
  if (crossings % 2 == 1) return 0.0;
  return nearest;
}

}  // namespace

std::optional<double> intersectShape(const Shape& shape, const Vec3& position, const Quat& orientation, const Ray& ray) {
  // Work in the body frame, where boxes and capsules are axis aligned.
  const Mat3 toBody = orientation.normalized().toRotationMatrix().transpose();
  const Vec3 origin = toBody * (ray.origin - position);
  const Vec3 direction = toBody * ray.direction;
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) return intersectSphere(Vec3::Zero(), sphere->radius, origin, direction);
  if (const auto* box = std::get_if<BoxShape>(&shape)) return intersectBox(box->halfExtents, origin, direction);
  if (const auto* capsule = std::get_if<CapsuleShape>(&shape))
    return intersectCapsule(capsule->radius, capsule->halfLength, origin, direction);
  if (const auto* mesh = std::get_if<MeshShape>(&shape)) {
    // A pick tests every body, and a ray misses most of them: their bounding balls (about the body
    // origin, the centre of mass) turn those away before the triangles are tested one by one. The
    // ball is widened by a rounding margin so that a ray grazing an outermost vertex still reaches it.
    const double ball = mesh->geometry->boundingRadius * (1.0 + 1e-9);
    if (!intersectSphere(Vec3::Zero(), ball, origin, direction)) return std::nullopt;
    return intersectSurface(mesh->geometry->surface.vertices, mesh->geometry->surface.triangles, origin, direction);
  }
  return std::nullopt;
}

std::optional<BodyHit> pickBody(const std::vector<Body>& bodies, const Ray& ray) {
  if (!ray.origin.allFinite() || !ray.direction.allFinite() || ray.direction.squaredNorm() == 0.0) return std::nullopt;
  std::optional<BodyHit> nearest;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& body = bodies[i];
    if (!body.isDynamic() || body.isDeformable() || !body.position.allFinite() || !body.orientation.coeffs().allFinite())
      continue;
    const std::optional<double> t = intersectShape(body.shape, body.position, body.orientation, ray);
    if (t && std::isfinite(*t) && (!nearest || *t < nearest->distance))
      nearest = BodyHit{static_cast<int>(i), ray.origin + *t * ray.direction, *t};
  }
  return nearest;
}

std::optional<BodyHit> pickBody(const World& world, const Ray& ray) {
  std::optional<BodyHit> nearest = pickBody(world.bodies(), ray);
  if (!ray.origin.allFinite() || !ray.direction.allFinite() || ray.direction.squaredNorm() == 0.0) return nearest;
  for (int i = 0; i < world.deformableBodyCount(); ++i) {
    const DeformableMeshView mesh = world.deformableBody(i);
    // A blown-up body (a non-finite surface node) is not drawn, so it is not picked either.
    const bool finite = std::all_of(mesh.surface.begin(), mesh.surface.end(), [&](const std::array<int, 3>& tri) {
      return mesh.positions[tri[0]].allFinite() && mesh.positions[tri[1]].allFinite() && mesh.positions[tri[2]].allFinite();
    });
    if (!finite) continue;
    const std::optional<double> t = intersectSurface(mesh.positions, mesh.surface, ray.origin, ray.direction);
    if (t && std::isfinite(*t) && (!nearest || *t < nearest->distance))
      nearest = BodyHit{mesh.body, ray.origin + *t * ray.direction, *t};
  }
  return nearest;
}

}  // namespace contactlab::render
