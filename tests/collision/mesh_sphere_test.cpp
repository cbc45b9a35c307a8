#include <gtest/gtest.h>

#include <random>

#include "collision/mesh_test_helpers.h"

namespace contactlab::testing {
namespace {

// A sphere mesh (vertices on the sphere of radius R) against a primitive sphere of radius r in a
// random direction: the gap is the analytic |c| - R - r up to the mesh's chord error, the largest
// distance between the sphere and the mesh's faces, R - (the faces' least distance to the centre).
TEST(MeshSphere, GapMatchesTheAnalyticDistanceWithinTheChordError) {
  const double bigRadius = 0.5, smallRadius = 0.2;
  const auto sphere = test::sphereMesh(bigRadius, 3);
  double inradius = bigRadius;
  for (const auto& [a, b, c] : sphere->surface.triangles) {
    const Vec3& p = sphere->surface.vertices[a];
    const Vec3 n = (sphere->surface.vertices[b] - p).cross(sphere->surface.vertices[c] - p).normalized();
    inradius = std::min(inradius, n.dot(p));
  }
  const double chordError = bigRadius - inradius;
  ASSERT_LT(chordError, 0.01);
  const MeshCollisionModel mesh = modelOf(sphere);
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> analyticGap(-0.02, 0.02);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 direction = Vec3(normal(random), normal(random), normal(random)).normalized();
    const double gap = analyticGap(random);
    const Vec3 centre = (bigRadius + smallRadius + gap) * direction;
    const ContactManifold contacts = meshContacts(
        [&](ContactBuffer& b) { collideMeshSphere(mesh, Pose{}, SphereShape{smallRadius}, poseOf(centre), b); }, 0.05);
    ASSERT_FALSE(contacts.empty());
    // Vertex contacts (within 0.25 of the centre, so at most ~13 degrees round the big sphere)
    // point from their vertex to the centre; the deepest, the centre's, along the face normal.
    const ContactPoint* deepest = &contacts.front();
    for (const ContactPoint& c : contacts) {
      if (c.gap < deepest->gap) deepest = &c;
      EXPECT_GT(c.normal.dot(direction), 0.75) << "normals point from the mesh to the sphere";
    }
    EXPECT_GE(deepest->gap, gap - 1e-12);
    EXPECT_LE(deepest->gap, gap + chordError);
    EXPECT_GT(deepest->normal.dot(direction), 0.99);
  }
}

TEST(MeshSphere, SphereOnAFaceTouchesInsideTheFace) {
  const MeshCollisionModel box = modelOf(test::boxMesh(Vec3(1, 1, 0.5)));
  const ContactManifold contacts = meshContacts(
      [&](ContactBuffer& b) { collideMeshSphere(box, Pose{}, SphereShape{0.25}, poseOf(Vec3(0.2, 0.3, 0.74)), b); }, 0.01);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].gap, -0.01, 1e-12);
  EXPECT_TRUE(contacts[0].normal.isApprox(Vec3::UnitZ(), 1e-12));
  EXPECT_TRUE(contacts[0].point.isApprox(Vec3(0.2, 0.3, 0.495), 1e-12));
}

}  // namespace
}  // namespace contactlab::testing
