#pragma once
// Constraints of deformable surfaces against static and kinematic rigid bodies and against each
// other (Verschoor & Jalba sec. 2.3 and 5), and the ConstraintUpdater through which the CR solve
// extends and re-linearizes them (Alg. 1, lines 25 and 27). Against rigid bodies:
// - a deformable surface vertex against the rigid body's surface (below);
// - a rigid body's vertex (a box's corners, a mesh's vertices) against the nearest face of a
//   deformable surface, the paper's vertex-face pair with the rigid side as the vertex: the face
//   point q = sum w_i x_i with outward normal n stays behind the vertex p at the end of the step,
//   n . (p - q - dt sum w_i v_i) >= 0, i.e. weights -w_i on the face's nodes and c_n = -d;
// - a rigid edge against a deformable surface edge whose closest points lie inside both (the
//   paper's edge-edge pair): the same with q = (1 - t) x_i + t x_j, n along the edges' cross
//   product, turned outward of the deformable surface.
//
// A vertex x_m against rigid body B at its pose at the end of the step: with p, n, d the nearest
// point of B's surface to a linearization point x_w, its outward normal and signed distance,
//   C(x_m + dt v_m) = n . (x_m + dt v_m - p) >= 0   =>   dt n . v_m >= n . (x_w - x_m) - d  = c_n    (eq. 6-7)
// and friction rows along t1, t2 with c_t = dt (t1, t2) . u_p, the surface's own travel (zero on
// static bodies), so that a sticking vertex moves with the surface. x_w = x_m at first; re-linearizing
// moves it towards the end position (eq. 21).
//
// Between two deformable bodies (deformable_pair_contacts.cpp), the paper's pairs of Fig. 3 with
// both sides moving:
// - a surface vertex m against the nearest face of another body, q = sum w_i x_i, n the face's
//   outward normal (or the direction from q to m beside an edge or corner):
//   n . (x_m + dt v_m - q - dt sum w_i v_i) >= 0, weights (1, -w_a, -w_b, -w_c), c_t = 0;
// - an edge against another body's edge, closest points p = (1 - s) x_i + s x_j and
//   q = (1 - t) x_k + t x_l inside both, n along the edges' cross product, turned from the second
//   body towards the first: weights (1 - s, s, -(1 - t), -t).
// Near-duplicates (edges crossing near a shared vertex, a vertex over an edge of two faces) get
// the similarity weights Z of sec. 3.4.1 (updateSimilarity).
//
// Spheres and capsules have no vertex or edge that would meet a deformable face between its
// vertices; their surface meets the faces directly (linearizeRoundFace), the face's point nearest
// the shape's centre or axis acting as the face point of a rigid vertex pair.
//
// A dynamic rigid body coupled to the deformable ones (Body::coupled) takes the place of an
// obstacle in all of the above, with its velocities among the unknowns (a rigid term of the
// constraint, DeformableConstraint) instead of known; its contacts with other rigid bodies come
// from the rigid narrowphase (addRigidPairConstraints).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "collision/mesh_model.h"
#include "collision/segment_geometry.h"
#include "collision/triangle_geometry.h"
#include "deformable/surface_trees.h"
#include "geometry/tet_mesh.h"
#include "geometry/shape_geometry.h"
#include "contactlab/body.h"
#include "problem/deformable_problem.h"

