#include "collision/contact_generation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "support/test_meshes.h"

namespace contactlab::testing {
namespace {

Body meshBody(const std::shared_ptr<const MeshGeometry>& mesh, const Vec3& position, const Quat& orientation) {
  Body body;
  body.shape = MeshShape{mesh};
  body.position = position;
  body.orientation = orientation;
  return body;
}

// The generator skips mesh pairs that an earlier step proved apart and searches pairs in contact
// only near where they touched (ContactGenerator's PairMemory): step by step, as one cross moves
// towards and into another and a third turns beside them, it gives exactly the contacts of a
// generator that searches every pair afresh. For ten steps the moving cross also has a velocity
// that widens its pairs' margin beyond the fronts' reach (they keep only their bounds then), and
// for ten more a spin of 3 rad/s; the turning cross turns as its angular velocity says, so the
// pairs' paths (RelativeTravel) carry turns as well as translations.
TEST(ContactGenerator, RememberedPairsChangeNoContact) {
  const auto cross = test::crossMesh(8, 2, 0.05);
  std::vector<Body> bodies = {meshBody(cross, Vec3(0, 0, 0), Quat::Identity()),
                              meshBody(cross, Vec3(0.44, 0.05, 0.02), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))),
                              meshBody(cross, Vec3(0.1, 0.38, 0.0), Quat(Eigen::AngleAxisd(0.7, Vec3::UnitX())))};
  ContactGenerator remembering;
  remembering.prepareMeshes(bodies, 18);
  const double dt = 0.01;
  int skipped = 0, replayed = 0, touching = 0;
  for (int step = 0; step < 60; ++step) {
    bodies[1].position.x() -= 0.0015;  // 9 cm in all: from about 4 cm apart to 5 cm deep
    bodies[2].orientation = Quat(Eigen::AngleAxisd(0.7 + 0.002 * step, Vec3::UnitX()));
    bodies[1].velocity = step >= 20 && step < 30 ? Vec3(-1.0, 0.0, 0.0) : Vec3::Zero();  // margin + 1 cm
    bodies[1].angularVelocity = step >= 40 && step < 50 ? Vec3(0.0, 0.0, 3.0) : Vec3::Zero();
    bodies[2].angularVelocity = Vec3(0.002 / dt, 0.0, 0.0);
    std::vector<BodyContact> remembered, fresh;
    remembering.generate(bodies, dt, Vec3::Zero(), remembered);
    ContactGenerator afresh;
    afresh.prepareMeshes(bodies, 18);
    afresh.generate(bodies, dt, Vec3::Zero(), fresh);
    EXPECT_EQ(afresh.skippedPairs(), 0);
    EXPECT_EQ(afresh.replayedPairs(), 0);
    skipped += remembering.skippedPairs();
    replayed += remembering.replayedPairs();
    if (!fresh.empty()) ++touching;
    ASSERT_EQ(remembered.size(), fresh.size()) << "step " << step;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      EXPECT_EQ(remembered[i].bodyA, fresh[i].bodyA);
      EXPECT_EQ(remembered[i].bodyB, fresh[i].bodyB);
      EXPECT_EQ(remembered[i].contact.point, fresh[i].contact.point);
      EXPECT_EQ(remembered[i].contact.normal, fresh[i].contact.normal);
      EXPECT_EQ(remembered[i].contact.gap, fresh[i].contact.gap);
    }
  }
  EXPECT_GT(skipped, 10);   // the bound was used, ...
  EXPECT_GT(replayed, 10);  // the fronts too ...
  EXPECT_GT(touching, 10);  // ... and the moving pair did come into contact
}

// A pair of meshes at rest keeps the contacts of its last search while the two have moved relative
// to each other by at most kRestingMotion: the same contacts (points carried by the first body), within
// that motion of a fresh search's. Moved further, it searches again and matches a fresh search exactly.
TEST(ContactGenerator, PairsAtRestKeepTheirContactsWithinTheRestingMotion) {
  const auto cross = test::crossMesh(8, 2, 0.05);
  std::vector<Body> bodies = {meshBody(cross, Vec3(0, 0, 0), Quat::Identity()),
                              meshBody(cross, Vec3(0.38, 0.05, 0.02), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())))};
  ContactGenerator remembering;
  remembering.prepareMeshes(bodies, 18);
  const auto fresh = [&] {
    ContactGenerator afresh;
    afresh.prepareMeshes(bodies, 18);
    std::vector<BodyContact> contacts;
    afresh.generate(bodies, 0.01, Vec3::Zero(), contacts);
    return contacts;
  };
  std::vector<BodyContact> kept;
  remembering.generate(bodies, 0.01, Vec3::Zero(), kept);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(remembering.restingPairs(), 0);
  // Both bodies carried along together (the pair does not move: contacts follow the first body),
  // then the second nudged within the resting motion, then beyond it.
  const Vec3 carried(0.3, -0.2, 0.1);
  struct Case {
    Vec3 nudge;
    bool resting;
  };
  for (const Case& c : {Case{Vec3::Zero(), true}, Case{Vec3(0.7, 0.0, -0.5) * kRestingMotion, true},
                        Case{Vec3(0.0, 2.0, 0.0) * kRestingMotion, false}}) {
    bodies[0].position = carried;
    bodies[1].position = Vec3(0.38, 0.05, 0.02) + carried + c.nudge;
    std::vector<BodyContact> contacts;
    remembering.generate(bodies, 0.01, Vec3::Zero(), contacts);
    EXPECT_EQ(remembering.restingPairs(), c.resting ? 1 : 0) << c.nudge.transpose();
    const std::vector<BodyContact> expected = fresh();
    ASSERT_EQ(contacts.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(contacts[i].contact.feature, expected[i].contact.feature);
      // Within the motion plus rounding when resting; bit for bit otherwise.
      const double within = c.resting ? c.nudge.norm() + 1e-12 : 0.0;
      EXPECT_LE((contacts[i].contact.point - expected[i].contact.point).norm(), within);
      EXPECT_LE(std::abs(contacts[i].contact.gap - expected[i].contact.gap), within);
      EXPECT_LE((contacts[i].contact.normal - expected[i].contact.normal).norm(), c.resting ? 1e-9 : 0.0);
    }
  }
}

