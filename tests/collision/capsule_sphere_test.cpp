#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

const CapsuleShape kUpright{0.25, 0.5};

TEST(CapsuleSphere, SphereAgainstTheSide) {
  const ContactManifold contacts = collide(kUpright, Pose{}, SphereShape{0.4}, poseAt(Vec3(0.6, 0, 0.2)));
  expectContacts(contacts, {{0.225, 0, 0.2}}, -0.05, Vec3::UnitX());
}

TEST(CapsuleSphere, SphereAboveTheEndCapWithinTheMargin) {
  const Pose above = poseAt(Vec3(0, 0, 1.17));  // 0.02 above the cap's top at z = 0.75
  EXPECT_TRUE(collide(kUpright, Pose{}, SphereShape{0.4}, above).empty());
  expectContacts(collide(kUpright, Pose{}, SphereShape{0.4}, above, 0.03), {{0, 0, 0.76}}, 0.02, Vec3::UnitZ());
}

}  // namespace
}  // namespace contactlab::testing
