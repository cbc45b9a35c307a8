#pragma once
// Proximal operators of the PROX paper: the normal cone N (eq. 15a, 21a) and the
// Coulomb-Contensou friction ellipsoid F (eq. 15b-16, 21b) with its closest-point search (sec. 4.1).
#include <algorithm>
#include <limits>

#include "contactlab/math.h"

namespace contactlab {

// prox_N(z) = max(0, z), eq. 21a.
inline double proxNormalCone(double z) { return std::max(0.0, z); }

// Whether z lies in the solid ellipsoid below with all three semi-axes a_i positive: f(z) <= 0 of
// eq. 28, sum_i (z_i / a_i)^2 <= 1, multiplied through by (a_1 a_2 a_3)^2 so that no division sits
// on the sweep's dependency chain. False when a semi-axis is zero or the products leave the range
// of doubles; the caller then takes the general projection. T is double, or a vector of doubles
// (GCC vector extension, one contact per element; the result is then a per-element mask).
// Forced inline: the Gauss-Seidel sweep calls it from its AVX2 clone with 32-byte vectors, which
// an out-of-line copy compiled for baseline x86-64 would take in memory, not in registers (GCC's
// -Wpsabi); without optimization (Debug) GCC would keep it out of line and the AVX2 call crash.
template <class T>
[[gnu::always_inline]] inline auto insideEllipsoid(T z1, T z2, T z3, T a1, T a2, T a3) {
  const T a23 = a2 * a3, a13 = a1 * a3, a12 = a1 * a2;
  const T volume = a1 * a23;
  const T scaled = (z1 * a23) * (z1 * a23) + (z2 * a13) * (z2 * a13) + (z3 * a12) * (z3 * a12);
  const T bound = volume * volume;
  return bound > 0.0 && bound <= std::numeric_limits<double>::max() && scaled <= bound;
}
// The same for one contact, where a zero third semi-axis (mu_tau = 0: the friction disk of every
// 3-row problem file, whose torsion row is zero) is decided too: z is in the flattened set when
// z_3 = 0 and (z_1, z_2) is in the ellipse, sum_{i<3} (z_i / a_i)^2 <= 1, tested the same way.
inline bool insideEllipsoid(const Vec3& z, const Vec3& semiAxes) {
  if (semiAxes[2] == 0.0 && z[2] == 0.0) {
    const double a1 = semiAxes[0], a2 = semiAxes[1];
    const double bound = (a1 * a2) * (a1 * a2);
    const double scaled = (z[0] * a2) * (z[0] * a2) + (z[1] * a1) * (z[1] * a1);
    return bound > 0.0 && bound <= std::numeric_limits<double>::max() && scaled <= bound;
  }
  return insideEllipsoid(z[0], z[1], z[2], semiAxes[0], semiAxes[1], semiAxes[2]);
}

// Closest point to z in the solid ellipsoid {x : (x1/a)^2 + (x2/b)^2 + (x3/c)^2 <= 1}, eq. 21b.
// Semi-axes are >= 0; a zero semi-axis flattens the ellipsoid onto that coordinate's zero plane
// (c = 0 is the friction disk without torsion, a = b = c = 0 the origin).
Vec3 proxEllipsoid(const Vec3& z, const Vec3& semiAxes);

// Closest point to z in the same ellipsoid measured in the metric ||x||_G^2 = x^T G x, G symmetric
// positive definite. The fixed point lambda_f = prox_F(lambda_f - R_f v_f) of eq. 20 is the
// maximum-dissipation friction (eq. 8) for any positive definite R_f only when the projection is
// taken in the metric R_f^-1: then the fixed point says -v_f lies in the normal cone of F at
// lambda_f. With the Euclidean projection that holds only for R_f = r I; any other R_f (Local's
// 1/A_ii, Blocked's eq. 40) bends the friction away from the sliding direction.
Vec3 proxEllipsoidInMetric(const Vec3& z, const Vec3& semiAxes, const Mat3& metric);
// The same for a diagonal metric, by the substitution y = sqrt(G) x, which turns it into the
// Euclidean problem on an ellipsoid with axes sqrt(G) * semiAxes (sec. 4.1's search is reused).
Vec3 proxEllipsoidInDiagonalMetric(const Vec3& z, const Vec3& semiAxes, const Vec3& sqrtMetric);

// The friction set of contact k for a given normal impulse: semi-axes mu * lambda_n (eq. 16).
inline Vec3 frictionSemiAxes(const Vec3& frictionCoefficients, double lambdaN) {
  return frictionCoefficients * std::max(0.0, lambdaN);
}

}  // namespace contactlab
