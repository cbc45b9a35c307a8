#include "deformable/elasticity.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace contactlab {
namespace {

// An isotropic energy density as a function of the signed principal stretches s (psi(F) =
// psi(F^), F^ = diag(s)), with what its stiffness needs (Teran et al. 2005, sec. 5):
//  - stress:  P_k = d psi / d s_k, the diagonal of P(F^) in eq. 1;
//  - hessian: d^2 psi / d s_k d s_l, the block of dP/dF acting on the diagonal of F^;
//  - for each pair {i, j} (indexed by the third index m), the two eigenvalues of the 2x2 block of
//    dP/dF acting on (F^_ij, F^_ji):
//      symmetric     (P_i - P_j) / (s_i - s_j)   on (1, 1) / sqrt 2,
//      antisymmetric (P_i + P_j) / (s_i + s_j)   on (1, -1) / sqrt 2 (an infinitesimal rotation).
//    Each model writes them in a closed form that has no s_i - s_j in a denominator, so repeated
//    singular values (any undeformed element) need no special case.
struct PrincipalResponse {
  double energyDensity = 0.0;
  Vec3 stress = Vec3::Zero();
  Mat3 hessian = Mat3::Zero();
  Vec3 symmetricPair = Vec3::Zero();
  Vec3 antisymmetricPair = Vec3::Zero();
};

// The pair {i, j} opposite index m.
int elasticityPairFirst(int m) { return (m + 1) % 3; }
int elasticityPairSecond(int m) { return (m + 2) % 3; }

// Co-rotational (Mueller & Gross 2004): psi = mu sum (s_k - 1)^2 + lambda/2 (sum s_k - 3)^2, i.e.
// P = 2 mu (F - R) + lambda tr(R^T F - I) R with R = U V^T.
PrincipalResponse corotationalResponse(const LameParameters& lame, const Vec3& s) {
  PrincipalResponse r;
  const double trace = s.sum() - 3.0;
  r.energyDensity = lame.mu * (s - Vec3::Ones()).squaredNorm() + 0.5 * lame.lambda * trace * trace;
  r.stress = 2.0 * lame.mu * (s - Vec3::Ones()) + Vec3::Constant(lame.lambda * trace);
  r.hessian = 2.0 * lame.mu * Mat3::Identity() + lame.lambda * Mat3::Ones();
  for (int m = 0; m < 3; ++m) {
    const int i = elasticityPairFirst(m), j = elasticityPairSecond(m);
    // (P_i - P_j) / (s_i - s_j) = 2 mu exactly.
    r.symmetricPair[m] = 2.0 * lame.mu;
    // (P_i + P_j) / (s_i + s_j): the derivative of R = U V^T, singular where s_i + s_j = 0. With
    // Irving's convention only the smallest stretch can be negative and |s_min| <= the others, so
    // s_i + s_j >= 0; it is taken as at least 1e-6, which keeps the value finite (and negative
    // values are clamped to 0 by the caller anyway).
    r.antisymmetricPair[m] = (r.stress[i] + r.stress[j]) / std::max(s[i] + s[j], 1e-6);
  }
  return r;
}

// Compressible neo-Hookean in principal stretches, split into an isochoric-like part and a
// volumetric part h(J), J = s_0 s_1 s_2 (signed):
//   psi(s) = mu/2 (s_0^2 + s_1^2 + s_2^2 - 3) + h(J),
//   h(J)   = -mu log J + lambda/2 (log J)^2                 for J >= J0,
//   h(J)   = h(J0) + h'(J0) (J - J0)                         for J <  J0,
// with J0 = neoHookeanExtrapolationRatio. Below J0 the volumetric energy is continued by its
// tangent line (in the spirit of Stomakhin et al. 2012): psi stays C^1 and is defined for flat
// (J = 0) and inverted (J < 0) elements, where the constant slope h'(J0) < 0 keeps pushing the
// volume back up with a bounded force. With g = h'(J) and c_k = J / s_k (the product of the two
// other stretches, so no division by s_k):
//   P_k = mu s_k + g c_k,
//   d^2 psi / ds_k ds_l = mu delta_kl + g'(J) c_k c_l + g s_m (k != l, m the third index),
//   symmetric pair     = mu - g s_m,   antisymmetric pair = mu + g s_m.
// Below J0, g = h'(J0) and g' = 0.
PrincipalResponse neoHookeanResponse(const LameParameters& lame, double extrapolationRatio, const Vec3& s) {
  const double mu = lame.mu, lambda = lame.lambda;
  const double J = s.prod();
  const auto volumetric = [&](double j) { return -mu * std::log(j) + 0.5 * lambda * std::log(j) * std::log(j); };
  const auto slope = [&](double j) { return (lambda * std::log(j) - mu) / j; };
  double h, g, gPrime;
  if (J >= extrapolationRatio) {
    h = volumetric(J);
    g = slope(J);
    gPrime = (lambda + mu - lambda * std::log(J)) / (J * J);
  } else {
    const double J0 = extrapolationRatio;
    g = slope(J0);
    h = volumetric(J0) + g * (J - J0);
    gPrime = 0.0;
  }
  const Vec3 c(s[1] * s[2], s[0] * s[2], s[0] * s[1]);
  PrincipalResponse r;
  r.energyDensity = 0.5 * mu * (s.squaredNorm() - 3.0) + h;
  r.stress = mu * s + g * c;
  r.hessian = mu * Mat3::Identity() + gPrime * c * c.transpose();
  for (int m = 0; m < 3; ++m) {
    const int i = elasticityPairFirst(m), j = elasticityPairSecond(m);
    r.hessian(i, j) += g * s[m];
    r.hessian(j, i) += g * s[m];
    r.symmetricPair[m] = mu - g * s[m];
    r.antisymmetricPair[m] = mu + g * s[m];
  }
  return r;
}

// The columns g_0 .. g_3 of dF/dx: F = sum_n x_n g_n^T, g_k = row k-1 of Dm^-1 (k = 1..3) and
// g_0 = -(g_1 + g_2 + g_3). V g_n is the area-weighted normal b_n of eq. 2 (Irving et al. 2004).
Eigen::Matrix<double, 3, 4> elasticityShapeGradients(const Mat3& restShapeInverse) {
  Eigen::Matrix<double, 3, 4> g;
  g.rightCols<3>() = restShapeInverse.transpose();
  g.col(0) = -g.rightCols<3>().rowwise().sum();
  return g;
}

}  // namespace

