#include "collision/contact_generation.h"

#include "collision/narrowphase.h"
#include "core/thread_pool.h"

namespace contactlab {

void ContactGenerator::prepareMeshes(const std::vector<Body>& bodies, int k) {
  meshModels_.setK(k);
  for (const Body& body : bodies)
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) meshModels_.prepare(mesh->geometry);
}

void ContactGenerator::generate(const std::vector<Body>& bodies, double dt, const Vec3& gravity,
                                std::vector<BodyContact>& out, ThreadPool* pool) {
  const int n = static_cast<int>(bodies.size());
  poses_.resize(n);
  boxes_.resize(n);
  motion_.resize(n);
  movable_.resize(n);
  constexpr int kBodiesPerChunk = 256;
  parallelFor(pool, n, kBodiesPerChunk, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      const Body& body = bodies[i];
      const bool moves = body.motion != MotionType::Static;
      motion_[i] = moves ? dt * (body.velocity.norm() + (body.isDynamic() ? gravity.norm() * dt : 0.0) +
                                body.angularVelocity.norm() * boundingRadius(body.shape))
                         : 0.0;
      movable_[i] = body.isDynamic() ? 1 : 0;
      poses_[i] = {body.position, body.rotation()};
      boxes_[i] = shapeAabb(body.shape, poses_[i]).inflated(motion_[i] + 0.5 * kContactSkin);
    }
  });

  grid_.findPairs(boxes_, movable_, pairs_, pool);

  // Each chunk of pairs collects its contacts in pair order in a list of its own; the lists are
  // joined in chunk order, which is the serial order whatever thread ran which chunk.
  constexpr int kPairsPerChunk = 64;
  const int chunks = ThreadPool::chunkCount(static_cast<int>(pairs_.size()), kPairsPerChunk);
  if (static_cast<int>(chunkContacts_.size()) < chunks) chunkContacts_.resize(chunks);
  parallelFor(pool, static_cast<int>(pairs_.size()), kPairsPerChunk, [&](int begin, int end, int chunk) {
    ChunkContacts& mine = chunkContacts_[chunk];
    mine.contacts.clear();
    for (int p = begin; p < end; ++p) {
      const BodyPair& pair = pairs_[p];
      mine.manifold.clear();
      collideShapes(bodies[pair.a].shape, poses_[pair.a], bodies[pair.b].shape, poses_[pair.b],
                    kContactSkin + motion_[pair.a] + motion_[pair.b], &meshModels_, mine.manifold);
      for (const ContactPoint& point : mine.manifold) mine.contacts.push_back({pair.a, pair.b, point});
    }
  });
  out.clear();
  for (int chunk = 0; chunk < chunks; ++chunk)
    out.insert(out.end(), chunkContacts_[chunk].contacts.begin(), chunkContacts_[chunk].contacts.end());
}

}  // namespace contactlab
