// Properties of the dispatch itself, whatever the pair: empty pairs, the point limit, order.
#include "collision/narrowphase_test_helpers.h"

#include <random>
#include <stdexcept>
#include <vector>

#include "collision/mesh_model.h"
#include "support/test_meshes.h"

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

// Every pair with a mesh, through the dispatch table, on random poses: at most
// kMaxMeshPointsPerPair points, and the swapped call gives bit-identical points with flipped
// normals (the table runs the same function on the same arguments and flips). Two meshes run in
// the order given, so the reduction's tie-breaks (by feature, whose side bit swaps) may keep other
// points; the deepest is kept either way.
TEST(Narrowphase, MeshPairsAreSymmetricAndCapped) {
  MeshModelCache meshes;
  const auto jack = test::crossMesh(8, 2, 0.05);
  const auto ball = test::sphereMesh(0.15, 2);
  meshes.prepare(jack);
  meshes.prepare(ball);
  const std::vector<Shape> others{MeshShape{jack}, MeshShape{ball}, SphereShape{0.1}, boxOfHalfExtents(0.1, 0.2, 0.05),
                                  CapsuleShape{0.05, 0.15}, PlaneShape{Vec3(0, 0, 1), -0.1}};
  std::mt19937 random(8);
  std::uniform_real_distribution<double> offset(-0.2, 0.2), angle(-180, 180);
  int contactsSeen = 0;
  for (const Shape& other : others)
    for (int trial = 0; trial < 30; ++trial) {
      const Pose meshPose = poseAt(Vec3::Zero(), rotationAbout(Vec3(1, 2, 3), angle(random)));
      const Pose otherPose = poseAt(Vec3(offset(random), offset(random), offset(random)),
                                    rotationAbout(Vec3(3, -1, 2), angle(random)));
      ContactManifold forward, backward;
      collideShapes(MeshShape{jack}, meshPose, other, otherPose, 0.01, &meshes, forward);
      collideShapes(other, otherPose, MeshShape{jack}, meshPose, 0.01, &meshes, backward);
      EXPECT_LE(forward.size(), static_cast<size_t>(kMaxMeshPointsPerPair));
      contactsSeen += static_cast<int>(forward.size());
      if (std::holds_alternative<MeshShape>(other)) {
        auto deepest = [](const ContactManifold& m) {
          double gap = 1e300;
          for (const ContactPoint& c : m) gap = std::min(gap, c.gap);
          return gap;
        };
        EXPECT_EQ(forward.empty(), backward.empty());
        EXPECT_NEAR(deepest(forward), deepest(backward), 1e-12);
        continue;
      }
      ASSERT_EQ(forward.size(), backward.size());
      for (size_t i = 0; i < forward.size(); ++i) {
        EXPECT_EQ(forward[i].point, backward[i].point);
        EXPECT_EQ(forward[i].normal, -backward[i].normal);
        EXPECT_EQ(forward[i].gap, backward[i].gap);
        EXPECT_NEAR(forward[i].normal.norm(), 1.0, 1e-12);
        EXPECT_LT(forward[i].gap, 0.01);
      }
    }
  EXPECT_GT(contactsSeen, 200);
}

TEST(Narrowphase, MeshPairWithoutTheWorldsModelsIsAnError) {
  const Shape jack = MeshShape{test::crossMesh(8, 2, 0.05)};
  ContactManifold out;
  EXPECT_THROW(collideShapes(jack, Pose{}, SphereShape{0.1}, Pose{}, 0.01, out), std::logic_error);
  MeshModelCache unprepared;
  EXPECT_THROW(collideShapes(jack, Pose{}, jack, Pose{}, 0.01, &unprepared, out), std::logic_error);
}

}  // namespace
}  // namespace contactlab::testing
