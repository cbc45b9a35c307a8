#include <gtest/gtest.h>

#include "collision/mesh_test_helpers.h"

namespace contactlab::testing {
namespace {

// A capsule lying along x on a box mesh's top face touches at its two end balls.
TEST(MeshCapsule, CapsuleLyingOnAFaceTouchesAtBothEnds) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(1, 1, 0.5)));
  const Quat alongX(Eigen::AngleAxisd(EIGEN_PI / 2, Vec3::UnitY()));
  const ContactManifold contacts = meshContacts(
      [&](ContactBuffer& b) {
        collideMeshCapsule(box, Pose{}, CapsuleShape{0.1, 0.3}, poseOf(Vec3(0, 0.2, 0.6 - 1e-3), alongX), b);
      },
      0.01);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.gap, -1e-3, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(Vec3::UnitZ(), 1e-12));
    EXPECT_NEAR(std::abs(c.point.x()), 0.3, 1e-12);
  }
}

// A capsule standing beside the box mesh's vertical edge x = y = 0.5, its axis 0.01 nearer than its
// radius, overlapping the edge from z = 0.2 to the corner at 0.5: contacts at both ends of that
// stretch (the end ball and the corner vertex), normal across the axis.
TEST(MeshCapsule, MeshCornerAgainstTheCapsuleSide) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.5)));
  const double radius = 0.2;
  // Capsule along z, its axis at distance radius - 0.01 from the corner (0.5, 0.5, 0.5) along (1, 1, 0).
  const Vec3 axisPoint = Vec3(0.5, 0.5, 0.5) + (radius - 0.01) * Vec3(1, 1, 0).normalized();
  const ContactManifold contacts = meshContacts(
      [&](ContactBuffer& b) { collideMeshCapsule(box, Pose{}, CapsuleShape{radius, 0.3}, poseOf(axisPoint), b); }, 0.0);
  ASSERT_EQ(contacts.size(), 2u);
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.gap, -0.01, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(Vec3(1, 1, 0).normalized(), 1e-12));
  }
  EXPECT_NEAR(std::abs(contacts[0].point.z() - contacts[1].point.z()), 0.3, 1e-12);
}

}  // namespace
}  // namespace contactlab::testing
