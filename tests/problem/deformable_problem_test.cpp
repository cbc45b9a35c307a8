// The deformable problem's constraint rows (deformable_problem.h) against the velocity of the
// contact point they stand for, and their transpose against the rows.
#include "problem/deformable_problem.h"

#include <gtest/gtest.h>

#include <random>

namespace contactlab {
namespace {

// Two FEM nodes, then two rigid bodies (nodes 2-3 and 4-5).
DeformableProblem twoNodesTwoRigidBodies() {
  DeformableProblem problem;
  problem.dt = 0.01;
  problem.A.assign(6, {});
  problem.firstRigidNode = 2;
  return problem;
}

DeformableConstraint rigidOnFace() {
  DeformableConstraint c;
  c.frame = Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  c.node = {0, 1, -1, -1};
  c.weight = {-0.3, -0.7, 0.0, 0.0};
  c.rigid[0] = {1, 1.0, Vec3(0.1, -0.2, 0.05)};
  c.rigid[1] = {0, -1.0, Vec3(-0.3, 0.0, 0.2)};
  return c;
}

TEST(DeformableProblem, RigidTermsAddTheContactPointsVelocity) {
  DeformableProblem problem = twoNodesTwoRigidBodies();
  const DeformableConstraint c = rigidOnFace();
  problem.constraints = {c};
  Eigen::VectorXd v = Eigen::VectorXd::Random(18);
  const auto node = [&](int i) { return Vec3(v.segment<3>(3 * i)); };
  // The point's velocity on each side: u + w x r on a rigid body, the weighted nodes on the face.
  const Vec3 pointB = node(4) + node(5).cross(c.rigid[0].arm);
  const Vec3 pointA = node(2) + node(3).cross(c.rigid[1].arm);
  const Vec3 relative = pointB - pointA - 0.3 * node(0) - 0.7 * node(1);
  const Vec3 expected = problem.dt * c.frame.transpose() * relative;
  EXPECT_LT((constraintRowsTimes(problem, 0, v) - expected).norm(), 1e-14);
}

TEST(DeformableProblem, TransposedRowsAreTheRowsTransposeIncludingTorques) {
  DeformableProblem problem = twoNodesTwoRigidBodies();
  problem.constraints = {rigidOnFace()};
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    Eigen::VectorXd v(18);
    for (int i = 0; i < 18; ++i) v[i] = uniform(random);
    const Vec3 s(uniform(random), uniform(random), uniform(random));
    Eigen::VectorXd forces = Eigen::VectorXd::Zero(18);
    addConstraintRowsTransposed(problem, 0, s, forces);
    EXPECT_NEAR(s.dot(constraintRowsTimes(problem, 0, v)), forces.dot(v), 1e-14);
  }
}

TEST(DeformableProblem, ARetiredConstraintHasNoNodeAndNoRigidBody) {
  DeformableConstraint c = rigidOnFace();
  EXPECT_FALSE(isRetired(c));
  c.node = {-1, -1, -1, -1};
  EXPECT_FALSE(isRetired(c));  // two rigid bodies still
  retire(c);
  EXPECT_TRUE(isRetired(c));
}

}  // namespace
}  // namespace contactlab
