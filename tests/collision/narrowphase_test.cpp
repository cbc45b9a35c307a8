// Properties of the dispatch itself, whatever the pair: empty pairs, the point limit, order.
#include "collision/narrowphase_test_helpers.h"

#include <random>
#include <vector>

namespace contactlab::testing {
namespace {

TEST(Narrowphase, PlanesNeverTouchEachOther) {
  EXPECT_TRUE(collide(PlaneShape{}, Pose{}, PlaneShape{Vec3(0, 0, -1), 0.5}, Pose{}, 1.0).empty());
}

TEST(Narrowphase, AppendsToTheManifoldWithoutClearingIt) {
  ContactManifold contacts(1);
  collideShapes(SphereShape{1.0}, poseAt(Vec3::Zero()), SphereShape{1.0}, poseAt(Vec3(1.5, 0, 0)), 0.0, contacts);
  EXPECT_EQ(contacts.size(), 2u);
}

TEST(Narrowphase, RepeatedCallsGiveIdenticalPointsInFeatureOrder) {
  const Pose cube = poseAt(Vec3(0.1, -0.2, 0.97), rotationAbout(Vec3(1, 1, 3), 17));
  ContactManifold first, second;
  collideShapes(boxOfHalfExtents(2, 2, 0.5), Pose{}, boxOfHalfExtents(0.5, 0.5, 0.5), cube, 0.05, first);
  collideShapes(boxOfHalfExtents(2, 2, 0.5), Pose{}, boxOfHalfExtents(0.5, 0.5, 0.5), cube, 0.05, second);
  ASSERT_FALSE(first.empty());
  ASSERT_EQ(first.size(), second.size());
  for (size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].feature, second[i].feature);
    EXPECT_EQ(first[i].point, second[i].point);
    EXPECT_EQ(first[i].gap, second[i].gap);
    if (i > 0) {
      EXPECT_LT(first[i - 1].feature, first[i].feature);
    }
  }
}

TEST(Narrowphase, DegenerateCapsuleBehavesLikeASphere) {
  const ContactManifold contacts =
      collide(CapsuleShape{0.5, 0.0}, poseAt(Vec3(0, 0, 1.4)), PlaneShape{Vec3::UnitZ(), 1.0}, Pose{});
  ASSERT_EQ(contacts.size(), 1u);  // both ends coincide and merge into one point
  EXPECT_NEAR(contacts[0].gap, -0.1, 1e-12);
}

// Every pair of kinds in random poses: finite points, unit normals, at most four points, gaps
// below the margin and mirror images under swapping (all checked by collide()).
TEST(Narrowphase, RandomPosesKeepTheInvariantsForEveryPair) {
  const std::vector<Shape> shapes = {SphereShape{0.4}, boxOfHalfExtents(0.5, 0.3, 0.2), CapsuleShape{0.2, 0.5},
                                     PlaneShape{Vec3(0.1, -0.2, 1.0), 0.1}};
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(-0.6, 0.6), angle(-180.0, 180.0);
  auto randomPose = [&] {
    const Vec3 axis(coordinate(random), coordinate(random), coordinate(random));
    return poseAt(Vec3(coordinate(random), coordinate(random), coordinate(random)), rotationAbout(axis, angle(random)));
  };
  int contactsSeen = 0;
  for (const Shape& a : shapes)
    for (const Shape& b : shapes)
      for (int trial = 0; trial < 200; ++trial) {
        const ContactManifold contacts = collide(a, randomPose(), b, randomPose(), 0.05);
        for (const ContactPoint& c : contacts) EXPECT_TRUE(c.point.allFinite() && std::isfinite(c.gap));
        contactsSeen += static_cast<int>(contacts.size());
      }
  EXPECT_GT(contactsSeen, 1000);
}

}  // namespace
}  // namespace contactlab::testing