// relativeTravel's point margin against the exact paths of turning bodies. Between midpoints a
// body moves by dt v (v the free velocity, gravity's share included) and turns by dt w about its
// centre. A point fixed to b, seen in a's frame, leaves its first-order path by at most the point
// margin less the skin. Points are those that matter: within b's bounding radius of its centre
// and within a's plus the margin of a's. Both sides are checked (b's points in a, a's in b), with
// both bodies dynamic and with a static a under gravity.
TEST(RelativeTravel, PointMarginCoversTheExactPathsOfTurningBodies) {
  std::mt19937 random(31);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), radius(0.1, 0.5);
  auto vector = [&](double scale) { return Vec3(scale * unit(random), scale * unit(random), scale * unit(random)); };
  const double dt = 0.01;
  const Vec3 gravity(0, 0, -9.81);
  auto rotation = [](const Vec3& turn, double s) {
    const double angle = s * turn.norm();
    return angle > 0.0 ? Mat3(Eigen::AngleAxisd(angle, turn.normalized())) : Mat3(Mat3::Identity());
  };
  int checked = 0;
  double largestPointShare = 0.0;  // of the point margin's rotation terms, the largest share used
  for (int trial = 0; trial < 400; ++trial) {
    const bool aStatic = trial % 4 == 0;
    const double radiusA = radius(random), radiusB = radius(random);
    const Vec3 centreA = vector(1.0), centreB = centreA + vector(0.5 * (radiusA + radiusB));
    const Mat3 rotationA = rotation(vector(3.0), 1.0), rotationB = rotation(vector(3.0), 1.0);
    const Vec3 velocityA = aStatic ? Vec3::Zero() : vector(5.0), velocityB = vector(5.0);
    const Vec3 turnA = aStatic ? Vec3::Zero() : vector(0.15), turnB = vector(0.15);  // up to 26 rad/s
    const BodyTravel a{velocityA, turnA.norm() * radiusA, !aStatic, turnA, radiusA};
    const BodyTravel b{velocityB, turnB.norm() * radiusB, true, turnB, radiusB};
    const double margin = kContactSkin + dt * (velocityA - velocityB).norm() + a.spin + b.spin +
                          (aStatic ? gravity.norm() * dt * dt : 0.0);
    const RelativeTravel travel = relativeTravel(a, b, dt, gravity, margin);
    // Free velocities: a dynamic body falls during the step.
    const Vec3 freeA = aStatic ? Vec3::Zero() : Vec3(velocityA + dt * gravity), freeB = velocityB + dt * gravity;
    // `from`'s point x0 seen from `to` at s in [0, 1], exactly and along its first-order path.
    auto checkSide = [&](const Vec3& centreFrom, const Mat3& rotationFrom, const Vec3& freeFrom, const Vec3& turnFrom,
                         double radiusFrom, const Vec3& centreTo, const Mat3& rotationTo, const Vec3& freeTo,
                         const Vec3& turnTo, double radiusTo, const Vec3& translation) {
      for (int point = 0; point < 20; ++point) {
        const Vec3 x0 = centreFrom + radiusFrom * unit(random) * vector(1.0).normalized();
        if ((x0 - centreTo).norm() > radiusTo + margin) continue;
        const Vec3 seenAtStart = rotationTo.transpose() * (x0 - centreTo);
        const Vec3 firstOrder = translation + turnFrom.cross(x0 - centreFrom) - turnTo.cross(x0 - centreTo);
        for (int step = 0; step <= 20; ++step) {
          const double s = step / 20.0;
          const Vec3 x = centreFrom + s * dt * freeFrom + rotation(turnFrom, s) * (x0 - centreFrom);
          const Vec3 seen = (rotation(turnTo, s) * rotationTo).transpose() * (x - centreTo - s * dt * freeTo);
          const double pointError = (seen - (seenAtStart + s * (rotationTo.transpose() * firstOrder))).norm();
          EXPECT_LE(pointError, travel.pointMargin - kContactSkin + 1e-12) << "trial " << trial;
          if (travel.pointMargin > kContactSkin)
            largestPointShare = std::max(largestPointShare, pointError / (travel.pointMargin - kContactSkin));
          ++checked;
        }
      }
    };
    checkSide(centreB, rotationB, freeB, turnB, radiusB, centreA, rotationA, freeA, turnA, radiusA,
              travel.translationOfSecond);
    checkSide(centreA, rotationA, freeA, turnA, radiusA, centreB, rotationB, freeB, turnB, radiusB,
              -travel.translationOfSecond);
  }
  EXPECT_GT(checked, 20000);
  // The bound is not vacuous: some paths use a good part of it.
  EXPECT_GT(largestPointShare, 0.2);
}

}  // namespace
}  // namespace contactlab::testing
