#include "dynamics/contact_assembly.h"

#include <gtest/gtest.h>

#include <random>

#include "dynamics/body_setup.h"
#include "dynamics/free_rotation.h"
#include "support/contact_problems.h"

namespace contactlab {
namespace {

Body randomBody(std::mt19937& rng, int index) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  BodyDesc d;
  d.shape = BoxShape{Vec3(0.4, 0.3, 0.2)};
  d.position = Vec3(u(rng), u(rng), u(rng));
  d.orientation = Quat(Eigen::AngleAxisd(3.0 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
  d.velocity = Vec3(u(rng), u(rng), u(rng));
  d.angularVelocity = 3.0 * Vec3(u(rng), u(rng), u(rng));
  return makeBody(d, {}, index);
}

// Where a material point of the body, now at `point`, is after the body moved for time h.
Vec3 movedMaterialPoint(const Body& body, const Vec3& point, double h) {
  const Quat moved = rotateByAngularVelocity(body.orientation, body.angularVelocity, h);
  const Vec3 local = body.orientation.conjugate() * (point - body.position);
  return body.position + h * body.velocity + moved * local;
}

TEST(ContactAssembly, JacobianMatchesFiniteDifferencesOfContactPointVelocities) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Body a = randomBody(rng, 0), b = randomBody(rng, 1);
    const Vec3 point(u(rng), u(rng), u(rng));
    const Mat3 frame = contactFrame(Vec3(u(rng), u(rng), u(rng)).normalized());
    const Vec4 analytic = relativeContactVelocity(a, b, point, frame);

    // Central differences of the two material points at the contact, and of the relative rotation.
    const double h = 1e-6;
    const Vec3 relative = ((movedMaterialPoint(b, point, h) - movedMaterialPoint(a, point, h)) -
                           (movedMaterialPoint(b, point, -h) - movedMaterialPoint(a, point, -h))) / (2 * h);
    auto spinAboutNormal = [&](const Body& body) {
      const Quat forward = rotateByAngularVelocity(body.orientation, body.angularVelocity, h);
      const Quat backward = rotateByAngularVelocity(body.orientation, body.angularVelocity, -h);
      const Eigen::AngleAxisd turn(forward * backward.conjugate());
      return frame.col(0).dot(turn.axis() * turn.angle()) / (2 * h);
    };
    const Vec4 numeric(frame.col(0).dot(relative), frame.col(1).dot(relative), frame.col(2).dot(relative),
                       spinAboutNormal(b) - spinAboutNormal(a));
    EXPECT_LT((analytic - numeric).norm(), 1e-6 * (1.0 + analytic.norm())) << "trial " << trial;
  }
}

TEST(ContactAssembly, FrameIsOrthonormalAndRightHanded) {
  for (const Vec3& n : {Vec3(0, 0, 1), Vec3(1, 0, 0), Vec3(0, -1, 0), Vec3(1, 2, 3).normalized()}) {
    const Mat3 frame = contactFrame(n);
    EXPECT_LT((frame.transpose() * frame - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(frame.determinant(), 1.0, 1e-14);
    EXPECT_EQ(frame.col(0), n);
  }
}

TEST(ContactAssembly, DiagonalOfAMatchesTheExplicitProduct) {
  const auto p = test::makeColumnProblem(3, 2);
  for (const ContactBlock& block : p.problem.blocks) {
    const Mat4 a = diagonalBlock(block);
    EXPECT_LT((a - a.transpose()).norm(), 1e-12 * a.norm());
    EXPECT_GT(a.llt().info() == Eigen::Success ? 1 : 0, 0) << "diagonal block must be positive definite";
    EXPECT_LT((a.diagonal() - block.diagonalA).norm(), 1e-14 * a.norm());
  }
}

}  // namespace
}  // namespace contactlab
