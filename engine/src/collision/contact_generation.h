#pragma once
// The collide stage: broadphase pairs, then narrowphase contact points, in a deterministic order.
#include <vector>

#include "collision/broadphase_grid.h"
#include "collision/contact_buffer.h"
#include "collision/contact_point.h"
#include "collision/mesh_model.h"
#include "collision/mesh_pair_fronts.h"
#include "contactlab/body.h"

namespace contactlab {

struct BodyContact {
  int bodyA = -1, bodyB = -1;  // bodyA < bodyB; the normal points from A to B (paper appendix A)
  ContactPoint contact;
};

// Contact rule. Contacts are detected at the midpoint positions q^{t+1/2} (paper sec. 4.3) and
// include points not yet touching: a pair is reported while its gap is below
//   margin = kContactSkin + dt (|v_A - v_B| + |w_A| r_A + |w_B| r_B + |g| dt [one of A, B dynamic]),
// (r the bounding radius, static bodies at rest) the distance by which the gap can close before
// the next midpoint. The broadphase boxes grow by each body's own travel,
// dt (|v| + |g| dt + |w| r), which covers it. The solver then keeps the gap
// closing no faster than g/dt (see contact_assembly.cpp), so a body cannot pass through another
// between two steps however fast it moves: a 0.25 m sphere dropped from 10 m stops on a 1 m
// ground box at dt = 0.01 (Tunnelling in tests/physics/impact_and_spin_test.cpp).
// The skin keeps resting contacts (gap about 0, or slightly open after a solve) in the set from step
// to step, so that warm starts find them; the closing bound, not the skin, covers motion. 1 mm, about
// g dt^2 at the default dt: a larger skin adds contacts that are open by millimetres and carry no
// impulse, yet cost a full update in every sweep and an exact query in the narrowphase (in mesh
// piles most of the contacts; docs/benchmarks.md).
inline constexpr double kContactSkin = 0.001;  // metres
// How far a pair of meshes may move relative to each other and still keep the contacts of its last
// search (ContactGenerator::PairMemory).
inline constexpr double kRestingMotion = 1e-3 * kContactSkin;

class ThreadPool;

// A body's motion over a step, as the contact margin needs it (ContactGenerator::generate).
struct BodyTravel {
  Vec3 velocity;  // zero for a static body
  double spin;    // dt |w| r_bound
  bool dynamic;
  Vec3 turn;      // dt w, zero for a static body
  double radius;  // r_bound
};

// How b may move relative to a until the next midpoint, for a pair searched with `margin` (the
// mesh pairs' paths, ContactBuffer::relativeTravel): the translation dt (v_b - v_a) with gravity's
// share, both turns dt w, and the point margin that bounds what the first-order paths
// leave out (derivation next to the definition; tested against the exact rotations).
RelativeTravel relativeTravel(const BodyTravel& a, const BodyTravel& b, double dt, const Vec3& gravity, double margin);

class ContactGenerator {
 public:
  // Contacts sorted by pair (a, b), each pair's points in narrowphase order; the same for any
  // thread count of `pool` (serial when null): the boxes, the pair search and the pairs'
  // narrowphase run in parallel, each writing slots of its own (docs/threads.md). Mesh bodies need
  // their models from prepareMeshes (a mesh pair without one throws std::logic_error).
  // `angularVelocityAhead`, per body, the angular velocity until the next midpoint (the World gives
  // the free w^{t+1} of dynamic bodies); the bodies' own when null.
  void generate(const std::vector<Body>& bodies, double dt, const Vec3& gravity, std::vector<BodyContact>& out,
                ThreadPool* pool = nullptr, const std::vector<Vec3>* angularVelocityAhead = nullptr);

  // Builds the collision models of the bodies' meshes (one per distinct geometry) with kDOP trees
  // of k = 14, 18 or 26, all rebuilt when k changes. Bodies keep their shapes, so this runs when the
  // bodies are set and when k changes, not every step; generate() then only reads the models, which
  // lets its pairs run in parallel. Throws std::invalid_argument naming a mesh that cannot be used.
  void prepareMeshes(const std::vector<Body>& bodies, int k);

