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
    EXPECT_EQ(remembering.restingPairs(), 0);  // every pair moves: the contacts are exact
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
// to each other by at most kRestingMotion and the margin has changed by no more: the same points
// (carried by the first body), within that motion of a fresh search's. Moved further, or with a
// margin grown by more, it searches again and matches a fresh search exactly; the next step at rest
// keeps what that search found. Both bodies are carried by a common turn and shift throughout, which
// moves neither relative to the other.
TEST(ContactGenerator, PairsAtRestKeepTheirContactsWithinTheRestingMotion) {
  const auto cross = test::crossMesh(8, 2, 0.05);
  const Vec3 offset(0.38, 0.05, 0.02);
  const Quat turnOfB(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
  std::vector<Body> bodies = {meshBody(cross, Vec3::Zero(), Quat::Identity()), meshBody(cross, offset, turnOfB)};
  ContactGenerator remembering;
  remembering.prepareMeshes(bodies, 18);
  const double dt = 0.01;
  const auto fresh = [&] {
    ContactGenerator afresh;
    afresh.prepareMeshes(bodies, 18);
    std::vector<BodyContact> contacts;
    afresh.generate(bodies, dt, Vec3::Zero(), contacts);
    return contacts;
  };
  std::vector<BodyContact> first;
  remembering.generate(bodies, dt, Vec3::Zero(), first);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(remembering.restingPairs(), 0);
  const Quat carryTurn(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  const Vec3 carryShift(0.3, -0.2, 0.1);
  struct Case {
    Vec3 nudge;       // of b, in the carried frame of a, from the first pose
    double speedOfB;  // m/s along x: widens the margin by dt times it
    bool resting;
    double within;    // of a fresh search: b's motion since the pair's last search, plus rounding
  };
  const double r = kRestingMotion;
  for (const Case& c : {Case{Vec3::Zero(), 0.0, true, 1e-12},                    // carried only
                        Case{Vec3(0.7, 0.0, -0.5) * r, 0.0, true, 0.87 * r},       // nudged within
                        Case{Vec3(0.7, 0.0, -0.5) * r, 0.2 * r / dt, true, 0.87 * r},  // margin 0.2 um wider
                        Case{Vec3(0.7, 0.0, -0.5) * r, 2.0 * r / dt, false, 0.0},  // 2 um wider
                        Case{Vec3(0.0, 2.0, 0.0) * r, 2.0 * r / dt, false, 0.0},   // moved 2.2 um
                        Case{Vec3(0.0, 2.0, 0.0) * r, 2.0 * r / dt, true, 1e-12}}) {  // at rest there
    SCOPED_TRACE(::testing::Message() << "nudge " << c.nudge.transpose() << ", speed " << c.speedOfB);
    bodies[0].position = carryShift;
    bodies[0].orientation = carryTurn;
    bodies[1].position = carryShift + carryTurn * (offset + c.nudge);
    bodies[1].orientation = carryTurn * turnOfB;
    bodies[1].velocity = Vec3(c.speedOfB, 0.0, 0.0);
    std::vector<BodyContact> contacts;
    remembering.generate(bodies, dt, Vec3::Zero(), contacts);
    EXPECT_EQ(remembering.restingPairs(), c.resting ? 1 : 0);
    const std::vector<BodyContact> expected = fresh();
    ASSERT_EQ(contacts.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(contacts[i].contact.feature, expected[i].contact.feature);
      EXPECT_LE((contacts[i].contact.point - expected[i].contact.point).norm(), c.within);
      EXPECT_LE(std::abs(contacts[i].contact.gap - expected[i].contact.gap), c.within);
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
