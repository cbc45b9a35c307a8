#pragma once
// The scalar PROX contact update shared by the Jacobi sweep and the Delassus sweeps (the
// Gauss-Seidel body-space sweep has its own, four lanes at a time, in ProxGaussSeidel::beginUpdate and
// finishUpdate).
#include "solvers/prox/prox_operators.h"
#include "solvers/prox/r_factor.h"

namespace contactlab {

// Alg. 1, lines 6-8 / Alg. 2, lines 5-8 for contact k: z = lambda_k - share R_k v,
// lambda_n = prox_N(z_n) (eq. 21a) and lambda_f = prox_F(z_f) (eq. 21b), F sized by the previous
// normal impulse lambda_n^k. A separating contact's friction set is the origin (eq. 16 with
// lambda_n = 0), and a point inside F is its own projection in every metric; only points outside
// take the search of sec. 4.1. `share` is Jacobi's mass-splitting factor (1 for Gauss-Seidel).
// Forced inline: the Delassus Gauss-Seidel sweep calls it from its AVX2 clone.
[[gnu::always_inline]] inline Vec4 proxContactUpdate(const Vec3& friction, const RFactors& r, int k, double share, const Vec4& previous,
                              const Vec4& velocity) {
  const Vec4 z = previous - share * r.apply(k, velocity);
  Vec4 next;
  next[kNormal] = proxNormalCone(z[kNormal]);
  if (previous[kNormal] <= 0.0) {
    next.tail<3>().setZero();
  } else {
    const Vec3 axes = frictionSemiAxes(friction, previous[kNormal]);
    const Vec3 frictionTrial = z.tail<3>();
    next.tail<3>() = insideEllipsoid(frictionTrial, axes) ? frictionTrial : r.projectFriction(k, frictionTrial, axes);
  }
  return next;
}

}  // namespace contactlab
