#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

const BoxShape kUnitBox = boxOfHalfExtents(1, 1, 1);

TEST(SphereBox, SphereRestingOnTheTopFace) {
  const ContactManifold contacts = collide(SphereShape{0.5}, poseAt(Vec3(0.3, -0.2, 1.4)), kUnitBox, Pose{});
  expectContacts(contacts, {{0.3, -0.2, 0.95}}, -0.1, -Vec3::UnitZ());  // from the sphere down into the box
}

TEST(SphereBox, SphereOnAnEdgeOfARotatedBox) {
  const Quat turn = rotationAbout(Vec3::UnitZ(), 30);
  const Vec3 edgeDirection = turn * Vec3(1, 0, 1).normalized();
  const Vec3 centre = turn * Vec3(1, 0.4, 1) + 0.6 * edgeDirection;  // 0.1 beyond a radius of 0.5
  EXPECT_TRUE(collide(SphereShape{0.5}, poseAt(centre), kUnitBox, poseAt(Vec3::Zero(), turn)).empty());
  const ContactManifold contacts = collide(SphereShape{0.5}, poseAt(centre), kUnitBox, poseAt(Vec3::Zero(), turn), 0.2);
  expectContacts(contacts, {turn * Vec3(1, 0.4, 1) + 0.05 * edgeDirection}, 0.1, -edgeDirection);
}

TEST(SphereBox, SphereOnAVertex) {
  const Vec3 diagonal = Vec3(1, 1, 1).normalized();
  const ContactManifold contacts = collide(SphereShape{0.5}, poseAt(Vec3(1, 1, 1) + 0.45 * diagonal), kUnitBox, Pose{});
  expectContacts(contacts, {Vec3(1, 1, 1) - 0.025 * diagonal}, -0.05, -diagonal);
}

TEST(SphereBox, CentreInsideTheBoxLeavesThroughTheNearestFace) {
  // 0.3 inside the face, plus the radius; the point lies between x = 1 and x = 0.2.
  const ContactManifold contacts = collide(SphereShape{0.5}, poseAt(Vec3(0.7, 0.2, -0.1)), kUnitBox, Pose{});
  expectContacts(contacts, {{0.6, 0.2, -0.1}}, -0.8, -Vec3::UnitX());
}

TEST(SphereBox, FeatureStaysTheSameWhileTheSphereSlidesOnAFace) {
  const ContactManifold first = collide(SphereShape{0.5}, poseAt(Vec3(0.1, 0, 1.45)), kUnitBox, poseAt(Vec3::Zero()));
  const ContactManifold second = collide(SphereShape{0.5}, poseAt(Vec3(0.4, 0.3, 1.49)), kUnitBox, poseAt(Vec3::Zero()));
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(first[0].feature, second[0].feature);
}

}  // namespace
}  // namespace contactlab::testing
