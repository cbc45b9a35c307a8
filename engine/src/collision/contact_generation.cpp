#include "collision/contact_generation.h"

#include "collision/mesh_contacts.h"
#include "collision/narrowphase.h"
#include "core/thread_pool.h"

namespace contactlab {

namespace {

// How far any point of b (body frame x, |x| <= radiusB) has moved in a's frame since b was at
// `then` there: it sits at R x + p, so by |(R - R0) x + p - p0| <= ||R - R0||_F radiusB + |p - p0|.
// No distance between a point of a and a point of b has changed by more.
double movedSince(const Pose& then, const Pose& now, double radiusB) {
  return (now.position - then.position).norm() + (now.rotation - then.rotation).norm() * radiusB;
}

// A pair searches from its recorded fronts while b has moved by at most this (plus any
// growth of the margin) since they were recorded; the fronts keep the node pairs left out up to
// the margin plus twice this, so the pairs they omit are still beyond the margin. Its own length,
// not a share of the skin: settling jacks move by a millimetre or two between searches from the
// roots, so with half the 1 mm skin the fronts would seldom be replayed.
constexpr double kFrontReach = 0.0025;

// How far the gap of a pair can close before the next midpoint: the relative velocity of any two
// points of the bodies is at most |v_a - v_b| + |w_a| r_a + |w_b| r_b, and gravity moves a dynamic
// body against a static or kinematic one (two dynamic bodies fall alike). Relative, not each
// body's own travel: two jacks falling side by side at 10 m/s need no 0.2 m search margin.
double closingBound(const BodyTravel& a, const BodyTravel& b, double dt, double gravity) {
  return dt * (a.velocity - b.velocity).norm() + a.spin + b.spin + (a.dynamic != b.dynamic ? gravity * dt * dt : 0.0);
}

bool lessPair(const BodyPair& x, const BodyPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }

}  // namespace

// closingBound's motion as vectors: b's displacement relative to a until the next midpoint, dt
// v^{t+1} between midpoints with v^{t+1} the free velocity (gravity's share when one body is dynamic
// and the other not), and both turns dt w. To first order a point x of b moves relative to a by
// translation + turn_b x (x - c_b) - turn_a x (x - c_a) (docs/meshes.md, "Which points become
// contacts").
// The rotations' exact paths leave that line by at most (theta = |turn|, r the bounding radii,
// theta_o of the body the point is seen from): theta_m^2 r_m / 2 + theta_o^2 (r_o + margin) / 2 +
// theta_o (|translation| + theta_m r_m), which (theta_a + theta_b)^2 (r_a + r_b + margin) / 2 +
// (theta_a + theta_b) |translation| bounds for either side: the point margin is that plus the
// skin. The node tests follow the same first-order paths (OrientedBoxTest with a LinearMotion),
// so they need no margin of their own.
RelativeTravel relativeTravel(const BodyTravel& a, const BodyTravel& b, double dt, const Vec3& gravity, double margin) {
  const double falling = (b.dynamic ? 1.0 : 0.0) - (a.dynamic ? 1.0 : 0.0);
  const Vec3 translation = dt * (b.velocity - a.velocity) + falling * dt * dt * gravity;
  const double turns = a.turn.norm() + b.turn.norm();
  const double pointMargin =
      kContactSkin + 0.5 * turns * turns * (a.radius + b.radius + margin) + turns * translation.norm();
  return {translation, a.turn, b.turn, pointMargin};
}

void ContactGenerator::prepareMeshes(const std::vector<Body>& bodies, int k) {
  // What pairs learnt belongs to the bodies they learnt it for.
  previousMemories_.clear();
  meshModels_.setK(k);
  for (const Body& body : bodies)
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) meshModels_.prepare(mesh->geometry);
}

