#include "contactlab/render/bounds.h"

#include <algorithm>
#include <cmath>

#include "contactlab/render/instances.h"

namespace contactlab::render {
namespace {

// Heights and distances (metres) within this of each other touch.
constexpr double kTouching = 1e-6;

bool hasFiniteState(const Body& body) { return body.position.allFinite() && body.orientation.coeffs().allFinite(); }

}  // namespace

void Bounds::extend(const Bounds& other) {
  lower = lower.cwiseMin(other.lower);
  upper = upper.cwiseMax(other.upper);
}

std::optional<Bounds> shapeBounds(const Shape& shape, const Vec3& position, const Quat& orientation) {
  const Mat3 rotation = orientation.normalized().toRotationMatrix();
  Vec3 halfSize;
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    halfSize = Vec3::Constant(sphere->radius);
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    halfSize = rotation.cwiseAbs() * box->halfExtents;
  } else if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    halfSize = rotation.col(2).cwiseAbs() * capsule->halfLength + Vec3::Constant(capsule->radius);
  } else if (const auto* mesh = std::get_if<MeshShape>(&shape)) {
    // The body-frame box of the surface, which need not be centred on the centre of mass.
    const MeshGeometry& g = *mesh->geometry;
    const Vec3 centre = position + rotation * (0.5 * (g.boundsLower + g.boundsUpper));
    halfSize = rotation.cwiseAbs() * (0.5 * (g.boundsUpper - g.boundsLower));
    return Bounds{centre - halfSize, centre + halfSize};
  } else {
    return std::nullopt;
  }
  return Bounds{position - halfSize, position + halfSize};
}

namespace {

// The height of the highest non-moving surface under the footprint of `over`, at or below its
// bottom: the top of a box, sphere or capsule whose x-y extent overlaps it, or a plane facing up.
std::optional<double> supportHeightBelow(const std::vector<Body>& bodies, const Bounds& over) {
  std::optional<double> support;
  const auto consider = [&](double top) {
    if (top <= over.lower.z() + kTouching && (!support || top > *support)) support = top;
  };
  for (const Body& body : bodies) {
    if (movesInScene(body) || !hasFiniteState(body)) continue;
    if (const auto* plane = std::get_if<PlaneShape>(&body.shape)) {
      // normal . x <= offset: a ground when the normal points up.
      const double length = plane->normal.norm();
      if (length > 0.0 && plane->normal.z() > 0.99 * length) consider(plane->offset / plane->normal.z());
      continue;
    }
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds || bounds->upper.x() < over.lower.x() || bounds->lower.x() > over.upper.x() ||
        bounds->upper.y() < over.lower.y() || bounds->lower.y() > over.upper.y())
      continue;
    consider(bounds->upper.z());
  }
  return support;
}

}  // namespace

std::optional<Bounds> framingBounds(const std::vector<Body>& bodies) {
  std::optional<Bounds> dynamicBounds;
  std::optional<Bounds> allBounds;
  for (const Body& body : bodies) {
    if (!hasFiniteState(body)) continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds) continue;
    allBounds ? allBounds->extend(*bounds) : void(allBounds = bounds);
    if (movesInScene(body)) dynamicBounds ? dynamicBounds->extend(*bounds) : void(dynamicBounds = bounds);
  }
  if (!dynamicBounds) return allBounds;
  // Bodies dropped from a height land in view: the frame reaches down to what they fall onto.
  if (const std::optional<double> support = supportHeightBelow(bodies, *dynamicBounds))
    dynamicBounds->lower.z() = std::min(dynamicBounds->lower.z(), *support);
  return dynamicBounds;
}

std::optional<double> wallClearingPitch(const std::vector<Body>& bodies, const Bounds& framed) {
  const Vec3 centre = framed.centre();
  // Walls stand at the framed box's sides, not beyond half its width again.
  const double reach = 0.75 * std::max(framed.size().x(), framed.size().y());
  std::optional<double> steepest;
  for (const Body& body : bodies) {
    if (movesInScene(body) || !hasFiniteState(body)) continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds) continue;
    const double height = bounds->upper.z() - framed.lower.z();
    // The x-y distance from the centre to the body's x-y box.
    const double dx = std::max({bounds->lower.x() - centre.x(), 0.0, centre.x() - bounds->upper.x()});
    const double dy = std::max({bounds->lower.y() - centre.y(), 0.0, centre.y() - bounds->upper.y()});
    const double distance = std::hypot(dx, dy);
    if (height <= kTouching || distance <= kTouching || distance > reach) continue;
    const double pitch = std::min(std::atan2(height, 0.25 * distance), kMostWallClearingPitch);
    if (!steepest || pitch > *steepest) steepest = pitch;
  }
  return steepest;
}

std::optional<Bounds> shadowCasterBounds(const std::vector<Body>& bodies, double maxStaticExtent) {
  std::optional<Bounds> casters;
  for (const Body& body : bodies) {
    if (!hasFiniteState(body)) continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds || (!movesInScene(body) && body.motion == MotionType::Static && bounds->size().maxCoeff() > maxStaticExtent))
      continue;
    casters ? casters->extend(*bounds) : void(casters = bounds);
  }
  return casters;
}

}  // namespace contactlab::render
