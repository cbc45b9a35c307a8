#include "solvers/cr/cr_preconditioner.h"

namespace contactlab {

Eigen::VectorXd rowCompliance(const DeformableProblem& problem, const Eigen::VectorXd& inverseDiagonalA) {
  // l_r A_d^-1 l_r^T with l_r = dt sum_i w_i e_r^T on node i, e_r the row's direction.
  Eigen::VectorXd compliance = Eigen::VectorXd::Zero(3 * problem.numConstraints());
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const DeformableConstraint& c = problem.constraints[k];
    for (int r = 0; r < 3; ++r) {
      const Vec3 e2 = c.frame.col(r).cwiseAbs2();
      double s = 0.0;
      for (int i = 0; i < 4; ++i)
        if (c.node[i] >= 0) s += c.weight[i] * c.weight[i] * e2.dot(inverseDiagonalA.segment<3>(3 * c.node[i]));
      compliance[3 * k + r] = problem.dt * problem.dt * s;
    }
  }
  return compliance;
}

void CrPreconditionerOperator::setup(const DeformableProblem& problem, const Eigen::VectorXd& inverseDiagonalA,
                                     const Eigen::VectorXd& compliance, const std::vector<std::uint8_t>& rowActive,
                                     CrPreconditioner kind) {
  kind_ = kind;
  inverseDiagonalA_ = inverseDiagonalA;
  // S_d = diag(Z L A_d^-1 L^T) over the active rows; Z scales near-duplicates (sec. 3.4.1).
  inverseS_.setZero(compliance.size());
  for (int row = 0; row < compliance.size(); ++row) {
    const double s = problem.constraints[row / 3].similarity * compliance[row];
    if (rowActive[row] && s > 0.0) inverseS_[row] = 1.0 / s;
  }
}

void CrPreconditionerOperator::apply(const DeformableProblem& problem, const Eigen::VectorXd& r,
                                     Eigen::VectorXd& z) const {
  const int n3 = 3 * problem.numNodes(), m = problem.numConstraints();
  z.resize(r.size());
  if (kind_ == CrPreconditioner::Diag) {
    z.head(n3) = inverseDiagonalA_.cwiseProduct(r.head(n3));
    z.tail(3 * m) = inverseS_.cwiseProduct(r.tail(3 * m));
    return;
  }
  // Full: u = A_d^-1 r_v, s = S_d^-1 (L u + r_l), z_l = -s, z_v = u - A_d^-1 L^T s.
  const Eigen::VectorXd u = inverseDiagonalA_.cwiseProduct(r.head(n3));
  scratch_.setZero(n3);
  for (int k = 0; k < m; ++k) {
    const Vec3 inverseS = inverseS_.segment<3>(3 * k);
    if (inverseS.isZero()) {
      z.segment<3>(n3 + 3 * k).setZero();
      continue;
    }
    const Vec3 s = inverseS.cwiseProduct(constraintRowsTimes(problem, k, u) + Vec3(r.segment<3>(n3 + 3 * k)));
    z.segment<3>(n3 + 3 * k) = -s;
    addConstraintRowsTransposed(problem, k, s, scratch_);
  }
  z.head(n3) = u - inverseDiagonalA_.cwiseProduct(scratch_);
}

}  // namespace contactlab
