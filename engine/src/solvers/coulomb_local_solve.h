#pragma once
// One contact's Coulomb problem solved exactly: the local problem of a block Gauss-Seidel sweep
// (Siconos' NSGS has this structure; PROX-GS runs it with SolverSettings::problemFile.exactLocalSolve).
//
// With the other contacts' impulses fixed, contact k's velocity on its rows (n, t, s) is
// v = A r + b, A the 3x3 (n, t, s) part of W_kk and b = q_k + sum_{l != k} W_kl lambda_l. The
// friction set is the disk of eq. 16 without torsion, {(r_t / mu_t)^2 + (r_s / mu_s)^2 <= r_n^2}.
// Coulomb's law holds in one of three cases:
//   take-off  r = 0 and v_n >= 0;
//   sticking  v = 0 and r in the cone;
//   sliding   v_n = 0, r_f on the disk's rim, and the slip v_f along the outward normal of the rim at
//             r_f (maximal dissipation: v_f = -beta N r_f with beta >= 0, N the disk's metric).
// The first two are closed forms. Sliding becomes a quartic in one unknown (derivation in the .cpp),
// whose real roots are all found: every candidate of every case is checked against the law, so
// nothing found is returned that is not a solution.
#include <optional>

#include "contactlab/math.h"

namespace contactlab {

// A solution r = (r_n, r_t, r_s) of the local problem, or nothing when none of the three cases gives
// one: a matrix block singular where a case inverts it, a friction coefficient zero in one tangent
// direction only (the disk is then a segment), or an A for which the law has no solution. Where
// several cases or several sliding directions solve it (possible for a non-symmetric or badly
// conditioned A with large mu), the one nearest `previous` is returned, so that a sweep stays
// on the branch it is on.
std::optional<Vec3> solveCoulombContact(const Mat3& a, const Vec3& b, double muT, double muS, const Vec3& previous);

}  // namespace contactlab