namespace contactlab {

// A rigid body's edge and the outward normals of its two faces, world.
struct RigidEdge {
  Segment segment;
  std::array<Vec3, 2> normals;
  bool convex = true;  // the faces meet in a ridge (a box's every edge), not a valley
  // Whether `point` lies outside the body as these two faces bound it near the edge: in front of
  // either face at a ridge, of both at a valley.
  bool outside(const Vec3& point) const {
    const bool first = normals[0].dot(point - segment.start) > 0.0, second = normals[1].dot(point - segment.start) > 0.0;
    return convex ? first || second : first && second;
  }
};

class DeformableContacts final : public ConstraintUpdater {
 public:
  struct SurfaceNode {
    int node = 0;     // global node index in the deformable problem
    double mu = 0.0;  // the deformable body's friction coefficient
  };
  // A deformable body's boundary faces (global node indices, counter-clockwise from outside).
  struct SurfaceFaces {
    std::vector<std::array<int, 3>> faces;
    // Unique boundary edges (global nodes) and, per edge, the one or two faces that share it.
    std::vector<std::array<int, 2>> edges;
    std::vector<std::array<int, 2>> edgeFaces;  // -1 for a missing second face
    // Per face: its edges (indices into edges), edge k from corner k to corner k + 1.
    std::vector<std::array<int, 3>> faceEdges;
    // The faces around each of the body's nodes (global node - firstNode; none for interior nodes).
    int firstNode = 0;
    std::vector<std::vector<int>> nodeFaces;
    double mu = 0.0;
    bool selfCollision = false;  // its vertices and edges also meet its own faces and edges
    // The body's surface vertices: entries [firstSurface, firstSurface + numSurface) of the surface list.
    int firstSurface = 0;
    int numSurface = 0;
  };
  // The faces, edges and their adjacency of a body whose `numNodes` nodes are numbered from
  // `firstNode` in the problem and whose surface vertices start at `firstSurface` in the surface list
  // (mu 0, no self-collision).
  static SurfaceFaces surfaceFaces(const TetBoundary& boundary, int firstNode, int numNodes, int firstSurface);
  // Which constraint is which:
  // - surface vertex `surface` (index into the surface list) against rigid body `body`;
  // - rigid `body`'s vertex `rigidVertex` against the faces of deformable body `deformable`;
  // - rigid `body`'s edge `rigidEdge` against edge `edge` of deformable body `deformable`;
  // - surface vertex `surface` against the faces of deformable body `deformable` (body -1), and,
  //   with `face`, against that face alone: a vertex's second constraint in a crease (relinearize);
  // - edge `otherEdge` of deformable body `otherDeformable` against edge `edge` of `deformable`
  //   (body -1);
  // - face `face` of deformable body `deformable` against rigid `body`'s round surface (a sphere or
  //   a capsule, which have no vertices or edges to meet it);
  // - two rigid bodies `body` < `otherBody` of a mixed island (at least one of them coupled), at
  //   the narrowphase's contact `feature` (rigid_pair_contacts.cpp).
  struct Pair {
    int surface = -1;
    int body = -1;
    int rigidVertex = -1;
    int deformable = -1;
    int rigidEdge = -1;
    int edge = -1;
    int otherDeformable = -1;
    int otherEdge = -1;
    int face = -1;
    int otherBody = -1;
    std::uint32_t feature = 0;
    bool againstRigid() const { return body >= 0; }
    bool rigidPair() const { return otherBody >= 0; }
    auto operator<=>(const Pair&) const = default;
  };

  // Largest turn of a constraint's normal in one re-linearization (sec. 3.3: "say, 15 degrees").
  static constexpr double kMostNormalTurn = 15.0 * 3.14159265358979323846 / 180.0;
  // Pairs within this distance beyond their possible travel are candidates (metres).
  static constexpr double kMargin = 1e-3;
  // A constraint violated by more than this at the end of the step (metres) is re-linearized there
  // however far its normal turns (relinearize).
  static constexpr double kDeepAtEnd = 1e-4;

  // A change of a constraint smaller than this (metres, in the constraint's units) is no change.
  void setTolerance(double tolerance) { tolerance_ = tolerance; }

  // Alg. 1, line 5 (sec. 5.1): the candidate (vertex, rigid body) pairs whose boxes, extended by
  // three times the vertex's travel in the step, overlap; and a constraint for each candidate already
  // within that travel of the surface (appended to problem.constraints, started inactive by the
  // solver). The deformable surfaces are searched through their kDOP trees (surface_trees.h),
  // built on the first step and refitted on every one after. `obstacles` are the indices of the
  // static and kinematic rigid bodies (at their end-of-step poses), `coupled` those of the dynamic
  // rigid bodies solved with the deformable ones (at the step's start; the problem's rigid body j
  // is coupled[j]); `positions` and `velocities` the nodes' at the start of the step (3 per node,
  // the FEM nodes', then u and w of each coupled body); `meshes` must hold the models of the rigid
  // bodies' meshes. `faces` per deformable body, for the rigid vertices and edges. The vectors are
  // kept by reference until the step's solve is over.
  void begin(const std::vector<Body>& bodies, const std::vector<int>& obstacles, const std::vector<int>& coupled,
             const MeshModelCache& meshes, const std::vector<SurfaceNode>& surface,
             const std::vector<SurfaceFaces>& faces, const Eigen::VectorXd& positions,
             const Eigen::VectorXd& velocities, const Vec3& gravity, DeformableProblem& problem);

