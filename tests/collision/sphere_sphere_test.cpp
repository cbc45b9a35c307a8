#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

TEST(SphereSphere, GapNormalAndMidpointMatchGeometry) {
  const ContactManifold contacts = collide(SphereShape{1.0}, Pose{}, SphereShape{1.5}, poseAt(Vec3(3.0, 0, 0)), 1.0);
  expectContacts(contacts, {{1.25, 0, 0}}, 0.5, Vec3::UnitX());  // midway between x = 1 and x = 1.5
}

TEST(SphereSphere, PenetrationAlongADiagonal) {
  const Vec3 direction = Vec3(1, 2, -2) / 3.0;
  const ContactManifold contacts =
      collide(SphereShape{1.0}, poseAt(Vec3(1, 1, 1)), SphereShape{1.0}, poseAt(Vec3(1, 1, 1) + 1.8 * direction));
  expectContacts(contacts, {Vec3(1, 1, 1) + 0.9 * direction}, -0.2, direction);
}

TEST(SphereSphere, ReportsOnlyGapsBelowTheMargin) {
  const SphereShape unit{1.0};
  EXPECT_TRUE(collide(unit, poseAt(Vec3::Zero()), unit, poseAt(Vec3(2.1, 0, 0)), 0.05).empty());
  EXPECT_EQ(collide(unit, poseAt(Vec3::Zero()), unit, poseAt(Vec3(2.1, 0, 0)), 0.15).size(), 1u);
  EXPECT_TRUE(collide(unit, poseAt(Vec3::Zero()), unit, poseAt(Vec3(2.1, 0, 0))).empty());
}

// No direction is better than another here, so the swapped call need not mirror this one.
TEST(SphereSphere, ConcentricSpheresStillGetAUnitNormal) {
  ContactManifold contacts;
  collideShapes(SphereShape{1.0}, poseAt(Vec3::Zero()), SphereShape{0.5}, poseAt(Vec3::Zero()), 0.0, contacts);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].gap, -1.5, 1e-12);
  EXPECT_NEAR(contacts[0].normal.norm(), 1.0, 1e-12);
}

}  // namespace
}  // namespace contactlab::testing
