#include <gtest/gtest.h>

#include "collision/narrowphase.h"
#include "collision/mesh_test_helpers.h"

namespace contactlab::testing {
namespace {

const PlaneShape ground{Vec3(0, 0, 1), 0.0};

TEST(PlaneMesh, BoxMeshRestingOnThePlaneTouchesAtItsFourBottomCorners) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(0.5, 0.3, 0.2)));
  const Pose pose = poseOf(Vec3(1, 2, 0.2 - 1e-3));
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collidePlaneMesh(ground, Pose{}, box, pose, b); }, 0.01);
  expectFootprintCorners(contacts, 1.0, 2.0, 0.5, 0.3);
  expectNormalAndGap(contacts, Vec3::UnitZ(), -1e-3);
  for (const ContactPoint& c : contacts) EXPECT_NEAR(c.point.z(), -0.5e-3, 1e-12);  // midway between corner and plane
}

TEST(PlaneMesh, TiltedPlaneWithUnnormalizedNormal) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.5)));
  // The plane x + z = 0 (normal (1, 0, 1) / sqrt 2); the box's corner (-0.5, *, -0.5) is deepest.
  const PlaneShape tilted{Vec3(2, 0, 2), 0.0};
  const Pose pose = poseOf(Vec3(0.5, 0, 0.5));
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collidePlaneMesh(tilted, Pose{}, box, pose, b); }, 0.01);
  ASSERT_EQ(contacts.size(), 2u);  // the edge x = z = 0 of the box lies on the plane
  for (const ContactPoint& c : contacts) {
    EXPECT_TRUE(c.normal.isApprox(Vec3(1, 0, 1).normalized(), 1e-12));
    EXPECT_NEAR(c.gap, 0.0, 1e-12);
  }
}

// The reduction keeps at most kMaxMeshPointsPerPair: a box mesh of 5^3 cubes sunk into the plane
// has 36 vertices under it; the twelve kept span its whole bottom face.
TEST(PlaneMesh, FineMeshIsReducedToTheCornersOfItsFootprint) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.5), 5));
  const Pose pose = poseOf(Vec3(0, 0, 0.49));
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collidePlaneMesh(ground, Pose{}, box, pose, b); }, 0.0);
  ASSERT_EQ(contacts.size(), static_cast<size_t>(kMaxMeshPointsPerPair));
  Vec3 lower = contacts[0].point, upper = contacts[0].point;
  for (const ContactPoint& c : contacts) lower = lower.cwiseMin(c.point), upper = upper.cwiseMax(c.point);
  EXPECT_NEAR(lower.x(), -0.5, 1e-12);
  EXPECT_NEAR(lower.y(), -0.5, 1e-12);
  EXPECT_NEAR(upper.x(), 0.5, 1e-12);
  EXPECT_NEAR(upper.y(), 0.5, 1e-12);
}

// The acceptance: a jack on the ground has a handful of contacts (<= 12), not one per vertex.
TEST(PlaneMesh, JackOnTheGroundHasAFewContacts) {
  // Arms 0.4 long and 0.2 thick, standing on the end of its z arm (5 x 5 vertices).
  const MeshCollisionModel jack = modelOf(test::crossMesh(8, 4, 0.05));
  const Pose pose = poseOf(Vec3(0, 0, 0.2 - 1e-3));
  int candidates = 0;
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collidePlaneMesh(ground, Pose{}, jack, pose, b); }, 0.01, &candidates);
  EXPECT_EQ(candidates, 25);
  static_assert(kMaxMeshPointsPerPair <= 12, "the issue's handful");
  EXPECT_EQ(contacts.size(), static_cast<size_t>(kMaxMeshPointsPerPair));
}

TEST(PlaneMesh, SameInputGivesBitIdenticalContacts) {
  const MeshCollisionModel jack = modelOf(test::crossMesh(8, 2, 0.05));
  const Pose pose = poseOf(Vec3(0.1, 0.2, 0.15), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized())));
  auto run = [&] { return meshContacts([&](ContactBuffer& b) { collidePlaneMesh(ground, Pose{}, jack, pose, b); }, 0.01); };
  const ContactManifold first = run(), second = run();
  ASSERT_EQ(first.size(), second.size());
  ASSERT_FALSE(first.empty());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].point, second[i].point);
    EXPECT_EQ(first[i].normal, second[i].normal);
    EXPECT_EQ(first[i].gap, second[i].gap);
    EXPECT_EQ(first[i].feature, second[i].feature);
  }
}

}  // namespace
}  // namespace contactlab::testing
