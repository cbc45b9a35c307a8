#include "collision/box_geometry.h"

#include <algorithm>

namespace contactlab {

Vec3 boxVertex(const BoxShape& box, const Pose& pose, int index) {
  Vec3 local;
  for (int axis = 0; axis < 3; ++axis) local[axis] = (index >> axis & 1) ? box.halfExtents[axis] : -box.halfExtents[axis];
  return pose.position + pose.rotation * local;
}

double boxSignedDistance(const Vec3& halfExtents, const Vec3& localPoint) {
  const Vec3 excess = localPoint.cwiseAbs() - halfExtents;
  return excess.cwiseMax(0.0).norm() + std::min(excess.maxCoeff(), 0.0);
}

BoxSurfacePoint closestBoxSurfacePoint(const BoxShape& box, const Pose& pose, const Vec3& worldPoint) {
  const Vec3& half = box.halfExtents;
  const Vec3 local = pose.rotation.transpose() * (worldPoint - pose.position);
  BoxSurfacePoint result{};
  Vec3 localSurface = local.cwiseMax(-half).cwiseMin(half), localNormal;
  std::uint32_t regionDigit[3];
  int outsideAxes = 0;
  for (int axis = 0; axis < 3; ++axis) {
    regionDigit[axis] = local[axis] < -half[axis] ? 0u : (local[axis] > half[axis] ? 2u : 1u);
    if (regionDigit[axis] != 1u) ++outsideAxes;
  }

  if (outsideAxes > 0) {
    const Vec3 offset = local - localSurface;
    result.distance = offset.norm();
    localNormal = offset / result.distance;
  } else {
    // Inside (or on the surface): leave through the face with the least penetration; the first
    // axis wins ties so the choice is deterministic.
    int axis = 0;
    (half - local.cwiseAbs()).minCoeff(&axis);
    const double sign = local[axis] >= 0.0 ? 1.0 : -1.0;
    localSurface[axis] = sign * half[axis];
    localNormal = sign * Vec3::Unit(axis);
    result.distance = sign * local[axis] - half[axis];
    regionDigit[axis] = sign > 0.0 ? 2u : 0u;
  }
  result.region = regionDigit[0] + 3 * regionDigit[1] + 9 * regionDigit[2];
  result.point = pose.position + pose.rotation * localSurface;
  result.outwardNormal = pose.rotation * localNormal;
  return result;
}

void addBallBoxContact(const Vec3& centre, double radius, const BoxSurfacePoint& surface, std::uint32_t feature,
                       ContactBuffer& buffer) {
  // The normal runs from the ball to the box, against the box's outward normal.
  buffer.add(centre - radius * surface.outwardNormal, surface.point, -surface.outwardNormal, feature);
}

}  // namespace contactlab
