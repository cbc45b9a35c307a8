#include "deformable/rigid_surface_query.h"

#include "collision/box_geometry.h"
#include "collision/segment_geometry.h"

namespace contactlab {
namespace rigid_surface_query_impl {

// Outward normal of a ball around `centre` through `point`; any direction when they coincide.
Vec3 radialDirection(const Vec3& point, const Vec3& centre) {
  const Vec3 d = point - centre;
  const double n = d.norm();
  return n > 0.0 ? Vec3(d / n) : Vec3::UnitZ();
}

RigidSurfacePoint ballSurfacePoint(const Vec3& centre, double radius, const Vec3& point) {
  const Vec3 normal = radialDirection(point, centre);
  return {centre + radius * normal, normal, (point - centre).norm() - radius};
}

}  // namespace rigid_surface_query_impl

std::optional<RigidSurfacePoint> nearestRigidSurfacePoint(const Shape& shape, const Pose& pose,
                                                          const MeshModelCache& meshes, const Vec3& point, double reach) {
  using namespace rigid_surface_query_impl;
  RigidSurfacePoint nearest;
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    nearest = ballSurfacePoint(pose.position, sphere->radius, point);
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    const BoxSurfacePoint s = closestBoxSurfacePoint(*box, pose, point);
    nearest = {s.point, s.outwardNormal, s.distance};
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    const Segment axis = capsuleSegment(*capsule, pose);
    nearest = ballSurfacePoint(axis.at(closestParameter(axis, point)), capsule->radius, point);
  } else if (const auto* plane = std::get_if<PlaneShape>(&shape)) {
    const double distance = plane->normal.dot(point) - plane->offset;
    nearest = {point - distance * plane->normal, plane->normal, distance};
  } else {
    const auto& mesh = std::get<MeshShape>(shape);
    const Vec3 local = pose.rotation.transpose() * (point - pose.position);
    const auto s = meshes.model(*mesh.geometry).closestSurfacePoint(local, reach);
    if (!s) return std::nullopt;
    nearest = {pose.position + pose.rotation * s->point, pose.rotation * s->outwardNormal, s->distance};
  }
  if (nearest.distance > reach) return std::nullopt;
  return nearest;
}

}  // namespace contactlab
