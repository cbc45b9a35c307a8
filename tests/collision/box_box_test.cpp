#include "collision/narrowphase_test_helpers.h"

namespace contactlab::testing {
namespace {

const BoxShape kGround = boxOfHalfExtents(2, 2, 0.5);
const BoxShape kCube = boxOfHalfExtents(0.5, 0.5, 0.5);

TEST(BoxBox, CubeRestingOnGroundGivesItsFourBottomCorners) {
  const ContactManifold contacts = collide(kGround, poseAt(Vec3::Zero()), kCube, poseAt(Vec3(0.3, 0.2, 0.99)));
  const double z = 0.495;  // midway through the 0.01 overlap
  expectContacts(contacts, {{-0.2, -0.3, z}, {0.8, -0.3, z}, {-0.2, 0.7, z}, {0.8, 0.7, z}}, -0.01,
                    Vec3::UnitZ());
}

TEST(BoxBox, CubeTurned45DegreesTouchesAtItsRotatedCorners) {
  const ContactManifold contacts =
      collide(kCube, poseAt(Vec3(0, 0, 0.995), rotationAbout(Vec3::UnitZ(), 45)), kGround, poseAt(Vec3::Zero()));
  const double r = std::sqrt(0.5), z = 0.4975;
  expectContacts(contacts, {{r, 0, z}, {-r, 0, z}, {0, r, z}, {0, -r, z}}, -0.005, -Vec3::UnitZ());
}

TEST(BoxBox, PartiallyOverlappingCubesTouchOverTheCommonRectangle) {
  const ContactManifold contacts = collide(kCube, poseAt(Vec3::Zero()), kCube, poseAt(Vec3(0.7, -0.4, 0.98)));
  const double z = 0.49;
  expectContacts(contacts, {{0.2, -0.5, z}, {0.5, -0.5, z}, {0.2, 0.1, z}, {0.5, 0.1, z}}, -0.02,
                    Vec3::UnitZ());
}

TEST(BoxBox, BrickTurned90DegreesBridgesTwoBricksBelow) {
  const BoxShape brick = boxOfHalfExtents(1.0, 0.5, 0.25);
  const Pose top = poseAt(Vec3(0, 0, 0.498), rotationAbout(Vec3::UnitZ(), 90));  // spans y in [-1, 1]
  for (const double side : {-1.0, 1.0}) {
    const ContactManifold contacts = collide(brick, poseAt(Vec3(0, 0.6 * side, 0)), brick, top);
    const double z = 0.249;
    expectContacts(contacts,
                      {{-0.5, 0.1 * side, z}, {0.5, 0.1 * side, z}, {-0.5, 1.0 * side, z}, {0.5, 1.0 * side, z}},
                      -0.002, Vec3::UnitZ());
  }
}

TEST(BoxBox, SlightlyTiltedRestingBoxKeepsAFaceContact) {
  const Quat tilt = rotationAbout(Vec3(0.3, -0.7, 0.2), 0.01);
  const ContactManifold contacts = collide(kGround, poseAt(Vec3::Zero()), kCube, poseAt(Vec3(0.1, 0, 0.999), tilt));
  ASSERT_EQ(contacts.size(), 4u);
  for (const ContactPoint& c : contacts) EXPECT_TRUE(c.normal.isApprox(Vec3::UnitZ(), 1e-12));
}

TEST(BoxBox, CrossingEdgesGiveOnePointAlongTheirCommonNormal) {
  const Pose ridge = poseAt(Vec3::Zero(), rotationAbout(Vec3::UnitX(), 45));  // top edge along x
  const Pose wedge = poseAt(Vec3(0, 0, std::sqrt(2.0) - 0.01), rotationAbout(Vec3::UnitY(), 45));  // bottom edge along y
  const ContactManifold contacts = collide(kCube, ridge, kCube, wedge);
  expectContacts(contacts, {{0, 0, std::sqrt(0.5) - 0.005}}, -0.01, Vec3::UnitZ());
}

TEST(BoxBox, MarginReportsClosingFacesButNotDistantOnes) {
  const Pose ground = poseAt(Vec3::Zero());
  EXPECT_TRUE(collide(kGround, ground, kCube, poseAt(Vec3(0, 0, 1.05)), 0.04).empty());
  const ContactManifold near = collide(kGround, ground, kCube, poseAt(Vec3(0, 0, 1.05)), 0.06);
  ASSERT_EQ(near.size(), 4u);
  for (const ContactPoint& c : near) EXPECT_NEAR(c.gap, 0.05, 1e-12);
}

TEST(BoxBox, DeeplySunkTiltedBoxIsReducedToFourPointsKeepingTheDeepest) {
  // Turned about z and tilted, the cube's bottom face crosses all four sides of the smaller top
  // face of the plate, so clipping yields eight points.
  const BoxShape plate = boxOfHalfExtents(0.45, 0.45, 0.5);
  const Pose cube = poseAt(Vec3(0, 0, 0.95), rotationAbout(Vec3::UnitZ(), 45) * rotationAbout(Vec3::UnitX(), 3));
  const ContactManifold contacts = collide(plate, poseAt(Vec3::Zero()), kCube, cube);
  ASSERT_EQ(contacts.size(), 4u);
  double deepestReported = 0.0;
  for (const ContactPoint& c : contacts) deepestReported = std::min(deepestReported, c.gap);

  // The deepest point by sampling the plate's top face under the cube's bottom face.
  const Vec3 bottomNormal = cube.rotation.col(2), bottomCentre = cube.position - 0.5 * bottomNormal;
  double deepestSampled = 0.0;
  for (double x = -0.45; x <= 0.45 + 1e-12; x += 0.0025)
    for (double y = -0.45; y <= 0.45 + 1e-12; y += 0.0025) {
      const double z = bottomCentre.z() - (bottomNormal.x() * (x - bottomCentre.x()) +
                                           bottomNormal.y() * (y - bottomCentre.y())) / bottomNormal.z();
      const Vec3 local = cube.rotation.transpose() * (Vec3(x, y, z) - cube.position);
      if (std::abs(local.x()) <= 0.5 && std::abs(local.y()) <= 0.5) deepestSampled = std::min(deepestSampled, z - 0.5);
    }
  EXPECT_NEAR(deepestReported, deepestSampled, 1e-3);
}

TEST(BoxBox, FeaturesAreStableWhileTheContactSlides) {
  const ContactManifold before = collide(kGround, poseAt(Vec3::Zero()), kCube, poseAt(Vec3(0.3, 0.2, 0.99)));
  const ContactManifold after = collide(kGround, poseAt(Vec3::Zero()), kCube, poseAt(Vec3(0.31, 0.21, 0.991)));
  ASSERT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before[i].feature, after[i].feature);
}

// A cube resting half over another of the same depth, as in a pyramid: the side faces along x are
// flush, so a hair of yaw and offset makes the upper cube's bottom edges cross the lower's side
// planes somewhere along them (here 8.5 cm from the overlap's corners at x = 0.5, within the patch
// ContactBuffer represents by its deepest point, which a hair of tilt makes the crossing). Those
// crossings lie on the straight edge of the overlap and are dropped: the contacts stay at the
// overlap's four corners whichever way the hair of yaw and tilt turns, so that the warm start finds
// them where they were.
TEST(BoxBox, FlushSideFacesKeepTheCornersWhateverAHairOfYawAndTilt) {
  for (const double yaw : {1e-5, -1e-5})
    for (const double tilt : {1e-4, -1e-4}) {
      SCOPED_TRACE(::testing::Message() << "yaw " << yaw << " tilt " << tilt);
      const double toDegrees = 180.0 / M_PI;
      const Quat turn = rotationAbout(Vec3::UnitZ(), yaw * toDegrees) * rotationAbout(Vec3::UnitY(), tilt * toDegrees);
      const Pose top = poseAt(Vec3(0.505, yaw * 0.085, 0.999), turn);
      const ContactManifold contacts = collide(kCube, poseAt(Vec3::Zero()), kCube, top);
      ASSERT_EQ(contacts.size(), 4u);
      for (const Vec3& corner : {Vec3(0.005, -0.5, 0.4995), Vec3(0.5, -0.5, 0.4995), Vec3(0.005, 0.5, 0.4995),
                                 Vec3(0.5, 0.5, 0.4995)}) {
        double nearest = std::numeric_limits<double>::infinity();
        for (const ContactPoint& c : contacts) nearest = std::min(nearest, (c.point - corner).norm());
        EXPECT_LT(nearest, 1e-4) << "no contact at the corner " << corner.transpose();
      }
    }
}

}  // namespace
}  // namespace contactlab::testing
