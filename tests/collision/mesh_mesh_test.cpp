#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <utility>

#include "collision/contact_generation.h"
#include "collision/mesh_test_helpers.h"
#include "collision/narrowphase.h"
#include "geometry/mesh_library.h"
#include "support/tetgen_cache.h"

namespace contactlab::testing {
namespace {

// A 0.6 x 0.6 x 0.2 box mesh on a 1 x 1 x 0.4 one, sunk 1 mm: the upper box's four bottom corners
// lie inside the lower box's top face; the lower box's corners are outside the upper one.
TEST(MeshMesh, BoxOnBoxFaceToFace) {
  const MeshCollisionModel lower = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.2)));
  const MeshCollisionModel upper = modelOf(test::boxMesh(Vec3(0.3, 0.3, 0.1)));
  const Pose upperPose = poseOf(Vec3(0.1, -0.1, 0.3 - 1e-3));
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collideMeshMesh(lower, Pose{}, upper, upperPose, b); }, 0.01);
  expectFootprintCorners(contacts, 0.1, -0.1, 0.3, 0.3);
  expectNormalAndGap(contacts, Vec3::UnitZ(), -1e-3);
  for (const ContactPoint& c : contacts) EXPECT_TRUE(c.feature & kSecondShapeFeature) << "the upper box's vertices";
}

// Finer meshes, the upper one turned 0.5 rad: one cluster, kept to the pair's budget, all
// with the face normal.
TEST(MeshMesh, TurnedFineBoxesGetAHandfulOfPoints) {
  const MeshCollisionModel lower = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.2), 4));
  const MeshCollisionModel upper = modelOf(test::boxMesh(Vec3(0.3, 0.3, 0.1), 4));
  const Pose upperPose = poseOf(Vec3(0, 0, 0.3 - 1e-3), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ())));
  int candidates = 0;
  const ContactManifold contacts =
      meshContacts([&](ContactBuffer& b) { collideMeshMesh(lower, Pose{}, upper, upperPose, b); }, 0.01, &candidates);
  EXPECT_GE(candidates, 25);
  ASSERT_EQ(contacts.size(), static_cast<size_t>(kMaxMeshPointsPerPair));
  expectNormalAndGap(contacts, Vec3::UnitZ(), -1e-3);
}

// Swapping the meshes gives the same candidate contacts with flipped normals (before reduction,
// whose tie-breaks follow the feature ids, which swap sides).
TEST(MeshMesh, SwappedPairGivesFlippedNormals) {
  const MeshCollisionModel a = modelOf(test::crossMesh(8, 2, 0.05));
  const MeshCollisionModel b = modelOf(test::sphereMesh(0.15, 2));
  std::mt19937 random(4);
  std::uniform_real_distribution<double> offset(-0.25, 0.25);
  int compared = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Pose poseA = poseOf(Vec3::Zero(), Quat(Eigen::AngleAxisd(offset(random), Vec3(1, 2, 0).normalized())));
    const Pose poseB = poseOf(Vec3(offset(random), offset(random), offset(random)));
    ContactBuffer forward(0.02, 1e-9), backward(0.02, 1e-9);
    collideMeshMesh(a, poseA, b, poseB, forward);
    collideMeshMesh(b, poseB, a, poseA, backward);
    ASSERT_EQ(forward.size(), backward.size());
    for (int i = 0; i < forward.size(); ++i) {
      bool matched = false;
      for (int j = 0; j < backward.size(); ++j)
        matched |= (forward[i].point - backward[j].point).norm() < 1e-12 &&
                   (forward[i].normal + backward[j].normal).norm() < 1e-12 &&
                   std::abs(forward[i].gap - backward[j].gap) < 1e-12;
      EXPECT_TRUE(matched) << "contact " << i << " of trial " << trial;
      ++compared;
    }
  }
  EXPECT_GT(compared, 50);
}

// A cross (a) and a sphere (b) at random poses: a turned about (1, 2, 0) at the origin, b turned
// about (0, 1, 3) and moved up to `reach` along each axis.
class MeshMeshCrossAndSphere : public ::testing::Test {
 protected:
  const MeshCollisionModel a = modelOf(test::crossMesh(8, 2, 0.05));
  const MeshCollisionModel b = modelOf(test::sphereMesh(0.15, 2));
};

