#pragma once
// Mouse-drag perturbation of a picked body: a spring-damper between the grabbed point of the body
// and the mouse, applied as an impulse before every step.
#include <optional>

#include "contactlab/render/camera.h"
#include "contactlab/world.h"

namespace contactlab::app {

class BodyDrag {
 public:
  // Spring and damper per unit mass: a natural frequency of 8 rad/s (k = 64 1/s^2) and critical
  // damping (c = 2*8 = 16 1/s). A brick then follows the mouse within about half a second without
  // overshoot, sags g/k = 15 cm under its own weight, and the explicit impulse stays stable for
  // dt up to 2/c = 0.125 s.
  static constexpr double kStiffnessPerMass = 64.0;
  static constexpr double kDampingPerMass = 16.0;
  // Longest stretch the spring acts on, so a far-away mouse cannot fling the body out of the scene.
  static constexpr double kMaxStretch = 2.0;

  // Starts dragging `body` at the world point `grabPoint` (on its surface); the drag plane goes
  // through that point and faces the camera.
  void begin(const World& world, int body, const Vec3& grabPoint, const Vec3& cameraEye);
  void end();
  bool active() const { return body_ >= 0; }
  int body() const { return body_; }

  // The mouse ray of this frame; its intersection with the drag plane is the spring's anchor.
  void setMouseRay(const render::Ray& ray);

  // The impulse for the coming step (zero if the mouse ray misses the plane). The caller applies
  // it at grabPointWorld() with World::applyImpulse.
  Vec3 impulse(const World& world) const;
  Vec3 grabPointWorld(const World& world) const;
  const std::optional<Vec3>& anchor() const { return anchor_; }

 private:
  int body_ = -1;
  Vec3 grabLocal_ = Vec3::Zero();  // body frame, relative to the centre of mass
  Vec3 planePoint_ = Vec3::Zero();
  Vec3 planeNormal_ = Vec3::UnitZ();
  std::optional<Vec3> anchor_;
};

}  // namespace contactlab::app
