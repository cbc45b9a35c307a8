#pragma once
// Mouse-drag perturbation of a picked body: a spring-damper between the grabbed point of the body
// and the mouse. A rigid body gets it as an impulse at the grabbed point before every step; a
// deformable body is grabbed by its surface node nearest to the picked point, which gets it as an
// external force (World::setDeformableNodeForce) for every step.
#include <optional>

#include "contactlab/render/camera.h"
#include "contactlab/world.h"

namespace contactlab::app {

class BodyDrag {
 public:
  // Spring and damper per unit mass: a natural frequency of 8 rad/s (k = 64 1/s^2) and critical
  // damping (c = 2*8 = 16 1/s). A brick then follows the mouse within about half a second without
  // overshoot, sags g/k = 15 cm under its own weight, and the explicit impulse stays stable for
  // dt up to 2/c = 0.125 s. A deformable body's node is pulled with the whole body's mass, so that
  // the body follows as a brick would; the damping acts on the velocity the body's mean rigid
  // motion (Body::velocity, angularVelocity) gives the node, so that it damps the body's motion and
  // is no stiffer than the brick's, whatever the node's own mass.
  static constexpr double kStiffnessPerMass = 64.0;
  static constexpr double kDampingPerMass = 16.0;
  // Longest stretch the spring acts on, so a far-away mouse cannot fling the body out of the scene.
  static constexpr double kMaxStretch = 2.0;

  // Starts dragging `body` at the world point `grabPoint` (on its surface); the drag plane goes
  // through that point and faces the camera. A deformable body is grabbed by its surface node
  // nearest to grabPoint, and the plane goes through that node.
  void begin(const World& world, int body, const Vec3& grabPoint, const Vec3& cameraEye);
  void end();
  bool active() const { return body_ >= 0; }
  int body() const { return body_; }
  // Whether a deformable body's node is grabbed; then deformable() is its index among the World's
  // deformable bodies (Body::deformable) and node() the node's, as in World::deformableBody.
  bool grabsNode() const { return node_ >= 0; }
  int deformable() const { return deformable_; }
  int node() const { return node_; }

  // The mouse ray of this frame; its intersection with the drag plane is the spring's anchor.
  void setMouseRay(const render::Ray& ray);

  // Rigid body: the impulse for the coming step (zero if the mouse ray misses the plane). The caller
  // applies it at grabPointWorld() with World::applyImpulse.
  Vec3 impulse(const World& world) const;
  // Deformable body: the force on the grabbed node for the coming step (zero without an anchor). The
  // caller sets it with World::setDeformableNodeForce.
  Vec3 nodeForce(const World& world) const;
  // Where the spring holds the body: the grabbed point, or the grabbed node.
  Vec3 grabPointWorld(const World& world) const;
  const std::optional<Vec3>& anchor() const { return anchor_; }

 private:
  // The spring-damper's force on a body of `mass` whose grabbed point is at `point`, moving at `velocity`.
  Vec3 springForce(double mass, const Vec3& point, const Vec3& velocity) const;

  int body_ = -1;
  int deformable_ = -1;
  int node_ = -1;
  Vec3 grabLocal_ = Vec3::Zero();  // rigid: body frame, relative to the centre of mass
  Vec3 planePoint_ = Vec3::Zero();
  Vec3 planeNormal_ = Vec3::UnitZ();
  std::optional<Vec3> anchor_;
};

// The node of a deformable mesh's surface (a node of a boundary triangle) nearest to `point`; -1
// when the surface has none.
int nearestSurfaceNode(const DeformableMeshView& mesh, const Vec3& point);

}  // namespace contactlab::app
