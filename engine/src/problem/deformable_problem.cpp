#include "problem/deformable_problem.h"

namespace contactlab {

Vec3 constraintRowsTimes(const DeformableProblem& problem, int k, const Eigen::VectorXd& v) {
  const DeformableConstraint& c = problem.constraints[k];
  Vec3 sum = Vec3::Zero();
  for (int i = 0; i < 4; ++i)
    if (c.node[i] >= 0) sum += c.weight[i] * v.segment<3>(3 * c.node[i]);
  return problem.dt * (c.frame.transpose() * sum);
}

void addConstraintRowsTransposed(const DeformableProblem& problem, int k, const Vec3& s, Eigen::VectorXd& out) {
  const DeformableConstraint& c = problem.constraints[k];
  const Vec3 force = problem.dt * (c.frame * s);
  for (int i = 0; i < 4; ++i)
    if (c.node[i] >= 0) out.segment<3>(3 * c.node[i]) += c.weight[i] * force;
}

}  // namespace contactlab