LameParameters lameParameters(const Material& material) {
  const double E = material.youngsModulus, nu = material.poissonRatio;
  return {E / (2.0 * (1.0 + nu)), E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))};
}

void validateMaterial(const Material& material) {
  if (!(material.youngsModulus > 0.0) || !std::isfinite(material.youngsModulus))
    throw std::invalid_argument("Material: Young's modulus must be positive, got " +
                                std::to_string(material.youngsModulus));
  if (!(material.poissonRatio > -1.0 && material.poissonRatio < 0.5))
    throw std::invalid_argument("Material: Poisson's ratio must lie in (-1, 0.5), got " +
                                std::to_string(material.poissonRatio));
  if (!(material.neoHookeanExtrapolationRatio > 0.0 && material.neoHookeanExtrapolationRatio <= 1.0))
    throw std::invalid_argument("Material: the neo-Hookean extrapolation ratio must lie in (0, 1], got " +
                                std::to_string(material.neoHookeanExtrapolationRatio));
}

TetRest makeTetRest(const std::array<Vec3, 4>& x) {
  Mat3 Dm;
  Dm << x[1] - x[0], x[2] - x[0], x[3] - x[0];
  double longestEdge = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) longestEdge = std::max(longestEdge, (x[a] - x[b]).norm());
  const double det = Dm.determinant();
  if (!std::isfinite(det) || !(det > 1e-12 * longestEdge * longestEdge * longestEdge))
    throw std::invalid_argument("makeTetRest: the rest tetrahedron is degenerate or negatively oriented (det Dm = " +
                                std::to_string(det) + ")");
  return {Dm.inverse(), det / 6.0};
}

Mat3 deformationGradient(const TetRest& rest, const std::array<Vec3, 4>& x) {
  Mat3 Ds;
  Ds << x[1] - x[0], x[2] - x[0], x[3] - x[0];
  return Ds * rest.restShapeInverse;
}

