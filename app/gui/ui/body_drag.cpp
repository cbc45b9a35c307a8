#include "ui/body_drag.h"

#include <cmath>

namespace contactlab::app {

void BodyDrag::begin(const World& world, int body, const Vec3& grabPoint, const Vec3& cameraEye) {
  const Body& b = world.bodies().at(static_cast<std::size_t>(body));
  body_ = body;
  grabLocal_ = b.rotation().transpose() * (grabPoint - b.position);
  planePoint_ = grabPoint;
  const Vec3 towardsEye = cameraEye - grabPoint;
  planeNormal_ = towardsEye.norm() > 1e-12 ? towardsEye.normalized() : Vec3::UnitZ();
  anchor_ = grabPoint;
}

void BodyDrag::end() {
  body_ = -1;
  anchor_.reset();
}

void BodyDrag::setMouseRay(const render::Ray& ray) {
  const double facing = ray.direction.dot(planeNormal_);
  if (std::abs(facing) < 1e-9) return;  // the ray runs along the plane: keep the last anchor
  const double t = (planePoint_ - ray.origin).dot(planeNormal_) / facing;
  if (t > 0) anchor_ = ray.origin + t * ray.direction;
}

Vec3 BodyDrag::grabPointWorld(const World& world) const {
  const Body& b = world.bodies().at(static_cast<std::size_t>(body_));
  return b.position + b.rotation() * grabLocal_;
}

Vec3 BodyDrag::impulse(const World& world) const {
  if (!active() || !anchor_ || body_ >= static_cast<int>(world.bodies().size())) return Vec3::Zero();
  const Body& b = world.bodies()[static_cast<std::size_t>(body_)];
  const Vec3 arm = b.rotation() * grabLocal_;
  Vec3 stretch = *anchor_ - (b.position + arm);
  if (stretch.norm() > kMaxStretch) stretch *= kMaxStretch / stretch.norm();
  const Vec3 pointVelocity = b.velocity + b.angularVelocity.cross(arm);
  const Vec3 j = world.dt() * b.mass * (kStiffnessPerMass * stretch - kDampingPerMass * pointVelocity);
  return j.allFinite() ? j : Vec3::Zero();
}

}  // namespace contactlab::app
