#include "bullet_scene.h"

#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "dynamics/body_setup.h"

namespace contactlab::bench {

// Sums the residual of every solveGroup call of a step; one virtual call more per group, no other work.
class ResidualReportingSolver : public btSequentialImpulseConstraintSolver {
 public:
  btScalar solveGroup(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds, int numManifolds,
                      btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info,
                      btIDebugDraw* debugDrawer, btDispatcher* dispatcher) override {
    const btScalar result = btSequentialImpulseConstraintSolver::solveGroup(
        bodies, numBodies, manifolds, numManifolds, constraints, numConstraints, info, debugDrawer, dispatcher);
    squaredResidual += m_leastSquaresResidual;  // the last iteration's sum of squared impulse changes
    return result;
  }
  double squaredResidual = 0.0;
};

namespace {

btVector3 toBullet(const Vec3& v) {
  return {static_cast<btScalar>(v.x()), static_cast<btScalar>(v.y()), static_cast<btScalar>(v.z())};
}

// Both are unit Hamilton quaternions rotating body coordinates into world coordinates; btQuaternion
// takes (x, y, z, w).
btQuaternion toBullet(const Quat& q) {
  const Quat n = q.normalized();
  return {static_cast<btScalar>(n.x()), static_cast<btScalar>(n.y()), static_cast<btScalar>(n.z()),
          static_cast<btScalar>(n.w())};
}

std::unique_ptr<btCollisionShape> bulletShape(const Shape& shape) {
  return std::visit(
      [](const auto& s) -> std::unique_ptr<btCollisionShape> {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, BoxShape>) {
          return std::make_unique<btBoxShape>(toBullet(s.halfExtents));
        } else if constexpr (std::is_same_v<S, SphereShape>) {
          return std::make_unique<btSphereShape>(static_cast<btScalar>(s.radius));
        } else if constexpr (std::is_same_v<S, CapsuleShape>) {
          // Bullet's height is the distance between the cap centres, our axis segment's length.
          return std::make_unique<btCapsuleShapeZ>(static_cast<btScalar>(s.radius),
                                                   static_cast<btScalar>(2.0 * s.halfLength));
        } else if constexpr (std::is_same_v<S, MeshShape>) {
          throw std::logic_error("bulletShape: mesh bodies go through BulletScene::meshShape");
        } else {
          static_assert(std::is_same_v<S, PlaneShape>);
          return std::make_unique<btStaticPlaneShape>(toBullet(s.normal.normalized()),
                                                      static_cast<btScalar>(s.offset / s.normal.norm()));
        }
      },
      shape);
}

std::string bodyLabel(int index, const BodyDesc& desc) {
  return "body " + std::to_string(index) + (desc.name.empty() ? "" : " (\"" + desc.name + "\")");
}

}  // namespace

BulletScene::BulletScene(const Scene& scene, int solverIterations)
    : configuration_(std::make_unique<btDefaultCollisionConfiguration>()),
      dispatcher_(std::make_unique<btCollisionDispatcher>(configuration_.get())),
      broadphase_(std::make_unique<btDbvtBroadphase>()),
      solver_(std::make_unique<ResidualReportingSolver>()),
      dt_(scene.dt) {
  validateSceneSettings(scene);
  world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(), solver_.get(),
                                                     configuration_.get());
  btGImpactCollisionAlgorithm::registerAlgorithm(dispatcher_.get());
  world_->setGravity(toBullet(scene.gravity));
  world_->getSolverInfo().m_numIterations = solverIterations;

  for (int index = 0; index < static_cast<int>(scene.bodies.size()); ++index) {
    const BodyDesc& desc = scene.bodies[index];
    if (desc.motion == MotionType::Kinematic)
      throw std::invalid_argument(bodyLabel(index, desc) + ": kinematic bodies are not converted to Bullet");
    // contactlab's own mass properties and resolved material (scene defaults applied).
    const Body body = makeBody(desc, scene.friction, index);
    btCollisionShape* shape = nullptr;
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) {
      shape = meshShape(*mesh->geometry, body.isDynamic());
    } else {
      shapes_.push_back(bulletShape(body.shape));
      shape = shapes_.back().get();
    }

    const bool dynamic = body.isDynamic();
    const btScalar mass = dynamic ? static_cast<btScalar>(body.mass) : btScalar(0);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape,
                                                  dynamic ? toBullet(body.inertiaBody) : btVector3(0, 0, 0));
    info.m_startWorldTransform = btTransform(toBullet(body.orientation), toBullet(body.position));
    // Pair friction: Bullet multiplies the two bodies' values, contactlab takes sqrt(mu_a mu_b); with
    // sqrt(mu) per body Bullet's product is exactly contactlab's pair value.
    info.m_friction = static_cast<btScalar>(std::sqrt(body.mu));
    info.m_rollingFriction = 0;
    info.m_spinningFriction = 0;
    info.m_restitution = static_cast<btScalar>(body.restitution);
    bodies_.push_back(std::make_unique<btRigidBody>(info));

    btRigidBody& rigid = *bodies_.back();
    if (dynamic) {
      rigid.setLinearVelocity(toBullet(body.velocity));
      rigid.setAngularVelocity(toBullet(body.angularVelocity));
      rigid.setActivationState(DISABLE_DEACTIVATION);  // no sleeping: the same work every step
    }
    world_->addRigidBody(&rigid);
  }
}