ElementResponse evaluateElement(const Material& material, const TetRest& rest, const std::array<Vec3, 4>& x,
                                bool wantStiffness) {
  ElementResponse out;
  const Mat3 F = deformationGradient(rest, x);
  out.deformationGradient = F;

  // F = U F^ V^T with U, V proper rotations: the SVD's smallest singular value takes the sign of
  // det F (Irving et al. 2004), so an inverted element is a reflection along its weakest direction.
  const Eigen::JacobiSVD<Mat3> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU(), V = svd.matrixV();
  Vec3 s = svd.singularValues();
  if (U.determinant() < 0.0) {
    U.col(2) *= -1.0;
    s[2] *= -1.0;
  }
  if (V.determinant() < 0.0) {
    V.col(2) *= -1.0;
    s[2] *= -1.0;
  }
  out.principalStretches = s;

  const LameParameters lame = lameParameters(material);
  const PrincipalResponse r = material.model == MaterialModel::Corotational
                                  ? corotationalResponse(lame, s)
                                  : neoHookeanResponse(lame, material.neoHookeanExtrapolationRatio, s);
  out.principalStress = r.stress;
  out.energy = rest.volume * r.energyDensity;
  // Eq. 1: P(F) = U P(F^) V^T.
  out.firstPiola = U * r.stress.asDiagonal() * V.transpose();

  // Eq. 2: f_n = -P b_n = -V P g_n; their sum is zero (g_0 = -(g_1 + g_2 + g_3)).
  const Eigen::Matrix<double, 3, 4> g = elasticityShapeGradients(rest.restShapeInverse);
  const Eigen::Matrix<double, 3, 4> forces = -rest.volume * out.firstPiola * g;
  for (int n = 0; n < 4; ++n) out.force.segment<3>(3 * n) = forces.col(n);
  if (!wantStiffness) return out;

  // dP/dF in the diagonal space (entries of F^ ordered 3p + q): one 3x3 block on the diagonal
  // entries and a 2x2 block on each pair (F^_ij, F^_ji) (Teran et al. 2005, eq. 8; Sin et al.
  // 2011). Negative eigenvalues are raised to 0 block by block, so K is positive semi-definite and
  // A = M + dt C + dt^2 K of eq. 4 stays positive definite.
  const double negligible = 1e-9 * (lame.mu + std::abs(lame.lambda));
  Eigen::Matrix<double, 9, 9> dPdF = Eigen::Matrix<double, 9, 9>::Zero();
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(r.hessian);
  Vec3 eigenvalues = eigen.eigenvalues();
  for (int k = 0; k < 3; ++k) {
    if (eigenvalues[k] < -negligible) ++out.clampedModes;
    eigenvalues[k] = std::max(eigenvalues[k], 0.0);
  }
  const Mat3 diagonalBlock = eigen.eigenvectors() * eigenvalues.asDiagonal() * eigen.eigenvectors().transpose();
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) dPdF(4 * k, 4 * l) = diagonalBlock(k, l);
  for (int m = 0; m < 3; ++m) {
    double symmetric = r.symmetricPair[m], antisymmetric = r.antisymmetricPair[m];
    if (symmetric < -negligible) ++out.clampedModes;
    if (antisymmetric < -negligible) ++out.clampedModes;
    symmetric = std::max(symmetric, 0.0);
    antisymmetric = std::max(antisymmetric, 0.0);
    const int i = elasticityPairFirst(m), j = elasticityPairSecond(m);
    const int ij = 3 * i + j, ji = 3 * j + i;
    dPdF(ij, ij) = dPdF(ji, ji) = 0.5 * (symmetric + antisymmetric);
    dPdF(ij, ji) = dPdF(ji, ij) = 0.5 * (symmetric - antisymmetric);
  }

  // dF^/dx: F^ = U^T F V = sum_n (U^T x_n) (V^T g_n)^T, so dF^_pq / dx_{n,a} = U_ap (V^T g_n)_q.
  const Eigen::Matrix<double, 3, 4> gRotated = V.transpose() * g;
  Eigen::Matrix<double, 9, 12> dFdx;
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q)
      for (int n = 0; n < 4; ++n)
        for (int a = 0; a < 3; ++a) dFdx(3 * p + q, 3 * n + a) = U(a, p) * gRotated(q, n);
  // K = V (dF/dx)^T dP/dF (dF/dx), symmetrized against rounding.
  const Mat12 K = rest.volume * dFdx.transpose() * (dPdF * dFdx);
  out.stiffness = 0.5 * (K + K.transpose());
  return out;
}

double vonMisesStress(const ElementResponse& response) {
  const Vec3& s = response.principalStretches;
  const double J = std::max(s.prod(), 0.01);
  const Vec3 cauchy = response.principalStress.cwiseProduct(s) / J;
  const double d01 = cauchy[0] - cauchy[1], d12 = cauchy[1] - cauchy[2], d20 = cauchy[2] - cauchy[0];
  return std::sqrt(0.5 * (d01 * d01 + d12 * d12 + d20 * d20));
}

}  // namespace contactlab
