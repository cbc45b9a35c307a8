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
  for (int k = 0; k < p.problem.numContacts(); ++k) {
    const ContactBlock& block = p.problem.blocks[k];
    const Mat4 a = diagonalBlock(p.problem, k);
    EXPECT_LT((a - a.transpose()).norm(), 1e-12 * a.norm());
    EXPECT_GT(a.llt().info() == Eigen::Success ? 1 : 0, 0) << "diagonal block must be positive definite";
    EXPECT_LT((a.diagonal() - block.diagonalA).norm(), 1e-14 * a.norm());
  }
}

// The compact block (frame and arms, M^-1 per slot) applies the same J and W = M^-1 J^T as the
// dense eq. 56 blocks: J w with w the bodies' velocities is relativeContactVelocity, and
// J_k W_k dlambda is A_kk dlambda.
TEST(ContactAssembly, CompactBlockAppliesJAndWOfEq56) {
  const auto p = test::makeColumnProblem(4, 9);
  Eigen::VectorXd velocities(6 * p.problem.numSlots);
  for (int slot = 0; slot < p.problem.numSlots; ++slot) {
    const Body& body = p.bodies[p.bodyOfSlot[slot]];
    velocities.segment<6>(6 * slot) << body.velocity, body.angularVelocity;
  }
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < p.problem.numContacts(); ++k) {
    const BodyContact& c = p.contacts[k];
    const ContactBlock& block = p.problem.blocks[k];
    const Vec4 expected = relativeContactVelocity(p.bodies[c.bodyA], p.bodies[c.bodyB], c.contact.point, block.frame);
    EXPECT_LT((jacobianTimes(block, velocities) - expected).norm(), 1e-12 * (1.0 + expected.norm())) << k;

    const Vec4 deltaLambda(u(rng), u(rng), u(rng), u(rng));
    Eigen::VectorXd w = Eigen::VectorXd::Zero(6 * p.problem.numSlots);
    addInvMassJt(p.problem, k, deltaLambda, w);
    const Vec4 viaW = jacobianTimes(block, w), viaA = diagonalBlock(p.problem, k) * deltaLambda;
    EXPECT_LT((viaW - viaA).norm(), 1e-12 * (1.0 + viaA.norm())) << k;
  }
}

}  // namespace
}  // namespace contactlab
