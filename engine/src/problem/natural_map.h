#pragma once
// The common merit: the natural-map residual of the Coulomb(-Contensou) problem with De Saxce's
// modified velocity, computed the same way whatever solver produced lambda
// (../shared/fc3d/README.md). Per contact c, with r = lambda_c and u = v_c (rows n, t, s, tau):
//
//   e_c = || r - proj_K( r - (u + phi(u_f) e_n) ) ||,   residual = sqrt(sum_c e_c^2) / (1 + ||q||)
//
// K is the friction cone of the contact and phi the support function of its friction set at unit
// normal impulse. For the Coulomb-Contensou ellipsoid of eq. 16 with semi-axes mu = (mu_s, mu_t,
// mu_tau) per unit lambda_n:
//   K   = { (x_n, x_f) : ||diag(mu)^-1 x_f|| <= x_n }   (a zero mu_i pins x_i to 0),
//   phi(u_f) = max over ||diag(mu)^-1 x_f|| <= 1 of -x_f . u_f = ||diag(mu) u_f||.
// With mu_tau = 0 and mu_s = mu_t = mu this is the README's formula term for term: phi = mu ||u_t||,
// K the circular cone, and the torsion row adds r_tau^2 (zero for every solver, whose friction set
// then pins lambda_tau to 0). q is b for a body-space problem.
#include "contactlab/math.h"

namespace contactlab {

struct ContactProblem;
struct DelassusProblem;

// Euclidean projection of z = (z_n, z_f) onto K for semi-axes mu (derivation in natural_map.cpp).
Vec4 projectOntoFrictionCone(const Vec4& z, const Vec3& mu);

// e_c of one contact, and its square (what the residual sums).
double naturalMapSquaredError(const Vec4& r, const Vec4& u, const Vec3& mu);
double naturalMapError(const Vec4& r, const Vec4& u, const Vec3& mu);

// sqrt(sum_c e_c^2) / (1 + ||q||) for v = W lambda + q.
double naturalMapResidual(const DelassusProblem& problem, const Eigen::VectorXd& lambda);
// The same for a body-space problem, v = J M^-1 J^T lambda + b.
double naturalMapResidual(const ContactProblem& problem, const Eigen::VectorXd& lambda);

}  // namespace contactlab