  // k of the surface trees' kDOPs (14, 18 or 26; the World's kdop setting).
  void setKdop(int k);

  int addCollisions(const Eigen::VectorXd& v, DeformableProblem& problem) override;
  int relinearize(const Eigen::VectorXd& v, const std::vector<std::uint8_t>& active,
                  DeformableProblem& problem) override;

  // One island of the step's problem, which DeformableSystem::solve solves as its own MLCP
  // (deformable_islands.h). Under a scope, addCollisions searches only from the island's deformable
  // bodies' vertices and its coupled rigid bodies, and relinearize and the similarity weights cover
  // only the island's constraints, refitting only its bodies' trees: nothing reads or writes another
  // island's constraints, and another island's reaches are read frozen (freezeReaches), so islands
  // can be solved side by side (calls serialized by the caller). Another island's surface trees are
  // searched as they are: a nearest-face query's answer does not depend on how a tree was refitted.
  // A constraint addCollisions finds within the island joins the problem and `constraints`; one
  // with a body outside it goes to `deferred`, for the caller to append (appendDeferred) and to
  // solve the islands it joins again, as one.
  struct Scope {
    std::vector<std::uint8_t> deformable;  // per deformable body: in the island
    std::vector<std::uint8_t> coupled;     // per rigid body of the problem: in the island
    std::vector<int> constraints;          // the island's constraints
    std::vector<std::pair<Pair, DeformableConstraint>> deferred;
  };
  // The scope of the calls that follow; null (the default): the whole problem. Kept by pointer.
  void setScope(Scope* scope) { scope_ = scope; }
  // Islands solved side by side read the reach of another island's vertices and coupled bodies
  // (how far their candidates were searched), which that island's collision checks raise as it
  // goes: under a scope, such reads take the values of the last freezeReaches(), called before the
  // islands' solves begin, so that what one island finds does not depend on how far another has got.
  void freezeReaches();
  // Appends the deferred constraints of a scope, each pair once and none already in the problem,
  // and updates the similarity weights they change. Returns how many it appended.
  int appendDeferred(const std::vector<std::pair<Pair, DeformableConstraint>>& deferred, DeformableProblem& problem);
  // Renumbers the constraints: constraint i becomes the one that was order[i] (a permutation).
  void reorder(const std::vector<int>& order, DeformableProblem& problem);

  const std::vector<Pair>& pairs() const { return pairs_; }  // one per constraint