void ContactGenerator::generate(const std::vector<Body>& bodies, double dt, const Vec3& gravity,
                                std::vector<BodyContact>& out, ThreadPool* pool,
                                const std::vector<Vec3>* angularVelocityAhead) {
  const int n = static_cast<int>(bodies.size());
  poses_.resize(n);
  boxes_.resize(n);
  motion_.resize(n);
  travel_.resize(n);
  movable_.resize(n);
  constexpr int kBodiesPerChunk = 256;
  parallelFor(pool, n, kBodiesPerChunk, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      const Body& body = bodies[i];
      const bool moves = body.motion != MotionType::Static;
      const double radius = boundingRadius(body.shape);
      const Vec3& angularVelocity = angularVelocityAhead ? (*angularVelocityAhead)[i] : body.angularVelocity;
      const Vec3 turn = moves ? Vec3(dt * angularVelocity) : Vec3::Zero();
      travel_[i] = {moves ? body.velocity : Vec3::Zero(), turn.norm() * radius, body.isDynamic(), turn, radius};
      motion_[i] = moves ? dt * (body.velocity.norm() + (body.isDynamic() ? gravity.norm() * dt : 0.0)) + travel_[i].spin
                         : 0.0;
      // Pairs need something that moves in the step: an awake dynamic body, or a kinematic body on
      // the move (which can touch, and so wake, a sleeping one; see the pair filter below).
      const bool movingKinematic = body.motion == MotionType::Kinematic &&
                                   (body.velocity != Vec3::Zero() || body.angularVelocity != Vec3::Zero());
      movable_[i] = body.rigidStepped() || movingKinematic ? 1 : 0;
      poses_[i] = {body.position, body.rotation()};
      boxes_[i] = shapeAabb(body.shape, poses_[i]).inflated(motion_[i] + 0.5 * kContactSkin);
    }
  });

  grid_.findPairs(boxes_, movable_, pairs_, pool);
  // A pair without a dynamic body (a moving kinematic body against a static or kinematic one) has no
  // contact to solve.
  // A deformable body's contacts, and those of a rigid body coupled to one, are the deformable
  // stages' (Body::deformable, Body::coupled).
  std::erase_if(pairs_, [&](const BodyPair& pair) {
    const Body &a = bodies[pair.a], &b = bodies[pair.b];
    return (!a.isDynamic() && !b.isDynamic()) || a.isDeformable() || b.isDeformable() || a.coupled || b.coupled;
  });

  // Memories for the pairs of meshes only (the other pairs have none: a scene of boxes keeps
  // nothing), with the last step's for those found again (both lists sorted by pair).
  memoryOfPair_.resize(pairs_.size());
  memories_.clear();
  for (std::size_t p = 0; p < pairs_.size(); ++p) {
    const bool meshes = kindOf(bodies[pairs_[p].a].shape) == ShapeKind::Mesh && kindOf(bodies[pairs_[p].b].shape) == ShapeKind::Mesh;
    memoryOfPair_[p] = meshes ? static_cast<int>(memories_.size()) : -1;
    if (meshes) memories_.emplace_back().pair = pairs_[p];
  }
  for (std::size_t m = 0, q = 0; m < memories_.size() && q < previousMemories_.size(); ++m) {
    while (q < previousMemories_.size() && lessPair(previousMemories_[q].pair, memories_[m].pair)) ++q;
    if (q < previousMemories_.size() && !lessPair(memories_[m].pair, previousMemories_[q].pair))
      memories_[m] = std::move(previousMemories_[q]);
  }

  // Each chunk of pairs collects its contacts in pair order in a list of its own; the lists are
  // joined in chunk order, which is the serial order whatever thread ran which chunk.
  constexpr int kPairsPerChunk = 64;
  const int chunks = ThreadPool::chunkCount(static_cast<int>(pairs_.size()), kPairsPerChunk);
  if (static_cast<int>(chunkContacts_.size()) < chunks) chunkContacts_.resize(chunks);
  parallelFor(pool, static_cast<int>(pairs_.size()), kPairsPerChunk, [&](int begin, int end, int chunk) {
    ChunkContacts& mine = chunkContacts_[chunk];
    mine.contacts.clear();
    mine.skippedPairs = mine.replayedPairs = mine.restingPairs = 0;
    for (int p = begin; p < end; ++p) {
      const BodyPair& pair = pairs_[p];
      const Shape& shapeA = bodies[pair.a].shape;
      const Shape& shapeB = bodies[pair.b].shape;
      const double margin = kContactSkin + closingBound(travel_[pair.a], travel_[pair.b], dt, gravity.norm());
      mine.manifold.clear();
      if (memoryOfPair_[p] < 0) {  // not two meshes
        collideShapes(shapeA, poses_[pair.a], shapeB, poses_[pair.b], margin, &meshModels_, mine.manifold);
      } else {
        PairMemory& memory = memories_[memoryOfPair_[p]];
        const Pose bInA = relativePose(poses_[pair.a], poses_[pair.b]);
        const double radiusB = boundingRadius(shapeB);
        // Far above the rounding of the bounds' arithmetic: a pair at the margin is searched.
        const double slack = 1e-9 * (1.0 + boundingRadius(shapeA) + radiusB);
        const double moved = memory.recorded ? movedSince(memory.bInA, bInA, radiusB) : 0.0;
        if (memory.bound > 0.0 && memory.bound - moved > margin + slack) {
          ++mine.skippedPairs;  // kept as it is: the motion is measured from where the bound was found
          continue;
        }
        const Pose& a = poses_[pair.a];
        if (memory.recorded && std::abs(margin - memory.contactsMargin) <= kRestingMotion &&
            movedSince(memory.contactsBInA, bInA, radiusB) <= kRestingMotion) {
          ++mine.restingPairs;
          for (const ContactPoint& inA : memory.contactsInA)
            mine.manifold.push_back({toWorld(a, inA.point), a.rotation * inA.normal, inA.gap, inA.feature});
        } else {
          const RelativeTravel travel = relativeTravel(travel_[pair.a], travel_[pair.b], dt, gravity, margin);
          if (memory.hasFronts && moved + std::max(0.0, margin - memory.margin) <= kFrontReach) {
            ++mine.replayedPairs;
            memory.fronts.mode = MeshPairFronts::Mode::Replay;
            memory.fronts.reach = margin + moved + slack;
            collideShapes(shapeA, poses_[pair.a], shapeB, poses_[pair.b], margin, &meshModels_, mine.manifold,
                          &memory.fronts, &travel);
          } else {
            // A pair whose gap may close by more than kFrontReach in a step would move beyond its
            // fronts' reach before it could use them (two jacks landing on each other): it keeps
            // only its bound, and neither the time nor the memory to record them.
            memory.hasFronts = margin - kContactSkin <= kFrontReach;
            memory.fronts.mode = MeshPairFronts::Mode::Record;
            memory.fronts.recordBelow = margin + 2.0 * kFrontReach;
            if (!memory.hasFronts) {
              memory.fronts.verticesOfA = {};
              memory.fronts.verticesOfB = {};
            }
            memory.bound = collideShapes(shapeA, poses_[pair.a], shapeB, poses_[pair.b], margin, &meshModels_,
                                         mine.manifold, memory.hasFronts ? &memory.fronts : nullptr, &travel);
            memory.recorded = true;
            memory.pair = pair;
            memory.bInA = bInA;
            memory.margin = margin;
          }
          memory.contactsInA.clear();
          for (const ContactPoint& point : mine.manifold)
            memory.contactsInA.push_back({toBody(a, point.point), a.rotation.transpose() * point.normal, point.gap,
                                          point.feature});
          memory.contactsBInA = bInA;
          memory.contactsMargin = margin;
        }
      }
      for (const ContactPoint& point : mine.manifold) mine.contacts.push_back({pair.a, pair.b, point});
    }
  });
  out.clear();
  skippedPairs_ = replayedPairs_ = restingPairs_ = 0;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    out.insert(out.end(), chunkContacts_[chunk].contacts.begin(), chunkContacts_[chunk].contacts.end());
    skippedPairs_ += chunkContacts_[chunk].skippedPairs;
    replayedPairs_ += chunkContacts_[chunk].replayedPairs;
    restingPairs_ += chunkContacts_[chunk].restingPairs;
  }
  // Keep what the pairs learnt for the next step, in pair order.
  previousMemories_.clear();
  for (PairMemory& memory : memories_)
    if (memory.recorded) previousMemories_.push_back(std::move(memory));
}

}  // namespace contactlab
