// bench/bullet_scene: a contactlab Scene converted into a Bullet world keeps its shapes, masses,
// inertias, poses and pair friction, and Bullet then behaves as the analytic answer says.
#include "bullet_scene.h"

#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/mesh_library.h"
#include "support/test_scenes.h"

namespace contactlab::bench {
namespace {

// Bullet's default build is single precision: compare in float's relative accuracy.
constexpr double kFloatTol = 1e-5;

Vec3 fromBullet(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

void expectNear(const Vec3& actual, const Vec3& expected, double tol) {
  EXPECT_LT((actual - expected).norm(), tol * std::max(1.0, expected.norm())) << actual.transpose() << " vs "
                                                                             << expected.transpose();
}

// A static ground, a rotated box, a sphere, a capsule and a plane, with per-body friction.
Scene mixedScene() {
  Scene scene;
  scene.gravity = Vec3(0.5, 0, -9.0);
  scene.dt = 0.005;
  scene.bodies.push_back(test::staticGround(0.64));
  BodyDesc box = test::box(Vec3(0.4, 0.2, 0.1), Vec3(1, 2, 3));
  box.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  box.density = 500.0;
  box.material.mu = 0.25;
  scene.bodies.push_back(box);
  BodyDesc sphere = test::sphere(0.3, Vec3(-1, 0, 2));
  sphere.mass = 2.0;
  sphere.velocity = Vec3(0.1, 0.2, 0.3);
  sphere.angularVelocity = Vec3(1, 0, 0);
  scene.bodies.push_back(sphere);
  BodyDesc capsule;
  capsule.shape = CapsuleShape{0.1, 0.35};
  capsule.position = Vec3(0, -1, 1);
  scene.bodies.push_back(capsule);
  BodyDesc plane;
  plane.shape = PlaneShape{Vec3(0, 0, 2), -2.0};  // z <= -1, given with an unnormalized normal
  plane.motion = MotionType::Static;
  scene.bodies.push_back(plane);
  return scene;
}

TEST(BulletScene, KeepsMassInertiaPoseAndShapes) {
  const Scene scene = mixedScene();
  BulletScene bullet(scene);
  World world(scene);  // contactlab's own mass properties
  ASSERT_EQ(bullet.bodyCount(), 5);
  for (int i = 0; i < 5; ++i) {
    const Body& ours = world.bodies()[i];
    const btRigidBody& theirs = bullet.body(i);
    SCOPED_TRACE("body " + std::to_string(i));
    if (ours.isDynamic()) {
      EXPECT_NEAR(1.0 / theirs.getInvMass(), ours.mass, kFloatTol * ours.mass);
      expectNear(fromBullet(theirs.getLocalInertia()), ours.inertiaBody, kFloatTol);
      EXPECT_EQ(theirs.getActivationState(), DISABLE_DEACTIVATION);
      expectNear(fromBullet(theirs.getLinearVelocity()), ours.velocity, kFloatTol);
      expectNear(fromBullet(theirs.getAngularVelocity()), ours.angularVelocity, kFloatTol);
    } else {
      EXPECT_EQ(theirs.getInvMass(), 0.0);
      EXPECT_TRUE(theirs.isStaticObject());
    }
    expectNear(bulletPosition(theirs), ours.position, kFloatTol);
    EXPECT_NEAR(std::abs(bulletOrientation(theirs).dot(ours.orientation)), 1.0, kFloatTol);
    // Pair friction: Bullet's product of the two bodies' values is contactlab's sqrt(mu_a mu_b).
    const Body& ground = world.bodies()[0];
    EXPECT_NEAR(theirs.getFriction() * bullet.body(0).getFriction(), std::sqrt(ours.mu * ground.mu), kFloatTol);
    EXPECT_EQ(theirs.getRollingFriction(), 0.0);
    EXPECT_EQ(theirs.getSpinningFriction(), 0.0);
  }

  const auto* ground = dynamic_cast<const btBoxShape*>(bullet.body(0).getCollisionShape());
  ASSERT_NE(ground, nullptr);
  expectNear(fromBullet(ground->getHalfExtentsWithMargin()), Vec3(20, 20, 0.5), kFloatTol);
  const auto* box = dynamic_cast<const btBoxShape*>(bullet.body(1).getCollisionShape());
  ASSERT_NE(box, nullptr);
  expectNear(fromBullet(box->getHalfExtentsWithMargin()), Vec3(0.2, 0.1, 0.05), kFloatTol);
  const auto* sphere = dynamic_cast<const btSphereShape*>(bullet.body(2).getCollisionShape());
  ASSERT_NE(sphere, nullptr);
  EXPECT_NEAR(sphere->getRadius(), 0.3, kFloatTol);
  const auto* capsule = dynamic_cast<const btCapsuleShapeZ*>(bullet.body(3).getCollisionShape());
  ASSERT_NE(capsule, nullptr);
  EXPECT_EQ(capsule->getUpAxis(), 2);
  EXPECT_NEAR(capsule->getRadius(), 0.1, kFloatTol);
  EXPECT_NEAR(capsule->getHalfHeight(), 0.35, kFloatTol);  // our halfLength: the cap centres at z = +-0.35
  const auto* plane = dynamic_cast<const btStaticPlaneShape*>(bullet.body(4).getCollisionShape());
  ASSERT_NE(plane, nullptr);
  expectNear(fromBullet(plane->getPlaneNormal()), Vec3(0, 0, 1), kFloatTol);
  EXPECT_NEAR(plane->getPlaneConstant(), -1.0, kFloatTol);

  expectNear(fromBullet(bullet.world().getGravity()), scene.gravity, kFloatTol);
  EXPECT_EQ(bullet.world().getSolverInfo().m_numIterations, 10);
  EXPECT_EQ(bullet.dt(), scene.dt);
}

TEST(BulletScene, OneStepIsOneInternalStepOfDt) {
  Scene scene;
  scene.dt = 0.01;
  scene.bodies.push_back(test::sphere(0.1, Vec3(0, 0, 5)));  // free fall, nothing to hit
  BulletScene bullet(scene);
  bullet.step();
  // Semi-implicit Euler, as Bullet integrates: v = g dt, z = z0 + v dt.
  EXPECT_NEAR(bullet.body(0).getLinearVelocity().z(), -9.81 * 0.01, 1e-6);
  EXPECT_NEAR(bulletPosition(bullet.body(0)).z(), 5.0 - 9.81 * 0.01 * 0.01, 1e-6);
}

// A sphere dropped on the ground box comes to rest on it: its centre one radius above the top face,
// with one contact point.
TEST(BulletScene, SphereDroppedOnGroundRestsOneRadiusAboveIt) {
  Scene scene;
  scene.bodies.push_back(test::staticGround());
  constexpr double radius = 0.25;
  scene.bodies.push_back(test::sphere(radius, Vec3(0, 0, 1.0)));
  BulletScene bullet(scene);
  for (int step = 0; step < 300; ++step) bullet.step();  // 3 s: it lands after 0.39 s
  const btRigidBody& ball = bullet.body(1);
  // Sphere-box distances are exact in Bullet (a sphere is all margin), so it rests far closer than
  // the 0.04 m convex margin: measured 0.25 - 5e-8 m.
  constexpr double tol = 1e-4;
  EXPECT_NEAR(bulletPosition(ball).z(), radius, tol);
  EXPECT_LT(ball.getLinearVelocity().length(), 1e-3);
  const BulletContacts contacts = bullet.contacts();
  EXPECT_EQ(contacts.manifolds, 1);
  EXPECT_EQ(contacts.points, 1);
  EXPECT_LT(contacts.maxPenetration, tol);
}

TEST(BulletScene, RefusesKinematicBodies) {
  Scene scene;
  BodyDesc conveyor = test::box(Vec3(1, 1, 1), Vec3::Zero());
  conveyor.motion = MotionType::Kinematic;
  scene.bodies.push_back(conveyor);
  EXPECT_THROW(BulletScene{scene}, std::invalid_argument);
}

// Mesh bodies become GImpact shapes, one per geometry: two cubes of the same mesh share one Bullet
// shape, and a 1 m cube mesh dropped on the ground comes to rest on it with its centre at half its
// height, up to Bullet's collision margins (a few centimetres), neither sinking through nor hovering.
TEST(BulletScene, MeshCubesShareOneShapeAndRestOnTheGround) {
  Scene scene;
  scene.bodies.push_back(test::staticGround(0.5));
  const auto cube = namedMeshGeometry("cube", 1.0);
  for (double x : {-1.0, 1.0}) {
    BodyDesc body;
    body.shape = MeshShape{cube};
    body.position = Vec3(x, 0, 0.7);
    scene.bodies.push_back(body);
  }
  BulletScene bullet{scene};
  EXPECT_EQ(bullet.body(1).getCollisionShape(), bullet.body(2).getCollisionShape());
  EXPECT_EQ(bullet.body(1).getCollisionShape()->getShapeType(), GIMPACT_SHAPE_PROXYTYPE);
  for (int step = 0; step < 200; ++step) bullet.step();
  for (int body : {1, 2}) {
    EXPECT_NEAR(bulletPosition(bullet.body(body)).z(), 0.5, 0.05) << "body " << body;
    EXPECT_LT(fromBullet(bullet.body(body).getLinearVelocity()).norm(), 0.05) << "body " << body;
  }
}

}  // namespace
}  // namespace contactlab::bench
