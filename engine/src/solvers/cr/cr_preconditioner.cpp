#include "solvers/cr/cr_preconditioner.h"

namespace contactlab {

Eigen::VectorXd rowCompliance(const DeformableProblem& problem, const Eigen::VectorXd& inverseDiagonalA) {
  // l_r A_d^-1 l_r^T with l_r = dt (row r of the constraint's block) on each node it involves.
  Eigen::VectorXd compliance = Eigen::VectorXd::Zero(3 * problem.numConstraints());
  for (int k = 0; k < problem.numConstraints(); ++k) {
    Vec3 s = Vec3::Zero();
    forEachConstraintBlock(problem, problem.constraints[k], [&](int node, const Mat3& block) {
      s += block.cwiseAbs2() * inverseDiagonalA.segment<3>(3 * node);
    });
    compliance.segment<3>(3 * k) = problem.dt * problem.dt * s;
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