std::pair<Pose, Pose> randomPoses(std::mt19937& random, double reach) {
  std::uniform_real_distribution<double> offset(-reach, reach);
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  const Pose first = poseOf(Vec3::Zero(), Quat(Eigen::AngleAxisd(angle(random), Vec3(1, 2, 0).normalized())));
  const Pose second = poseOf(Vec3(offset(random), offset(random), offset(random)),
                             Quat(Eigen::AngleAxisd(angle(random), Vec3(0, 1, 3).normalized())));
  return {first, second};
}

// The candidate culling loses nothing: the pair gives exactly the contacts of every surface vertex
// of each mesh tested against the other (the definition of the method), on random touching poses.
TEST_F(MeshMeshCrossAndSphere, SameContactsAsEveryVertexTested) {
  std::mt19937 random(11);
  const double margin = 0.02;
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto [poseA, poseB] = randomPoses(random, 0.3);
    ContactBuffer paired(margin, 1e-9), everyVertex(margin, 1e-9);
    collideMeshMesh(a, poseA, b, poseB, paired);
    const auto& verticesA = a.geometry().surface.vertices;
    const auto& verticesB = b.geometry().surface.vertices;
    for (size_t v = 0; v < verticesA.size(); ++v)
      addMeshBallContact(b, poseB, false, toWorld(poseA, verticesA[v]), 0.0, static_cast<std::uint32_t>(v),
                         everyVertex);
    for (size_t v = 0; v < verticesB.size(); ++v)
      addMeshBallContact(a, poseA, true, toWorld(poseB, verticesB[v]), 0.0,
                         kSecondShapeFeature | static_cast<std::uint32_t>(v), everyVertex);
    ASSERT_EQ(paired.size(), everyVertex.size()) << "trial " << trial;
    for (int i = 0; i < paired.size(); ++i) {
      EXPECT_EQ(paired[i].feature, everyVertex[i].feature);
      EXPECT_EQ(paired[i].point, everyVertex[i].point);
      EXPECT_EQ(paired[i].normal, everyVertex[i].normal);
      EXPECT_EQ(paired[i].gap, everyVertex[i].gap);
    }
    compared += paired.size();
  }
  EXPECT_GT(compared, 100);
}

// A pair without contacts reports a lower bound of the distance from each mesh's surface vertices
// to the other solid (what the contact generator skips pairs by): never above the distance found by
// testing every vertex, and positive.
TEST_F(MeshMeshCrossAndSphere, SeparationBoundIsBelowEveryVertexDistance) {
  std::mt19937 random(5);
  const double margin = 0.01;
  int bounded = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto [poseA, poseB] = randomPoses(random, 0.5);
    ContactBuffer buffer(margin, 1e-9);
    collideMeshMesh(a, poseA, b, poseB, buffer);
    if (buffer.size() > 0 || buffer.separationBound() == 0.0) continue;
    ++bounded;
    double nearest = std::numeric_limits<double>::infinity();
    auto distances = [&](const MeshCollisionModel& from, const Pose& fromPose, const MeshCollisionModel& to,
                         const Pose& toPose) {
      for (const Vec3& v : from.geometry().surface.vertices) {
        const Vec3 inTo = toBody(toPose, toWorld(fromPose, v));
        ASSERT_FALSE(to.contains(inTo)) << "trial " << trial;
        const auto surface = to.closestSurfacePoint(inTo, 10.0);
        ASSERT_TRUE(surface.has_value());
        nearest = std::min(nearest, surface->distance);
      }
    };
    distances(a, poseA, b, poseB);
    distances(b, poseB, a, poseA);
    EXPECT_GT(buffer.separationBound(), margin) << "trial " << trial;
    EXPECT_LE(buffer.separationBound(), nearest) << "trial " << trial;
  }
  EXPECT_GT(bounded, 40);
}

