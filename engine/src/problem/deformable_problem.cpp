#include "problem/deformable_problem.h"

namespace contactlab {

Vec3 constraintRowsTimes(const DeformableProblem& problem, int k, const Eigen::VectorXd& v) {
  return constraintRowsTimes(problem, problem.constraints[k], v);
}

Vec3 constraintRowsTimes(const DeformableProblem& problem, const DeformableConstraint& c, const Eigen::VectorXd& v) {
  Vec3 sum = Vec3::Zero();  // the relative velocity of the constraint's point
  for (int i = 0; i < 4; ++i)
    if (c.node[i] >= 0) sum += c.weight[i] * v.segment<3>(3 * c.node[i]);
  for (const DeformableConstraint::RigidTerm& term : c.rigid)
    if (term.body >= 0)
      sum += term.weight * (v.segment<3>(3 * problem.linearNode(term.body)) +
                            Vec3(v.segment<3>(3 * problem.angularNode(term.body))).cross(term.arm));
  return problem.dt * (c.frame.transpose() * sum);
}

void addConstraintRowsTransposed(const DeformableProblem& problem, int k, const Vec3& s, Eigen::VectorXd& out) {
  const DeformableConstraint& c = problem.constraints[k];
  const Vec3 force = problem.dt * (c.frame * s);
  for (int i = 0; i < 4; ++i)
    if (c.node[i] >= 0) out.segment<3>(3 * c.node[i]) += c.weight[i] * force;
  for (const DeformableConstraint::RigidTerm& term : c.rigid) {
    if (term.body < 0) continue;
    out.segment<3>(3 * problem.linearNode(term.body)) += term.weight * force;
    out.segment<3>(3 * problem.angularNode(term.body)) += term.weight * term.arm.cross(force);  // torque
  }
}

}  // namespace contactlab
