#include "deformable/conjugate_gradient.h"

#include <Eigen/LU>
#include <cmath>
#include <vector>

namespace contactlab {

ConjugateGradientReport solveConjugateGradient(const BlockSparseMatrix3& A, const Eigen::VectorXd& b,
                                               Eigen::VectorXd& x, const ConjugateGradientSettings& settings,
                                               ThreadPool* pool) {
  const int n = A.rows();
  ConjugateGradientReport report;
  if (x.size() != n) x = Eigen::VectorXd::Zero(n);
  const double bNorm = b.norm();
  if (bNorm == 0.0) {
    x.setZero();
    report.converged = true;
    return report;
  }
  const int maxIterations = settings.maxIterations > 0 ? settings.maxIterations : 3 * n + 10;
  const double target = settings.tolerance * bNorm;

  // Block-Jacobi preconditioner z = D^-1 r, D the 3x3 diagonal blocks (positive definite as A is).
  std::vector<Mat3> inverseDiagonal(A.blockRows());
  for (int i = 0; i < A.blockRows(); ++i) inverseDiagonal[i] = A.diagonalBlock(i).inverse();
  const auto precondition = [&](const Eigen::VectorXd& r, Eigen::VectorXd& z) {
    z.resize(n);
    for (int i = 0; i < A.blockRows(); ++i) z.segment<3>(3 * i) = inverseDiagonal[i] * r.segment<3>(3 * i);
  };

  Eigen::VectorXd r, z, p, Ap;
  A.multiply(x, Ap, pool);
  r = b - Ap;
  double rNorm = r.norm();
  precondition(r, z);
  p = z;
  double rz = r.dot(z);
  while (rNorm > target && report.iterations < maxIterations) {
    A.multiply(p, Ap, pool);
    const double pAp = p.dot(Ap);
    if (!(pAp > 0.0)) break;  // A not positive definite along p (or p = 0): stop rather than divide
    const double alpha = rz / pAp;
    x += alpha * p;
    r -= alpha * Ap;
    rNorm = r.norm();
    ++report.iterations;
    precondition(r, z);
    const double rzNext = r.dot(z);
    p = z + (rzNext / rz) * p;
    rz = rzNext;
  }
  report.relativeResidual = rNorm / bNorm;
  report.converged = rNorm <= target;
  return report;
}

}  // namespace contactlab