  // What the last generate() saw, for the viewer: each body's inflated box at q^{t+1/2}, and the grid.
  const std::vector<Aabb>& boundingBoxes() const { return boxes_; }
  const BroadphaseGrid& grid() const { return grid_; }
  // Broadphase pairs of the last generate() whose narrowphase was skipped because an earlier step
  // proved them apart, and mesh pairs searched only near the last contact (see PairMemory).
  int skippedPairs() const { return skippedPairs_; }
  int replayedPairs() const { return replayedPairs_; }
  int restingPairs() const { return restingPairs_; }  // mesh pairs that kept their contacts (PairMemory)

 private:
  BroadphaseGrid grid_;
  std::vector<Pose> poses_;  // per body at q^{t+1/2}: the rotation matrix formed once per step
  std::vector<Aabb> boxes_;
  std::vector<double> motion_;  // per body: how far it can travel before the next midpoint
  std::vector<BodyTravel> travel_;
  std::vector<std::uint8_t> movable_;
  std::vector<BodyPair> pairs_;
  // What a pair of meshes learnt in its last search from the roots, with b's pose in a's frame and
  // the margin then. A pair that found no contact knows a lower bound of its shapes' separation
  // (collideShapes): while b has moved in a's frame by less than the bound minus the margin, it
  // has no contacts and its narrowphase is skipped. A pair that moves slowly enough also knows
  // where its traversals stopped near the contact or near the margin (MeshPairFronts): while b
  // has moved by at most kFrontReach, the search starts there. Either way the contacts are
  // exactly those of a search from the roots, only cheaper: most broadphase pairs of a heap of
  // jacks have overlapping boxes but arms that do not touch, and the touching ones rest
  // (docs/meshes.md).
  // The one exception is a pair at rest. While b has moved in a's frame by at most kRestingMotion
  // since its contacts were last searched, and the margin has changed by no more, the pair keeps
  // those contacts (stored in a's frame, so a's own motion carries them). A kept point differs from
  // a fresh search's point of the same features by at most that motion, 1 um (a thousandth of the
  // skin), in place and gap. The set itself may differ where a fresh search would gain or lose a
  // point at the margin or at the manifold's cap, or switch features. A jammed pile's bodies creep
  // so slowly that a resting pair takes many steps to move that far, and searches only then
  // (docs/meshes.md, "Remembering mesh pairs between steps").
  struct PairMemory {
    BodyPair pair;
    Pose bInA;
    double margin = 0.0;
    double bound = 0.0;  // > 0: apart by at least this
    bool recorded = false;  // searched from the roots at bInA (false: a pair new to this step)
    bool hasFronts = false;  // and recorded its fronts then
    MeshPairFronts fronts;
    // The contacts of the last search (from the roots or the fronts; every recorded pair has one),
    // with points and normals in a's frame, b's pose in a's frame and the margin then.
    ContactManifold contactsInA;
    Pose contactsBInA;
    double contactsMargin = 0.0;
  };
  std::vector<int> memoryOfPair_;             // per pair of pairs_: its entry in memories_, -1 unless two meshes
  std::vector<PairMemory> memories_;          // per pair of meshes in pairs_, this step
  std::vector<PairMemory> previousMemories_;  // the last step's that know something, sorted by pair like pairs_
  int skippedPairs_ = 0;
  int replayedPairs_ = 0;
  int restingPairs_ = 0;
  struct ChunkContacts {  // one chunk of pairs' narrowphase output and scratch, kept between steps
    ContactManifold manifold;
    std::vector<BodyContact> contacts;
    int skippedPairs = 0;
    int replayedPairs = 0;
    int restingPairs = 0;
  };
  std::vector<ChunkContacts> chunkContacts_;
  MeshModelCache meshModels_;  // one per distinct mesh geometry of the bodies
};

}  // namespace contactlab
