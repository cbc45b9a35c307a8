#include "collision/narrowphase_test_helpers.h"

#include <limits>

namespace contactlab::testing {
namespace {

// The plane z = 1 given with a normal that is not unit length.
const PlaneShape kFloor{Vec3(0, 0, 2), 2.0};

TEST(PlaneConvex, SphereOnAPlaneWithANonUnitNormal) {
  const ContactManifold contacts = collide(kFloor, Pose{}, SphereShape{0.5}, poseAt(Vec3(3, -1, 1.4)));
  expectContacts(contacts, {{3, -1, 0.95}}, -0.1, Vec3::UnitZ());
}

TEST(PlaneConvex, SphereOnATiltedPlane) {
  const Vec3 normal = Vec3(1, 0, 1).normalized();
  const ContactManifold contacts =
      collide(SphereShape{0.5}, poseAt(Vec3(0, 2, 0) + 0.55 * normal), PlaneShape{normal, 0.0}, Pose{}, 0.1);
  // The normal runs from the sphere to the plane.
  expectContacts(contacts, {Vec3(0, 2, 0) + 0.025 * normal}, 0.05, -normal);
}

TEST(PlaneConvex, BoxRestingOnAPlaneGivesItsFourBottomCorners) {
  const ContactManifold contacts = collide(kFloor, Pose{}, boxOfHalfExtents(0.5, 0.3, 0.2), poseAt(Vec3(1, 1, 1.19)));
  const double z = 0.995;
  expectContacts(contacts, {{0.5, 0.7, z}, {1.5, 0.7, z}, {0.5, 1.3, z}, {1.5, 1.3, z}}, -0.01, Vec3::UnitZ());
}

TEST(PlaneConvex, SunkenBoxIsReducedToFourPointsKeepingTheDeepest) {
  const Pose tilted = poseAt(Vec3(0, 0, 0.5), rotationAbout(Vec3(1, 2, 0), 20));
  const BoxShape box = boxOfHalfExtents(0.3, 0.3, 0.3);
  const ContactManifold contacts = collide(kFloor, Pose{}, box, tilted);
  ASSERT_EQ(contacts.size(), 4u);
  double lowestVertex = std::numeric_limits<double>::infinity(), deepestContact = 0.0;
  for (int v = 0; v < 8; ++v) {
    const Vec3 corner((v & 1) ? 0.3 : -0.3, (v & 2) ? 0.3 : -0.3, (v & 4) ? 0.3 : -0.3);
    lowestVertex = std::min(lowestVertex, (tilted.position + tilted.rotation * corner).z());
  }
  for (const ContactPoint& c : contacts) deepestContact = std::min(deepestContact, c.gap);
  EXPECT_NEAR(deepestContact, lowestVertex - 1.0, 1e-12);
}

TEST(PlaneConvex, CapsuleLyingOnAPlaneTouchesAtBothEnds) {
  const ContactManifold contacts =
      collide(CapsuleShape{0.25, 0.5}, poseAt(Vec3(0, 0, 1.24), rotationAbout(Vec3::UnitX(), 90)), kFloor, Pose{});
  expectContacts(contacts, {{0, 0.5, 0.995}, {0, -0.5, 0.995}}, -0.01, -Vec3::UnitZ());
}

TEST(PlaneConvex, UprightCapsuleTouchesAtItsLowerEnd) {
  const ContactManifold contacts = collide(kFloor, Pose{}, CapsuleShape{0.25, 0.5}, poseAt(Vec3(0.3, 0, 1.74)));
  expectContacts(contacts, {{0.3, 0, 0.995}}, -0.01, Vec3::UnitZ());
}

}  // namespace
}  // namespace contactlab::testing
