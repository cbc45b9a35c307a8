#include "contactlab/render/picking.h"

#include <gtest/gtest.h>

#include <cmath>

#include "render/render_test_bodies.h"

namespace contactlab::render {
namespace {

using test::makeBody;

TEST(Picking, SphereIsHitWhereTheRayMeetsItsSurface) {
  // From (0,-10,0.3) along +y into a sphere of radius 0.5 at the origin: enters at y = -sqrt(0.25-0.09) = -0.4.
  const std::vector<Body> bodies = {makeBody(SphereShape{0.5}, Vec3::Zero())};
  const auto hit = pickBody(bodies, Ray{Vec3(0, -10, 0.3), Vec3::UnitY()});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, 0);
  EXPECT_NEAR(hit->distance, 9.6, 1e-12);
  EXPECT_TRUE(hit->point.isApprox(Vec3(0, -0.4, 0.3), 1e-12));
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, -10, 0.6), Vec3::UnitY()}));
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, -10, 0.0), -Vec3::UnitY()}));  // pointing away
}

// The tetrahedron's slanted face x + y + z = 1, met along the diagonal from far out; from inside,
// the hit is at distance 0.
TEST(Picking, MeshIsHitOnItsNearestTriangle) {
  const MeshShape tetrahedron = test::unitTetrahedronShape();
  const Vec3 diagonal = Vec3::Ones().normalized();
  const std::optional<double> t =
      intersectShape(tetrahedron, Vec3(1, 1, 1), Quat::Identity(), Ray{Vec3(1, 1, 1) + 5.0 * diagonal, -diagonal});
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 5.0 - 1.0 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(intersectShape(tetrahedron, Vec3::Zero(), Quat::Identity(), Ray{Vec3(0.1, 0.1, 0.1), Vec3::UnitX()}), 0.0);
  EXPECT_FALSE(intersectShape(tetrahedron, Vec3::Zero(), Quat::Identity(), Ray{Vec3(2, 2, 2), Vec3::UnitX()}));
}

TEST(Picking, RotatedBoxIsHitOnItsTurnedFace) {
  // A 2 x 1 x 1 box turned 90 degrees about z: its long side now lies along y, half length 1.
  const Quat quarterTurn(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
  const std::vector<Body> bodies = {makeBody(BoxShape{Vec3(1.0, 0.5, 0.5)}, Vec3(3, 0, 0), MotionType::Dynamic, quarterTurn)};
  const auto alongY = pickBody(bodies, Ray{Vec3(3, -5, 0), Vec3::UnitY()});
  ASSERT_TRUE(alongY);
  EXPECT_NEAR(alongY->point.y(), -1.0, 1e-12);
  const auto alongX = pickBody(bodies, Ray{Vec3(0, 0.9, 0.4), Vec3::UnitX()});
  ASSERT_TRUE(alongX);
  EXPECT_NEAR(alongX->point.x(), 2.5, 1e-12);
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, 1.1, 0), Vec3::UnitX()}));
}

TEST(Picking, CapsuleIsHitOnItsSideAndOnItsRoundedEnds) {
  // Radius 0.2, axis from z = -0.5 to 0.5 at the origin.
  const std::vector<Body> bodies = {makeBody(CapsuleShape{0.2, 0.5}, Vec3::Zero())};
  const auto side = pickBody(bodies, Ray{Vec3(-4, 0, 0.3), Vec3::UnitX()});
  ASSERT_TRUE(side);
  EXPECT_NEAR(side->point.x(), -0.2, 1e-12);
  const auto top = pickBody(bodies, Ray{Vec3(0, 0, 5), -Vec3::UnitZ()});
  ASSERT_TRUE(top);
  EXPECT_NEAR(top->point.z(), 0.7, 1e-12);
  // Past the cylinder's end, 0.1 off the axis in x and z: only the end sphere, at y = -sqrt(0.04 - 0.02).
  const auto cap = pickBody(bodies, Ray{Vec3(0.1, -4, 0.6), Vec3::UnitY()});
  ASSERT_TRUE(cap);
  EXPECT_NEAR(cap->point.y(), -std::sqrt(0.02), 1e-12);
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, -4, 0.71), Vec3::UnitY()}));
}

TEST(Picking, NearestDynamicBodyWinsAndStaticBodiesAndPlanesAreNotPickable) {
  const std::vector<Body> bodies = {
      makeBody(BoxShape{Vec3(5, 5, 0.5)}, Vec3(0, 0, -0.5), MotionType::Static),
      makeBody(PlaneShape{Vec3::UnitZ(), 0.0}, Vec3::Zero(), MotionType::Static),
      makeBody(SphereShape{0.5}, Vec3(0, 0, 1)),
      makeBody(SphereShape{0.5}, Vec3(0, 0, 3)),
      makeBody(SphereShape{0.5}, Vec3(0, 0, 5), MotionType::Kinematic),
  };
  const auto hit = pickBody(bodies, Ray{Vec3(0, 0, 10), -Vec3::UnitZ()});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, 3);
  EXPECT_NEAR(hit->distance, 6.5, 1e-12);
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(3, 3, 10), -Vec3::UnitZ()}));  // only the static ground there
}

TEST(Picking, RayStartingInsideABodyHitsItAtDistanceZero) {
  const std::vector<Body> bodies = {makeBody(BoxShape{Vec3(1, 1, 1)}, Vec3::Zero())};
  const auto hit = pickBody(bodies, Ray{Vec3(0.2, 0.1, 0), Vec3::UnitX()});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->distance, 0.0);
}

TEST(Picking, DeformableBodiesArePickedByTheirDeformedSurface) {
  Scene scene;
  scene.dt = 1e-3;
  BodyDesc ground;
  ground.shape = BoxShape{Vec3(1, 1, 0.1)};
  ground.position = Vec3(0, 0, -0.1);
  ground.motion = MotionType::Static;
  BodyDesc soft;
  soft.shape = BoxShape{Vec3(0.1, 0.1, 0.1)};
  soft.position = Vec3(0, 0, 0.3);
  soft.deformable = DeformableDesc{};
  scene.bodies = {ground, soft};
  World world(scene);
  const Ray down{Vec3(0.02, 0.03, 2), -Vec3::UnitZ()};
  EXPECT_FALSE(pickBody(world.bodies(), down)) << "Static to the rigid pipeline";
  const auto hit = pickBody(world, down);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, 1);
  EXPECT_NEAR(hit->point.z(), 0.4, 1e-9);
  EXPECT_FALSE(pickBody(world, Ray{Vec3(0.5, 0, 2), -Vec3::UnitZ()})) << "beside it: only the static ground";
  // After it has fallen onto the ground, the ray meets its surface where it is now.
  for (int i = 0; i < 500; ++i) world.step();
  const auto landed = pickBody(world, down);
  ASSERT_TRUE(landed);
  EXPECT_NEAR(landed->point.z(), 0.2, 0.02);
}

TEST(Picking, NonFiniteRaysAndBodiesAreIgnored) {
  std::vector<Body> bodies = {makeBody(SphereShape{0.5}, Vec3::Zero())};
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, -5, std::nan("")), Vec3::UnitY()}));
  bodies[0].position.x() = std::nan("");
  EXPECT_FALSE(pickBody(bodies, Ray{Vec3(0, -5, 0), Vec3::UnitY()}));
}

}  // namespace
}  // namespace contactlab::render