// With the pair's relative travel, a vertex within the margin is proposed only if its path can
// bring it within the point margin: the upper box 8 mm above the lower one, within the 2 cm
// margin, touches it when it comes down by 12 mm, not when it moves sideways or away.
TEST(MeshMesh, TravelKeepsOnlyVerticesThatCanArrive) {
  const MeshCollisionModel lower = modelOf(test::boxMesh(Vec3(0.5, 0.5, 0.2)));
  const MeshCollisionModel upper = modelOf(test::boxMesh(Vec3(0.3, 0.3, 0.1)));
  const Pose upperPose = poseOf(Vec3(0.1, -0.1, 0.3 + 8e-3));
  const double margin = 0.02, pointMargin = 0.005;
  auto contactsMoving = [&](const Vec3* travelOfUpper) {
    return meshContacts(
        [&](ContactBuffer& b) {
          if (travelOfUpper) b.setRelativeTravel({*travelOfUpper, Vec3::Zero(), Vec3::Zero(), pointMargin});
          collideMeshMesh(lower, Pose{}, upper, upperPose, b);
        },
        margin);
  };
  const ContactManifold still = contactsMoving(nullptr);  // no travel known: the whole margin
  expectFootprintCorners(still, 0.1, -0.1, 0.3, 0.3);
  const Vec3 down(0, 0, -0.012), sideways(0.012, 0, 0), away(0, 0, 0.012);
  const ContactManifold landing = contactsMoving(&down);
  expectFootprintCorners(landing, 0.1, -0.1, 0.3, 0.3);
  expectNormalAndGap(landing, Vec3::UnitZ(), 8e-3);
  EXPECT_TRUE(contactsMoving(&sideways).empty());
  EXPECT_TRUE(contactsMoving(&away).empty());
}

// The path test misses no vertex: on random poses, translations and turns, every vertex within the
// margin some point of whose first-order path (RelativeTravel) lies inside the other mesh or within
// the point margin of it (sampled along the path) is proposed, while vertices within the margin
// whose paths stay away are not. The travel and its margins are the contact generator's
// (relativeTravel, here with dt = 1: velocities are the displacements); the node tests follow
// the nodes' own first-order paths, and this checks that no vertex's path escapes its node's.
TEST_F(MeshMeshCrossAndSphere, TravelMissesNoVertexWhosePathComesNear) {
  std::mt19937 random(8);
  std::uniform_real_distribution<double> component(-0.03, 0.03), turnComponent(-0.1, 0.1);
  const double radiusA = a.geometry().boundingRadius, radiusB = b.geometry().boundingRadius;
  int mustPropose = 0, withinMarginOnly = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const auto [poseA, poseB] = randomPoses(random, 0.3);
    const Vec3 travelOfB(component(random), component(random), component(random));
    const bool turning = trial % 2 == 1;
    const Vec3 turnA = turning ? Vec3(turnComponent(random), turnComponent(random), turnComponent(random)) : Vec3::Zero();
    const Vec3 turnB = turning ? Vec3(turnComponent(random), turnComponent(random), turnComponent(random)) : Vec3::Zero();
    const BodyTravel bodyA{Vec3::Zero(), turnA.norm() * radiusA, true, turnA, radiusA};
    const BodyTravel bodyB{travelOfB, turnB.norm() * radiusB, true, turnB, radiusB};
    const double margin = kContactSkin + travelOfB.norm() + bodyA.spin + bodyB.spin;  // as the generator's
    const RelativeTravel travel = relativeTravel(bodyA, bodyB, 1.0, Vec3::Zero(), margin);
    const double pointMargin = travel.pointMargin;
    ContactBuffer buffer(margin, 1e-9);
    buffer.setRelativeTravel(travel);
    collideMeshMesh(a, poseA, b, poseB, buffer);
    auto proposed = [&](std::uint32_t feature) {
      for (int i = 0; i < buffer.size(); ++i)
        if (buffer[i].feature == feature) return true;
      return false;
    };
    // Each point x of `from` moves by translation + turnFrom x (x - c_from) - turnTo x (x - c_to)
    // relative to `to`, to first order.
    auto check = [&](const MeshCollisionModel& from, const Pose& fromPose, const Vec3& turnFrom,
                     const MeshCollisionModel& to, const Pose& toPose, const Vec3& turnTo, const Vec3& translation,
                     std::uint32_t side) {
      const auto& vertices = from.geometry().surface.vertices;
      for (size_t v = 0; v < vertices.size(); ++v) {
        const Vec3 start = toWorld(fromPose, vertices[v]);
        const Vec3 move =
            translation + turnFrom.cross(start - fromPose.position) - turnTo.cross(start - toPose.position);
        bool pathNear = false;
        constexpr int kSamples = 40;
        for (int s = 0; s <= kSamples && !pathNear; ++s) {
          const Vec3 inTo = toBody(toPose, start + (double(s) / kSamples) * move);
          const auto surface = to.closestSurfacePoint(inTo, pointMargin);
          pathNear = surface.has_value() && surface->distance <= pointMargin;
        }
        const auto atStart = to.closestSurfacePoint(toBody(toPose, start), margin);
        const bool withinMargin = atStart.has_value() && atStart->distance < margin;
        const std::uint32_t feature = side | static_cast<std::uint32_t>(v);
        if (pathNear && withinMargin) {
          ++mustPropose;
          EXPECT_TRUE(proposed(feature)) << "trial " << trial << ", vertex " << v;
        } else if (withinMargin && !proposed(feature)) {
          ++withinMarginOnly;
        }
      }
    };
    check(a, poseA, turnA, b, poseB, turnB, -travelOfB, 0u);
    check(b, poseB, turnB, a, poseA, turnA, travelOfB, kSecondShapeFeature);
  }
  EXPECT_GT(mustPropose, 100);
  EXPECT_GT(withinMarginOnly, 100) << "the travel should leave out vertices the margin alone would take";
}

