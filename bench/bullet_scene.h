#pragma once
// A contactlab Scene converted into a Bullet 3.24 btDiscreteDynamicsWorld (btDbvtBroadphase,
// btSequentialImpulseConstraintSolver, btDefaultCollisionConfiguration), the peer of the side-by-side
// benchmark (DESIGN.md "Benchmarks"; issue 5). Body i of the scene is body(i) here.
//
// The conversion, shape by shape and setting by setting:
// - box -> btBoxShape(half extents); sphere -> btSphereShape(radius); capsule -> btCapsuleShapeZ(radius,
//   2 * halfLength): our capsule's axis is body z, and Bullet's "height" is, like our "length", the
//   distance between the centres of the two caps (its total height is height + 2 radius); plane ->
//   btStaticPlaneShape(normal, offset), whose solid side is normal . x <= offset, as ours; mesh ->
//   btGImpactMeshShape when it moves, btBvhTriangleMeshShape when it is static, one Bullet shape per
//   geometry (meshShape in bullet_scene.cpp).
// - Mass and principal inertia are contactlab's own (makeBody), not Bullet's calculateLocalInertia
//   (which would see the box's margin); static bodies get mass 0. Position (the centre of mass) and
//   orientation ([w, x, y, z] Hamilton, body -> world, the same convention as btQuaternion's) and the
//   initial velocities come from the scene.
// - Gravity and dt from the scene; step() is stepSimulation(dt, 0): with maxSubSteps 0 Bullet takes
//   exactly one internal step of dt (no fixed-step interpolation).
// - 10 solver iterations (Bullet's default, set explicitly). Everything else in btContactSolverInfo
//   is Bullet's default: split impulse on (penetration threshold -0.04), erp 0.2, warm starting
//   (factor 0.85), SOLVER_SIMD; collision margin 0.04 for boxes and capsules (for a sphere the whole
//   radius is margin), contact breaking threshold 0.02.
// - Friction: contactlab combines a pair's friction as sqrt(mu_a mu_b); Bullet's default combiner is
//   the product mu_a mu_b, so each Bullet body gets sqrt(mu): the pair then has sqrt(mu_a) sqrt(mu_b)
//   = sqrt(mu_a mu_b), the same value as ours. Rolling and spinning friction are 0: Bullet has no
//   Contensou (torsional) friction by default, and contactlab has no rolling friction.
// - Restitution: the body's own. Bullet combines a pair's as the product, contactlab as the max; the
//   two agree when every body has the same restitution of 0 or 1 (the benchmark scenes: all 0).
// - Sleeping is off for every dynamic body (DISABLE_DEACTIVATION), so Bullet does the same work in
//   every step, as contactlab (which has no sleeping) does.
// Kinematic bodies are not converted (std::invalid_argument naming the body): no benchmark scene has one.
#include <map>
#include <memory>
#include <vector>

#include "contactlab/scene.h"

class btBroadphaseInterface;
class btCollisionDispatcher;
class btCollisionShape;
class btDefaultCollisionConfiguration;
class btDiscreteDynamicsWorld;
class btRigidBody;
class btTriangleMesh;

namespace contactlab::bench {

class ResidualReportingSolver;  // btSequentialImpulseConstraintSolver that keeps its residual

// Bullet's contact manifolds after a step: the points it kept, and the deepest of them.
struct BulletContacts {
  int manifolds = 0;           // persistent manifolds (body pairs) holding at least one point
  int points = 0;              // sum of getNumContacts() over the manifolds
  double maxPenetration = 0.0; // -(most negative getDistance()), 0 when no point penetrates
};

class BulletScene {
 public:
  explicit BulletScene(const Scene& scene, int solverIterations = 10);
  ~BulletScene();
  BulletScene(const BulletScene&) = delete;
  BulletScene& operator=(const BulletScene&) = delete;

  void step();  // one internal Bullet step of the scene's dt
  double dt() const { return dt_; }
  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  btRigidBody& body(int index) { return *bodies_.at(index); }
  const btRigidBody& body(int index) const { return *bodies_.at(index); }
  btDiscreteDynamicsWorld& world() { return *world_; }
  // The manifolds as the last step's collision detection left them (Bullet detects contacts at
  // the start of a step, before it solves and integrates).
  BulletContacts contacts() const;
  // Bullet's own merit of the last step's solve: sqrt of the sum, over the solver groups (islands
  // batched by Bullet), of m_leastSquaresResidual, the sum of squared impulse changes (N s)^2 of
  // every row in the last of its iterations. In N s, unlike contactlab's residual (m/s).
  double lastResidual() const;

 private:
  // The Bullet shape of a mesh geometry, made on first use and shared by its bodies.
  btCollisionShape* meshShape(const MeshGeometry& geometry, bool dynamic);

  // Declared in the order of construction: the world is destroyed first, while the bodies, the
  // broadphase and the dispatcher it unregisters from still exist.
  std::unique_ptr<btDefaultCollisionConfiguration> configuration_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<ResidualReportingSolver> solver_;
  std::vector<std::unique_ptr<btTriangleMesh>> triangleMeshes_;  // the triangles the mesh shapes point to
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::map<const MeshGeometry*, btCollisionShape*> dynamicMeshShapes_, staticMeshShapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  double dt_ = 0.0;
};

// Position (centre of mass) and orientation of a Bullet body in contactlab's types.
Vec3 bulletPosition(const btRigidBody& body);
Quat bulletOrientation(const btRigidBody& body);

}  // namespace contactlab::bench
