#pragma once
// Per-tetrahedron hyper-elasticity for the deformable bodies (Verschoor & Jalba 2019, sec. 2.1):
// the deformation gradient F of a linear tetrahedron, the first Piola-Kirchhoff stress P(F) through
// the SVD of F (eq. 1), the nodal forces f_i = -P b_i (eq. 2) and the stiffness K = -df/dx from the
// derivatives of the SVD (Teran et al. 2005, Sin et al. 2011), made positive semi-definite.
//
// Every function here gives finite results for any finite node positions, including inverted,
// flat and collapsed tetrahedra (the invertible-FEM convention of Irving et al. 2004).
#include <array>

#include "contactlab/math.h"

namespace contactlab {

using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

enum class MaterialModel {
  // Mueller & Gross 2004: psi = mu |F - R|^2 + lambda/2 tr(R^T F - I)^2, R the rotation of F.
  Corotational,
  // Compressible neo-Hookean, psi = mu/2 (tr F^T F - 3) - mu log J + lambda/2 (log J)^2, with its
  // volumetric part extended by its tangent below J = neoHookeanExtrapolationRatio (elasticity.cpp).
  NeoHookean,
};

struct Material {
  MaterialModel model = MaterialModel::Corotational;
  double youngsModulus = 5e5;  // Pa
  double poissonRatio = 0.2;
  // The volume ratio J below which the neo-Hookean energy is extended linearly (Stomakhin et al.
  // 2012; the paper uses 70 %), so that an inverted or collapsed element has finite forces.
  double neoHookeanExtrapolationRatio = 0.7;
};

struct LameParameters {
  double mu = 0.0;      // shear modulus E / (2 (1 + nu))
  double lambda = 0.0;  // E nu / ((1 + nu) (1 - 2 nu))
};
LameParameters lameParameters(const Material& material);

// Throws std::invalid_argument unless E > 0, -1 < nu < 0.5 and 0 < extrapolation ratio <= 1.
void validateMaterial(const Material& material);

// The cold data of one tetrahedron: Dm^-1 with Dm = [X1 - X0, X2 - X0, X3 - X0] of the rest
// positions, and the rest volume det(Dm) / 6.
struct TetRest {
  Mat3 restShapeInverse = Mat3::Identity();
  double volume = 0.0;
};

// Throws std::invalid_argument when the rest tetrahedron is not positively oriented, is degenerate
// (volume below 1e-12 of its longest edge cubed) or has non-finite coordinates.
TetRest makeTetRest(const std::array<Vec3, 4>& restPositions);

// F = Ds Dm^-1 with Ds = [x1 - x0, x2 - x0, x3 - x0].
Mat3 deformationGradient(const TetRest& rest, const std::array<Vec3, 4>& positions);

struct ElementResponse {
  Vec12 force = Vec12::Zero();  // 3 per node, f_0 .. f_3: f_i = -V P g_i (eq. 2), g_i = Dm^-T rows
  double energy = 0.0;          // V psi(F)
  Mat3 deformationGradient = Mat3::Identity();
  Mat3 firstPiola = Mat3::Zero();  // P = U P(F^) V^T (eq. 1)
  // F = U diag(stretches) V^T with U, V rotations; stretches descending except that the last one
  // is negative for an inverted element (det F < 0).
  Vec3 principalStretches = Vec3::Ones();
  Vec3 principalStress = Vec3::Zero();  // the diagonal of P(F^)
  // K = -df/dx, symmetric positive semi-definite; left zero unless asked for. Same node order as
  // `force`.
  Mat12 stiffness = Mat12::Zero();
  // How many eigenvalues of dP/dF (in the diagonal space of the SVD) were negative and raised to 0.
  int clampedModes = 0;
};

ElementResponse evaluateElement(const Material& material, const TetRest& rest,
                                const std::array<Vec3, 4>& positions, bool wantStiffness);

// The von Mises equivalent of the Cauchy stress sigma = P F^T / J, from the principal values
// sigma_k = P_k s_k / J. J is taken as at least 0.01 so an inverted or flat element reports a finite
// (large) value instead of dividing by zero.
double vonMisesStress(const ElementResponse& response);

}  // namespace contactlab
