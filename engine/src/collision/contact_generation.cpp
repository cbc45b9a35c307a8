#include "collision/contact_generation.h"

#include "collision/narrowphase.h"

namespace contactlab {

void ContactGenerator::generate(const std::vector<Body>& bodies, double dt, const Vec3& gravity,
                                std::vector<BodyContact>& out) {
  const int n = static_cast<int>(bodies.size());
  poses_.resize(n);
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
    poses_[i] = {body.position, body.rotation()};
    boxes_[i] = shapeAabb(body.shape, poses_[i]).inflated(motion_[i] + 0.5 * kContactSkin);
    // Built on the first sight of each geometry, before the pairs, which then only read the cache.
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) meshModels_.prepare(mesh->geometry);
  }

  grid_.findPairs(boxes_, movable_, pairs_);

  out.clear();
  for (const BodyPair& pair : pairs_) {
    manifold_.clear();
    collideShapes(bodies[pair.a].shape, poses_[pair.a], bodies[pair.b].shape, poses_[pair.b],
                  kContactSkin + motion_[pair.a] + motion_[pair.b], &meshModels_, manifold_);
    for (const ContactPoint& point : manifold_) out.push_back({pair.a, pair.b, point});
  }
}

}  // namespace contactlab