BulletScene::~BulletScene() = default;

// A mesh as a user of Bullet would convert it: the triangles in a btTriangleMesh; a moving body gets
// a btGImpactMeshShape (Bullet's concave-vs-concave shape, a BVH over the triangles, collided by
// btGImpactCollisionAlgorithm, registered in the constructor), a static one the btBvhTriangleMeshShape
// meant for static scenery. Bullet's default collision margins are kept. The vertices are already in
// the body frame (centre of mass at the origin, principal axes), which is Bullet's body frame too. One
// Bullet shape per geometry and motion, shared by every body of that geometry, as contactlab shares
// the geometry.
btCollisionShape* BulletScene::meshShape(const MeshGeometry& geometry, bool dynamic) {
  auto& cache = dynamic ? dynamicMeshShapes_ : staticMeshShapes_;
  if (const auto found = cache.find(&geometry); found != cache.end()) return found->second;
  auto triangles = std::make_unique<btTriangleMesh>(/*use32bitIndices=*/true, /*use4componentVertices=*/false);
  const std::vector<Vec3>& v = geometry.surface.vertices;
  for (const auto& t : geometry.surface.triangles)
    triangles->addTriangle(toBullet(v[t[0]]), toBullet(v[t[1]]), toBullet(v[t[2]]), /*removeDuplicateVertices=*/false);
  std::unique_ptr<btCollisionShape> shape;
  if (dynamic) {
    auto gimpact = std::make_unique<btGImpactMeshShape>(triangles.get());
    gimpact->updateBound();
    shape = std::move(gimpact);
  } else {
    shape = std::make_unique<btBvhTriangleMeshShape>(triangles.get(), /*useQuantizedAabbCompression=*/true);
  }
  triangleMeshes_.push_back(std::move(triangles));
  shapes_.push_back(std::move(shape));
  cache.emplace(&geometry, shapes_.back().get());
  return shapes_.back().get();
}

void BulletScene::step() {
  solver_->squaredResidual = 0.0;
  world_->stepSimulation(static_cast<btScalar>(dt_), 0);
}

double BulletScene::lastResidual() const { return std::sqrt(solver_->squaredResidual); }

BulletContacts BulletScene::contacts() const {
  BulletContacts result;
  double minDistance = 0.0;
  for (int m = 0; m < dispatcher_->getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = dispatcher_->getManifoldByIndexInternal(m);
    const int points = manifold->getNumContacts();
    if (points == 0) continue;
    ++result.manifolds;
    result.points += points;
    for (int p = 0; p < points; ++p) minDistance = std::min(minDistance, double(manifold->getContactPoint(p).getDistance()));
  }
  result.maxPenetration = -minDistance;
  return result;
}

Vec3 bulletPosition(const btRigidBody& body) {
  const btVector3& p = body.getCenterOfMassPosition();
  return {p.x(), p.y(), p.z()};
}

Quat bulletOrientation(const btRigidBody& body) {
  const btQuaternion q = body.getOrientation();
  return Quat(q.w(), q.x(), q.y(), q.z());
}

}  // namespace contactlab::bench