 private:
  // The point with barycentric `weights` on `face` (global nodes) at the step's start.
  Vec3 faceAtStart(const std::array<int, 3>& face, const Vec3& weights) const {
    return weights[0] * positions_->segment<3>(3 * face[0]) + weights[1] * positions_->segment<3>(3 * face[1]) +
           weights[2] * positions_->segment<3>(3 * face[2]);
  }
  // Face f of deformable body d with its nodes at x + w dt v: its unit outward normal.
  Vec3 faceNormal(int d, int f, const Eigen::VectorXd& v, double w) const;
  // Node `node` at x + w dt v (x its position at the step's start).
  Vec3 nodeAt(int node, const Eigen::VectorXd& v, double w) const {
    return positions_->segment<3>(3 * node) + w * dt_ * v.segment<3>(3 * node);
  }
  // Where two edges pass closest: parameters s on the first and t on the second, the first's point
  // there, and the unit normal along first x second (either side).
  struct EdgeCrossing {
    double s, t;
    Vec3 point;
    Vec3 normal;
  };
  // False when the closest points lie at an end of either edge (a vertex pair holds there), are
  // farther apart than `reach`, or the edges are parallel.
  static bool edgeCrossing(const Segment& first, const Segment& second, double reach, EdgeCrossing& out);
  // Columns n, t1, t2: the contact frame around a unit normal.
  static Mat3 frameAround(const Vec3& n);
  // The nearest face of deformable body `d` to `point` within `reach`, its nodes at x + w dt v, among
  // those without node `skipNode` (the point's own faces, for self-collision): the face, the
  // point's barycentric weights on it and the normal, the face's outward one or, beside an edge or
  // corner with the point outside, the direction from the face point to it. Outside there means
  // in front of the edge's or corner's outward direction (featureOutward), not of the face's plane:
  // beside a sharp tip (a bunny's ear) a point outside the body lies behind the planes of the faces
  // round the tip, and the face's normal would pull it through the tip by the whole distance.
  struct FacePoint {
    int face = -1;
    Vec3 weights;
    Vec3 point;
    Vec3 normal;
  };
  bool nearestFace(int d, const Vec3& point, const Eigen::VectorXd& v, double w, double reach, FacePoint& out,
                   int skipNode = -1) const;
  // The same for face f of deformable body d, however far the point lies from it.
  FacePoint facePoint(int d, int f, const Vec3& point, const Eigen::VectorXd& v, double w) const;
  // The outward direction of deformable body d's surface at edge e: the sum of its faces' normals.
  Vec3 edgeOutward(int d, int e, const Eigen::VectorXd& v, double w) const;
  // The outward direction of deformable body d's surface at the edge or corner of face f where `q`
  // lies, the nodes at x + w dt v: an edge's edgeOutward, a corner's angle-weighted sum of the
  // normals of the faces round it (the pseudo-normals of Baerentzen and Aanaes 2005, whose sign
  // tells a closed surface's inside from its outside at any point nearest to that feature).
  Vec3 featureOutward(int d, int f, const TrianglePoint& q, const Eigen::VectorXd& v, double w) const;
  // Whether n lies between the normals of deformable body d's two faces at edge e, or within
  // kEdgeNormalSlack of them, turning about the edge: the normals an edge can push along. An edge
  // pair's normal is the two edges' common perpendicular, which turns anywhere round nearly
  // parallel edges (a block's rim along a slab's) and lies along the surface for an edge across
  // a flat one (a block's upright edge over a diagonal of the slab's top); such a constraint pushes
  // the edges sideways, and its multiplier grows without bound. The faces' own pairs hold there.
  // Applied to rigid edges against deformable ones. Between two deformable bodies it cut the CR
  // iterations of 30 rings by 2.5 times but let vertices end up to 0.6 mm inside other rings
  // (docs/deformable.md), so those edge pairs keep every normal.
  bool withinEdgeNormals(int d, int e, const Vec3& n, const Eigen::VectorXd& v, double w) const;
  static constexpr double kEdgeNormalSlack = 10.0 * 3.14159265358979323846 / 180.0;  // radians
  // Surface vertex s against the nearest face of deformable body d, or against face `face` when
  // given, both at x + w dt v; false when no face is within `reach`. On the vertex's own body
  // (self-collision), its own faces are skipped.
  bool linearizeVertexFace(int s, int d, const Eigen::VectorXd& v, double w, double reach, DeformableConstraint& out,
                           int face = -1) const;
  // Edge e1 of deformable body d1 against edge e2 of body d2, both at x + w dt v; false as for
  // linearizeEdges.
  bool linearizeDeformableEdges(int d1, int e1, int d2, int e2, const Eigen::VectorXd& v, double w, double reach,
                                DeformableConstraint& out) const;
  // The pairs of deformable bodies whose surfaces' trees come within the reach of each other, and
  // their vertex-face and edge-edge constraints; a body with self-collision is paired with itself,
  // its edges with those that share no node with them.
  void addDeformablePairConstraints(DeformableProblem& problem);
  // The constraint of `pair` linearized with the nodes at x + w dt v (sec. 3.3).
  bool linearizePair(const Pair& pair, const Eigen::VectorXd& v, double w, double reach, DeformableConstraint& out) const;
  // The gap of the pair's constraint linearized at the end of the step, x + dt v, there (negative:
  // violated); none where the pair has no constraint within `reach` there. The reach must cover how
  // deep the step's travel can take a vertex or edge: a vertex that ended 1.25 mm inside a bunny
  // went unseen within a reach of 1 mm.
  std::optional<double> gapAtEnd(const Pair& pair, const Eigen::VectorXd& v, double reach,
                                 const DeformableProblem& problem) const;
  // Z_k of sec. 3.4.1 for every constraint: 1 plus, for each other constraint sharing nodes with it,
  // the product over the shared nodes of (1 - |w_a,i - w_b,i|), times |n_a . n_b| (our addition:
  // rows along perpendicular normals, a vertex in a corner, are not duplicates).
  // A constraint on a coupled rigid body takes instead the paper's rule for rigid bodies: Z is the
  // number of constraints between the same two bodies (sec. 3.4.1, last paragraph).
  // With `touched` (a flag per node), only the constraints on a touched node are recomputed: the
  // nodes of the constraints that were added, or changed (before and after), since the last update.
  // Z of any other constraint depends on nothing that changed, so the result is the full update's.
  void updateSimilarity(DeformableProblem& problem, const std::vector<std::uint8_t>* touched = nullptr) const;
  // Flags the nodes of constraint c in `touched` (one per node).
  static void touchNodes(const DeformableConstraint& c, std::vector<std::uint8_t>& touched);
  // The two world bodies a constraint joins (lower first), for the rigid rule of updateSimilarity.
  std::pair<int, int> bodiesOf(const Pair& pair) const;
  // A rigid body where the iterate v moves it by w of the step: a coupled body's pose at the step's
  // start advanced by w dt (u, w) and its velocities in v (`index` its rigid body in the problem);
  // an obstacle as it is, at its end-of-step pose (index -1).
  struct RigidAt {
    Pose pose;
    Vec3 velocity;
    Vec3 angularVelocity;
    int index = -1;
    Vec3 pointVelocity(const Vec3& point) const { return velocity + angularVelocity.cross(point - pose.position); }
  };
  RigidAt rigidAt(int body, const Eigen::VectorXd& v, double w) const;
  // A point of the body given where it was when begin() ran, where `at` puts it.
  Vec3 rigidPointAt(int body, const Vec3& point, const RigidAt& at) const;
  // The constraint's rigid side at point p of `at` (weight +1 on the side the normal points to, -1
  // on the other): a coupled body becomes a rigid term, with p moved back by w dt of its velocity
  // to where the material point starts (returned, for c_n); an obstacle's travel goes to c_t.
  Vec3 addRigidSide(const RigidAt& at, const Vec3& p, double weight, double w, DeformableConstraint& out) const;
  // The constraint of surface vertex s against `body`, both at x + w dt v, or false when the vertex
  // is farther than `reach` from the body.
  bool linearize(int s, int body, const Eigen::VectorXd& v, double w, double reach, DeformableConstraint& out) const;
  // The constraint of rigid vertex `vertex` of `body` against the nearest face of deformable body `d`,
  // both at x + w dt v, or false when no face is within `reach`. The face tree must be fitted to the
  // faces' paths from x to x + dt v (0 <= w <= 1).
  bool linearizeRigidVertex(int body, int vertex, int d, const Eigen::VectorXd& v, double w, double reach,
                            DeformableConstraint& out) const;
  void buildSurfaceTrees();
  // The trees to the surfaces at the step's start: vertices inflated by their reach.
  void fitSurfaceTrees();
  // The constraint of rigid edge `edge` of `body` against edge `e` of deformable body `d`, both at
  // x + w dt v, or false when their closest points are farther than `reach` or at an end of either
  // edge (the vertex pairs hold there), or the edges are parallel.
  bool linearizeEdges(int body, int edge, int d, int e, const Eigen::VectorXd& v, double w, double reach,
                      DeformableConstraint& out) const;
  // Rigid body b's constraints with the deformable surfaces within its reach (rigidReach_, and the
  // vertices' reach_): its candidate surface vertices (sec. 5.1: boxes extended by three times the
  // travel), its vertices against the nearest faces, its edges against the surface edges near
  // them, and a sphere's or capsule's surface against the faces under it. Pairs in `known`
  // (sorted) are skipped. Returns how many it appended.
  int addRigidBodyConstraints(int b, const std::vector<Pair>& known, DeformableProblem& problem);
  // Face f of deformable body d against the round surface of `body` (a sphere or a capsule), both at
  // x + w dt v: the point of the face nearest the shape's core (its centre or axis) and the shape's
  // surface point over it, n from the face towards the core, as a rigid vertex on the face:
  // n . (p - q - dt sum w_i v_i) >= 0. False when that point is at a corner of the face (the
  // vertex's own pair holds there), farther than `reach` from the surface, or the shape is not round.
  bool linearizeRoundFace(int body, int d, int f, const Eigen::VectorXd& v, double w, double reach,
                          DeformableConstraint& out) const;
  // Contacts of coupled rigid bodies with each other and with obstacles, from the rigid narrowphase
  // at the step's start (rigid_pair_contacts.cpp). They are not re-linearized in the solve.
  void addRigidPairConstraints(DeformableProblem& problem);
  Vec3 position(int s) const { return positions_->segment<3>(3 * (*surface_)[s].node); }

