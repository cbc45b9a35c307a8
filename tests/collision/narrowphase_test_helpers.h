#pragma once
// Shared set-up for the narrowphase tests: poses, one-call collisions, and checks every manifold
// must pass (unit normals, the point limit, symmetry under swapping the shapes).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "collision/narrowphase.h"

namespace contactlab::testing {

inline Pose poseAt(const Vec3& position, const Quat& orientation = Quat::Identity()) {
  return Pose{position, orientation.toRotationMatrix()};
}

inline Quat rotationAbout(const Vec3& axis, double degrees) {
  return Quat(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, axis.normalized()));
}

// Turn a capsule's axis (body z) to lie along x or along y.
inline const Quat kAlongX = rotationAbout(Vec3::UnitY(), 90);
inline const Quat kAlongY = rotationAbout(Vec3::UnitX(), 90);

inline BoxShape boxOfHalfExtents(double x, double y, double z) { return BoxShape{Vec3(x, y, z)}; }

// Collides a with b, checks the manifold's invariants and that b with a gives the same points with
// flipped normals, and returns the a-b manifold.
inline ContactManifold collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                               double margin = 0.0) {
  ContactManifold forward, backward;
  collideShapes(a, poseA, b, poseB, margin, forward);
  collideShapes(b, poseB, a, poseA, margin, backward);
  EXPECT_LE(forward.size(), static_cast<size_t>(kMaxPointsPerPair));
  for (const ContactPoint& c : forward) {
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    EXPECT_LT(c.gap, margin);
  }
  EXPECT_EQ(forward.size(), backward.size());
  if (forward.size() == backward.size())
    for (size_t i = 0; i < forward.size(); ++i) {
      bool matched = false;
      for (const ContactPoint& c : backward)
        matched |= (c.point - forward[i].point).norm() < 1e-12 && (c.normal + forward[i].normal).norm() < 1e-12 &&
                   std::abs(c.gap - forward[i].gap) < 1e-12;
      EXPECT_TRUE(matched) << "contact " << i << " has no mirror in the swapped call";
    }
  return forward;
}

// Exactly one contact at each of `points`, each with this gap and normal.
inline void expectContacts(const ContactManifold& contacts, const std::vector<Vec3>& points, double gap,
                           const Vec3& normal) {
  ASSERT_EQ(contacts.size(), points.size());
  for (const ContactPoint& c : contacts) {
    EXPECT_NEAR(c.gap, gap, 1e-12);
    EXPECT_TRUE(c.normal.isApprox(normal, 1e-12)) << c.normal.transpose();
  }
  for (const Vec3& p : points) {
    bool found = false;
    for (const ContactPoint& c : contacts) found |= (c.point - p).norm() <= 1e-12;
    EXPECT_TRUE(found) << "no contact at " << p.transpose();
  }
}

}  // namespace contactlab::testing