// Two of the funnel's jacks (scale 0.4: arms of radius 0.04 m, 0.4 m tip to tip) whose arms cross
// at their middles: B's x arm over A's y arm and B's y arm over A's x arm, B's centre at
// (0.1, 0.1, 0.075), so that the capsules the arms approximate overlap 5 mm; no other arms come
// within reach. The jack's edges are at most 1.25 radii long (jackMesh), so vertices on the arms'
// sides see the crossings, with the upward normal. The arms are polygons inscribed in the capsules'
// circles, so they overlap less than 5 mm, and their facets tilt the normals: edges of up to 1.25
// radii round a circumference of 2 pi radii make 5 facets at the fewest, 72 degrees apart, so a
// facet's normal lies within 36 degrees of the arm's radial direction.
TEST(MeshMesh, JacksWhoseArmsCrossAtTheirMiddlesTouch) {
  const test::TemporaryDirectory cache;
  const auto jack = namedMeshGeometry("jack", 0.4, test::tetgenSettingsIn(cache));
  const MeshCollisionModel model = modelOf(jack);
  const Pose poseB = poseOf(Vec3(0.1, 0.1, 0.075));
  ContactBuffer buffer(0.002, 1e-9);
  collideMeshMesh(model, Pose{}, model, poseB, buffer);
  ASSERT_GT(buffer.size(), 0);
  double deepest = 0.0;
  for (int i = 0; i < buffer.size(); ++i) {
    EXPECT_GT(buffer[i].normal.z(), std::cos(0.2 * std::numbers::pi)) << "A pushes B up, at " << buffer[i].point.transpose();
    deepest = std::min(deepest, buffer[i].gap);
  }
  EXPECT_LT(deepest, -1e-3);
  EXPECT_GT(deepest, -5e-3);
}

// Two 2 m bars of 2 cm square section crossing at their middles 5 mm deep: every vertex of either
// lies 1 m from the other, so only the points along the long edges (MeshCollisionModel::
// contactPoints) see the crossing: B's bottom edges' middle points, 5 mm inside A under its top face.
TEST(MeshMesh, BarsCrossingAtTheirMiddlesTouchThroughTheirEdgePoints) {
  const MeshCollisionModel along = modelOf(test::boxMesh(Vec3(1.0, 0.01, 0.01)));
  const MeshCollisionModel across = modelOf(test::boxMesh(Vec3(0.01, 1.0, 0.01)));
  ContactBuffer buffer(0.002, 1e-9);
  collideMeshMesh(along, Pose{}, across, poseOf(Vec3(0.0, 0.0, 0.015)), buffer);
  ASSERT_GT(buffer.size(), 0);
  double deepest = 0.0;
  for (int i = 0; i < buffer.size(); ++i) {
    EXPECT_NEAR(buffer[i].normal.z(), 1.0, 1e-9) << "at " << buffer[i].point.transpose();
    deepest = std::min(deepest, buffer[i].gap);
  }
  EXPECT_NEAR(deepest, -5e-3, 1e-9);
}

TEST(MeshMesh, SeparatedMeshesHaveNoContacts) {
  const MeshCollisionModel a = modelOf(test::crossMesh(8, 2, 0.05));
  EXPECT_TRUE(
      meshContacts([&](ContactBuffer& b) { collideMeshMesh(a, Pose{}, a, poseOf(Vec3(0.45, 0, 0)), b); }, 0.01).empty());
}

}  // namespace
}  // namespace contactlab::testing
