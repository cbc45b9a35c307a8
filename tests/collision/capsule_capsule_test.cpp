#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

const CapsuleShape kLongCapsule{0.25, 1.0};  // a 2 m axis

TEST(CapsuleCapsule, CrossingCapsulesTouchAtOnePoint) {
  const ContactManifold contacts =
      collide(kLongCapsule, poseAt(Vec3::Zero(), kAlongX), kLongCapsule, poseAt(Vec3(0.3, -0.2, 0.49), kAlongY));
  expectContacts(contacts, {{0.3, 0, 0.245}}, -0.01, Vec3::UnitZ());
}

TEST(CapsuleCapsule, ParallelCapsulesTouchAtBothEndsOfTheirOverlap) {
  const ContactManifold contacts =
      collide(kLongCapsule, poseAt(Vec3::Zero(), kAlongX), kLongCapsule, poseAt(Vec3(0.5, 0, 0.49), kAlongX));
  expectContacts(contacts, {{-0.5, 0, 0.245}, {1.0, 0, 0.245}}, -0.01, Vec3::UnitZ());
}

TEST(CapsuleCapsule, CapsulesEndToEndTouchAtTheirCaps) {
  const ContactManifold contacts =
      collide(kLongCapsule, poseAt(Vec3::Zero(), kAlongX), kLongCapsule, poseAt(Vec3(2.49, 0, 0), kAlongX));
  expectContacts(contacts, {{1.245, 0, 0}}, -0.01, Vec3::UnitX());
}

TEST(CapsuleCapsule, IntersectingAxesArePushedApartAcrossBoth) {
  const ContactManifold contacts =
      collide(kLongCapsule, poseAt(Vec3::Zero(), kAlongX), kLongCapsule, poseAt(Vec3::Zero(), kAlongY));
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].gap, -0.5, 1e-12);
  EXPECT_NEAR(std::abs(contacts[0].normal.z()), 1.0, 1e-12);
}

}  // namespace
}  // namespace contactlab::testing