  const std::vector<Body>* bodies_ = nullptr;
  const MeshModelCache* meshes_ = nullptr;
  // begin()'s arguments (those by pointer the caller keeps until the step's solve is over) and what
  // begin() derives from them.
  std::vector<int> colliders_;   // the obstacles, then the coupled bodies
  std::vector<int> rigidIndex_;  // per world body: its rigid body in the problem (coupled), else -1
  // Per world body: how far a coupled body's points can move in the step (three times, as for the
  // vertices' reach), 0 for the others.
  std::vector<double> rigidReach_;
  int firstRigidNode_ = 0;  // the problem's
  // Rigid body j's nodes, numbered as DeformableProblem::linearNode and angularNode number them.
  int linearNode(int j) const { return firstRigidNode_ + 2 * j; }
  int angularNode(int j) const { return firstRigidNode_ + 2 * j + 1; }
  const std::vector<SurfaceNode>* surface_ = nullptr;
  const std::vector<SurfaceFaces>* faces_ = nullptr;
  const Eigen::VectorXd* positions_ = nullptr;  // 3 per node, at the step's start
  // Per body (empty but for obstacles and coupled bodies), world, where begin() found them.
  std::vector<std::vector<Vec3>> rigidVertices_;
  std::vector<std::vector<RigidEdge>> rigidEdges_;
  int kdop_ = kDefaultKdop;
  std::vector<SurfaceTrees> trees_;  // per deformable body
  std::vector<int> surfaceBody_;     // per surface vertex: its deformable body
  std::vector<double> bodyReach_;    // per deformable body: the largest reach of its surface vertices
  double maxReach_ = 0.0;       // the largest reach_: the rigid vertices' search distance
  std::vector<double> reach_;  // per surface vertex: the extended travel its candidates were found for
  // Per node: reach_ of its surface vertex at the step's start (0 for interior nodes). A pair's
  // candidates are found for its own primitives' travel (sec. 5.1), not for the fastest vertex of
  // the body or of the scene: one vertex ringing at metres per second in a pile of 120 bunnies gave
  // every edge pair a reach of 4.4 cm, and the step 59,000 edge pairs of which a few hundred touched.
  std::vector<double> nodeReach_;
  double largestReach(std::initializer_list<int> nodes) const;  // over nodeReach_
  std::vector<Pair> pairs_;
  // Per pair: the linearization its present one replaced in this step (node[0] < 0: none yet).
  std::vector<DeformableConstraint> previous_;
  double dt_ = 0.0;
  double tolerance_ = 5e-6;
  Scope* scope_ = nullptr;
  bool inScope(int deformableBody) const { return !scope_ || scope_->deformable[deformableBody]; }
  // Whether every body of the pair is in the scope (which must be set).
  bool inScope(const Pair& pair) const;
  // reach_[s] and rigidReach_[body], or under a scope their frozen values outside it.
  double reachOf(int s) const;
  double rigidReachOf(int body) const;
  std::vector<double> frozenReach_, frozenRigidReach_;
  // Appends the pair's constraint to the problem, or under a scope to its deferred list when the
  // pair leaves the island (then returns false).
  bool append(const Pair& pair, const DeformableConstraint& c, DeformableProblem& problem);
};

}  // namespace contactlab
