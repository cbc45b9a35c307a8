#include "collision/contact_generation.h"

#include "collision/narrowphase.h"

namespace contactlab {

void ContactGenerator::generate(const std::vector<Body>& bodies, double dt, const Vec3& gravity,
                                std::vector<BodyContact>& out) {
  const int n = static_cast<int>(bodies.size());
  boxes_.resize(n);
  motion_.resize(n);
  movable_.resize(n);
  for (int i = 0; i < n; ++i) {
    const Body& body = bodies[i];
    const bool moves = body.motion != MotionType::Static;
    motion_[i] = moves ? dt * (body.velocity.norm() + (body.isDynamic() ? gravity.norm() * dt : 0.0) +
                              body.angularVelocity.norm() * boundingRadius(body.shape))
                       : 0.0;
    movable_[i] = body.isDynamic() ? 1 : 0;
    boxes_[i] = shapeAabb(body.shape, {body.position, body.rotation()}).inflated(motion_[i] + 0.5 * kContactSkin);
  }

  grid_.findPairs(boxes_, movable_, pairs_);

  out.clear();
  for (const BodyPair& pair : pairs_) {
    const Body& a = bodies[pair.a];
    const Body& b = bodies[pair.b];
    manifold_.clear();
    collideShapes(a.shape, {a.position, a.rotation()}, b.shape, {b.position, b.rotation()},
                  kContactSkin + motion_[pair.a] + motion_[pair.b], manifold_);
    for (const ContactPoint& point : manifold_) out.push_back({pair.a, pair.b, point});
  }
}

}  // namespace contactlab
