#include "contactlab/render/bounds.h"

namespace contactlab::render {
namespace {

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
  } else {
    return std::nullopt;
  }
  return Bounds{position - halfSize, position + halfSize};
}

std::optional<Bounds> framingBounds(const std::vector<Body>& bodies) {
  std::optional<Bounds> dynamicBounds;
  std::optional<Bounds> allBounds;
  for (const Body& body : bodies) {
    if (!hasFiniteState(body)) continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds) continue;
    allBounds ? allBounds->extend(*bounds) : void(allBounds = bounds);
    if (body.isDynamic()) dynamicBounds ? dynamicBounds->extend(*bounds) : void(dynamicBounds = bounds);
  }
  return dynamicBounds ? dynamicBounds : allBounds;
}

std::optional<Bounds> shadowCasterBounds(const std::vector<Body>& bodies, double maxStaticExtent) {
  std::optional<Bounds> casters;
  for (const Body& body : bodies) {
    if (!hasFiniteState(body)) continue;
    const std::optional<Bounds> bounds = shapeBounds(body.shape, body.position, body.orientation);
    if (!bounds || (body.motion == MotionType::Static && bounds->size().maxCoeff() > maxStaticExtent)) continue;
    casters ? casters->extend(*bounds) : void(casters = bounds);
  }
  return casters;
}

}  // namespace contactlab::render
