#include "solvers/prox/r_factor.h"

#include "solvers/prox/prox_operators.h"

#include <Eigen/Cholesky>
#include <algorithm>

namespace contactlab {
namespace {

// A diagonal entry of A is positive whenever one of the contact's bodies is dynamic; the floor
// only guards against a degenerate inertia.
double safeReciprocal(double x) { return 1.0 / std::max(x, 1e-300); }

}  // namespace

void RFactors::initialize(RFactorStrategy strategy, const ContactProblem& problem) {
  initialize(
      strategy, problem.numContacts(), [&](int k) { return problem.blocks[k].diagonalA; },
      [&](int k) { return diagonalBlock(problem, k); });
}

void RFactors::initialize(RFactorStrategy strategy, const DelassusProblem& problem) {
  // Blocked takes the symmetric part of W_kk. A W read from a file need not be symmetric (Siconos'
  // Rover problems are not, by up to 2.5e-3 relative), and eq. 40's R_f = A_ff^-1 must be
  // symmetric positive definite with the projection taken in the metric R_f^-1 (see
  // projectFriction) for the fixed points to be solutions: with the unsymmetric block (of which the
  // LDL^T and the eigen solver read one triangle each) PROX-GS stalled at a natural-map residual of
  // 1e-5 on Rover1039 and Rover4396. Any SPD R_k has the same fixed points, so this changes only the step.
  initialize(
      strategy, problem.numContacts(), [&](int k) { return Vec4(problem.diagonalBlock(k).diagonal()); },
      [&](int k) {
        const Mat4& block = problem.diagonalBlock(k);
        return Mat4(0.5 * (block + block.transpose()));
      });
}

void RFactors::initialize(RFactorStrategy strategy, int contacts, const std::function<Vec4(int)>& diagonal,
                          const std::function<Mat4(int)>& diagonalBlock) {
  strategy_ = strategy;
  scale_ = 1.0;
  initialGlobalR_ = 0.0;
  stride_ = strategy == RFactorStrategy::Global ? 0 : 1;
  perContact_.resize(strategy == RFactorStrategy::Global ? 1 : contacts);
  frictionBlock_.clear();
  frictionBlockInverse_.clear();

  switch (strategy) {
    case RFactorStrategy::Global: {
      // The paper hard-wires r = 5 for its ~35 kg bodies; a constant in kg would make iteration
      // counts depend on the unit of mass. We take the reciprocal of the largest diagonal entry of
      // A, which keeps R A (and so convergence) unit-free and makes Gauss-Seidel an under-relaxed
      // PGS, convergent for any r below it. The paper's single r also mixes units: force rows
      // (n, t, s) take velocities and torsion rows angular velocities, so we keep one global value
      // for each kind of row.
      double largestForceRow = 0.0, largestTorsionRow = 0.0;
      for (int k = 0; k < contacts; ++k) {
        const Vec4 d = diagonal(k);
        largestForceRow = std::max(largestForceRow, d.head<3>().maxCoeff());
        largestTorsionRow = std::max(largestTorsionRow, d[kTorsion]);
      }
      const double rForce = safeReciprocal(largestForceRow);
      const double rTorsion = safeReciprocal(largestTorsionRow);
      perContact_[0].diagonal = Vec4(rForce, rForce, rForce, rTorsion);
      initialGlobalR_ = contacts > 0 ? rForce : 0.0;
      nu_ = 0.5;
      break;
    }
    case RFactorStrategy::Local:
      // eq. 39: r_i = 1 / A_ii, the PGS step.
      for (int k = 0; k < contacts; ++k)
        perContact_[k].diagonal = diagonal(k).unaryExpr([](double a) { return safeReciprocal(a); });
      nu_ = 0.9;
      break;
    case RFactorStrategy::Blocked:
      // eq. 40: R_k = diag(1 / A_nn, A_{t:tau,t:tau}^-1).
      frictionBlock_.resize(contacts);
      frictionBlockInverse_.resize(contacts);
      for (int k = 0; k < contacts; ++k) {
        const Mat4 block = diagonalBlock(k);
        perContact_[k].diagonal = Vec4(safeReciprocal(block(0, 0)), 0.0, 0.0, 0.0);
        frictionBlock_[k] = block.bottomRightCorner<3, 3>();
        frictionBlockInverse_[k] = frictionBlock_[k].ldlt().solve(Mat3::Identity());
      }
      nu_ = 0.5;
      break;
  }
  if (strategy != RFactorStrategy::Blocked)
    for (PerContact& entry : perContact_) entry.frictionMetricSqrt = entry.diagonal.tail<3>().cwiseInverse().cwiseSqrt();
}

Vec3 RFactors::projectFriction(int k, const Vec3& z, const Vec3& axes) const {
  if (strategy_ == RFactorStrategy::Blocked) return proxEllipsoidInMetric(z, axes, frictionBlock_[k]);
  return proxEllipsoidInDiagonalMetric(z, axes, perContact_[k * stride_].frictionMetricSqrt);
}

}  // namespace contactlab
