#pragma once
// Proximal operators of the PROX paper: the normal cone N (eq. 15a, 21a) and the
// Coulomb-Contensou friction ellipsoid F (eq. 15b-16, 21b) with its closest-point search (sec. 4.1).
#include <algorithm>

#include "contactlab/math.h"

namespace contactlab {

// prox_N(z) = max(0, z), eq. 21a.
inline double proxNormalCone(double z) { return std::max(0.0, z); }

// Closest point to z in the solid ellipsoid {x : (x1/a)^2 + (x2/b)^2 + (x3/c)^2 <= 1}, eq. 21b.
// Semi-axes are >= 0; a zero semi-axis flattens the ellipsoid onto that coordinate's zero plane
// (c = 0 is the friction disk without torsion, a = b = c = 0 the origin).
Vec3 proxEllipsoid(const Vec3& z, const Vec3& semiAxes);

// The friction set of contact k for a given normal impulse: semi-axes mu * lambda_n (eq. 16).
inline Vec3 frictionSemiAxes(const Vec3& frictionCoefficients, double lambdaN) {
  return frictionCoefficients * std::max(0.0, lambdaN);
}

// One contact's proximal update (eqs. 23-24): lambda_n = prox_N(z_n) and the friction impulse
// (t, s, tau) = prox_F(z_f), the friction set sized by `lambdaNForFrictionSet` (Gauss-Seidel passes
// the fresh lambda_n^{k+1}, Jacobi the previous lambda_n^k).
inline Vec4 proxContact(const Vec4& z, const Vec3& frictionCoefficients, double lambdaNForFrictionSet) {
  Vec4 next;
  next[0] = proxNormalCone(z[0]);
  next.tail<3>() = proxEllipsoid(z.tail<3>(), frictionSemiAxes(frictionCoefficients, lambdaNForFrictionSet));
  return next;
}

}  // namespace contactlab
