#include "collision/contact_generation.h"

#include "collision/mesh_contacts.h"
#include "collision/narrowphase.h"
#include "core/thread_pool.h"

namespace contactlab {

namespace {

// Whether a pair whose separation bound was found at relative pose s.bInA is still farther apart
// than `margin` with b now at `bInA` in a's frame. A point x of b (body frame, |x| <= radiusB) sits
// at R x + p in a's frame, so it has moved by |(R - R0) x + p - p0| <= ||R - R0||_F radiusB +
// |p - p0| since then, and no distance between a point of a and a point of b has shrunk by more.
// The slack, far above the rounding of the bound's arithmetic, keeps a pair at the margin searched.
bool stillSeparated(const Pose& then, double bound, const Pose& bInA, double radiusA, double radiusB, double margin) {
  const double moved = (bInA.position - then.position).norm() + (bInA.rotation - then.rotation).norm() * radiusB;
  return bound - moved > margin + 1e-9 * (1.0 + radiusA + radiusB);
}

bool lessPair(const BodyPair& x, const BodyPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }

}  // namespace

void ContactGenerator::prepareMeshes(const std::vector<Body>& bodies, int k) {
  // The bounds belong to the bodies they were found for.
  previousSeparations_.clear();
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

  // The last step's separation bounds, for the pairs found again (both lists sorted by pair).
  separations_.assign(pairs_.size(), PairSeparation{});
  for (std::size_t p = 0, q = 0; p < pairs_.size() && q < previousSeparations_.size(); ++p) {
    while (q < previousSeparations_.size() && lessPair(previousSeparations_[q].pair, pairs_[p])) ++q;
    if (q < previousSeparations_.size() && !lessPair(pairs_[p], previousSeparations_[q].pair))
      separations_[p] = previousSeparations_[q];
  }

  // Each chunk of pairs collects its contacts in pair order in a list of its own; the lists are
  // joined in chunk order, which is the serial order whatever thread ran which chunk.
  constexpr int kPairsPerChunk = 64;
  const int chunks = ThreadPool::chunkCount(static_cast<int>(pairs_.size()), kPairsPerChunk);
  if (static_cast<int>(chunkContacts_.size()) < chunks) chunkContacts_.resize(chunks);
  parallelFor(pool, static_cast<int>(pairs_.size()), kPairsPerChunk, [&](int begin, int end, int chunk) {
    ChunkContacts& mine = chunkContacts_[chunk];
    mine.contacts.clear();
    mine.skippedPairs = 0;
    for (int p = begin; p < end; ++p) {
      const BodyPair& pair = pairs_[p];
      const Shape& shapeA = bodies[pair.a].shape;
      const Shape& shapeB = bodies[pair.b].shape;
      const double margin = kContactSkin + motion_[pair.a] + motion_[pair.b];
      PairSeparation& separation = separations_[p];
      if (separation.bound > 0.0) {
        if (stillSeparated(separation.bInA, separation.bound, relativePose(poses_[pair.a], poses_[pair.b]),
                           boundingRadius(shapeA), boundingRadius(shapeB), margin)) {
          ++mine.skippedPairs;  // carried on unchanged: the motion is measured from where the bound was found
          continue;
        }
        separation = PairSeparation{};
      }
      mine.manifold.clear();
      const double bound = collideShapes(shapeA, poses_[pair.a], shapeB, poses_[pair.b], margin, &meshModels_, mine.manifold);
      if (bound > 0.0) separation = {pair, relativePose(poses_[pair.a], poses_[pair.b]), bound};
      for (const ContactPoint& point : mine.manifold) mine.contacts.push_back({pair.a, pair.b, point});
    }
  });
  out.clear();
  skippedPairs_ = 0;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    out.insert(out.end(), chunkContacts_[chunk].contacts.begin(), chunkContacts_[chunk].contacts.end());
    skippedPairs_ += chunkContacts_[chunk].skippedPairs;
  }
  // Keep the pairs with a bound for the next step, in pair order.
  previousSeparations_.clear();
  for (const PairSeparation& separation : separations_)
    if (separation.bound > 0.0) previousSeparations_.push_back(separation);
}

}  // namespace contactlab
