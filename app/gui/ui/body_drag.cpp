#include "ui/body_drag.h"

#include <cmath>
#include <limits>

namespace contactlab::app {

int nearestSurfaceNode(const DeformableMeshView& mesh, const Vec3& point) {
  int nearest = -1;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& triangle : mesh.surface) {
    for (const int node : triangle) {
      if (node < 0 || node >= static_cast<int>(mesh.positions.size())) continue;
      const double distance = (mesh.positions[node] - point).squaredNorm();
      if (distance < best) {
        best = distance;
        nearest = node;
      }
    }
  }
  return nearest;
}

void BodyDrag::begin(const World& world, int body, const Vec3& grabPoint, const Vec3& cameraEye) {
  const Body& b = world.bodies().at(static_cast<std::size_t>(body));
  end();
  Vec3 grabbed = grabPoint;
  if (b.isDeformable()) {
    const DeformableMeshView mesh = world.deformableBody(b.deformable);
    const int node = nearestSurfaceNode(mesh, grabPoint);
    if (node < 0) return;
    deformable_ = b.deformable;
    node_ = node;
    grabbed = mesh.positions[node];
  } else {
    grabLocal_ = b.rotation().transpose() * (grabPoint - b.position);
  }
  body_ = body;
  planePoint_ = grabbed;
  const Vec3 towardsEye = cameraEye - grabbed;
  planeNormal_ = towardsEye.norm() > 1e-12 ? towardsEye.normalized() : Vec3::UnitZ();
  anchor_ = grabbed;
}

void BodyDrag::end() {
  body_ = -1;
  deformable_ = -1;
  node_ = -1;
  anchor_.reset();
}

void BodyDrag::setMouseRay(const render::Ray& ray) {
  const double facing = ray.direction.dot(planeNormal_);
  if (std::abs(facing) < 1e-9) return;  // the ray runs along the plane: keep the last anchor
  const double t = (planePoint_ - ray.origin).dot(planeNormal_) / facing;
  if (t > 0) anchor_ = ray.origin + t * ray.direction;
}

Vec3 BodyDrag::grabPointWorld(const World& world) const {
  if (grabsNode()) return world.deformableBody(deformable_).positions[static_cast<std::size_t>(node_)];
  const Body& b = world.bodies().at(static_cast<std::size_t>(body_));
  return b.position + b.rotation() * grabLocal_;
}

Vec3 BodyDrag::springForce(double mass, const Vec3& point, const Vec3& velocity) const {
  Vec3 stretch = *anchor_ - point;
  if (stretch.norm() > kMaxStretch) stretch *= kMaxStretch / stretch.norm();
  const Vec3 f = mass * (kStiffnessPerMass * stretch - kDampingPerMass * velocity);
  return f.allFinite() ? f : Vec3::Zero();
}

Vec3 BodyDrag::impulse(const World& world) const {
  if (!active() || grabsNode() || !anchor_ || body_ >= static_cast<int>(world.bodies().size())) return Vec3::Zero();
  const Body& b = world.bodies()[static_cast<std::size_t>(body_)];
  const Vec3 arm = b.rotation() * grabLocal_;
  const Vec3 pointVelocity = b.velocity + b.angularVelocity.cross(arm);
  return world.dt() * springForce(b.mass, b.position + arm, pointVelocity);
}

Vec3 BodyDrag::nodeForce(const World& world) const {
  if (!grabsNode() || !anchor_ || body_ >= static_cast<int>(world.bodies().size()) ||
      deformable_ >= world.deformableBodyCount())
    return Vec3::Zero();
  const Body& b = world.bodies()[static_cast<std::size_t>(body_)];
  const Vec3 node = world.deformableBody(deformable_).positions[static_cast<std::size_t>(node_)];
  const Vec3 rigidVelocity = b.velocity + b.angularVelocity.cross(node - b.position);
  return springForce(b.mass, node, rigidVelocity);
}

}  // namespace contactlab::app
