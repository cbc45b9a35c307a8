#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

const CapsuleShape kDefaultCapsule{0.25, 0.5};
const BoxShape kSlab = boxOfHalfExtents(1, 1, 0.5);

TEST(CapsuleBox, CapsuleLyingOnAFaceTouchesAtBothEnds) {
  const ContactManifold contacts = collide(kDefaultCapsule, poseAt(Vec3(0.1, 0.2, 0.74), kAlongX), kSlab, Pose{});
  expectContacts(contacts, {{-0.4, 0.2, 0.495}, {0.6, 0.2, 0.495}}, -0.01, -Vec3::UnitZ());
}

TEST(CapsuleBox, CapsuleOverhangingASmallBoxTouchesAtTheFaceEdges) {
  const ContactManifold contacts =
      collide(CapsuleShape{0.25, 1.0}, poseAt(Vec3(0, 0, 0.74), kAlongX), boxOfHalfExtents(0.3, 0.3, 0.5), Pose{});
  expectContacts(contacts, {{-0.3, 0, 0.495}, {0.3, 0, 0.495}}, -0.01, -Vec3::UnitZ());
}

TEST(CapsuleBox, UprightCapsuleTouchesAtItsLowerEnd) {
  const ContactManifold contacts = collide(kDefaultCapsule, poseAt(Vec3(0.2, 0, 1.24)), kSlab, Pose{});
  expectContacts(contacts, {{0.2, 0, 0.495}}, -0.01, -Vec3::UnitZ());
}

TEST(CapsuleBox, CapsuleAcrossARidgeTouchesTheEdgeOnce) {
  // The box turned 45 degrees about x has its top edge along x at height sqrt(1/2).
  const Pose ridge = poseAt(Vec3::Zero(), rotationAbout(Vec3::UnitX(), 45));
  const double top = std::sqrt(0.5);
  const ContactManifold contacts =
      collide(kDefaultCapsule, poseAt(Vec3(0.2, 0.1, top + 0.24), kAlongY), boxOfHalfExtents(0.5, 0.5, 0.5), ridge);
  expectContacts(contacts, {{0.2, 0, top - 0.005}}, -0.01, -Vec3::UnitZ());
}

TEST(CapsuleBox, MarginDecidesWhetherAHoveringCapsuleIsReported) {
  const Pose hovering = poseAt(Vec3(0, 0, 0.8), kAlongX);  // 0.05 above the face
  EXPECT_TRUE(collide(kDefaultCapsule, hovering, kSlab, Pose{}, 0.04).empty());
  expectContacts(collide(kDefaultCapsule, hovering, kSlab, Pose{}, 0.06), {{-0.5, 0, 0.525}, {0.5, 0, 0.525}}, 0.05,
                 -Vec3::UnitZ());
}

TEST(CapsuleBox, AxisThroughTheBoxLeavesThroughTheNearestFace) {
  // The axis is 0.1 under the top face; the gap adds the radius. Points lie midway between the
  // face (z = 0.5) and the capsule's bottom (z = 0.15).
  const ContactManifold contacts = collide(kDefaultCapsule, poseAt(Vec3(0, 0, 0.4), kAlongX), kSlab, Pose{});
  expectContacts(contacts, {{-0.5, 0, 0.325}, {0.5, 0, 0.325}}, -0.35, -Vec3::UnitZ());
}

}  // namespace
}  // namespace contactlab::testing
