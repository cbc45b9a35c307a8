#pragma once
// The subspace minimization of PGS-SM (pgs-subspace-minimization.txt, sec. 4-5) carried over from
// box friction to PROX's Coulomb(-Contensou) cone, for prox-gs on Delassus problems
// (SolverSettings::problemFile.subspaceInterval).
//
// A first-order sweep finds which contacts separate, stick or slide long before it finds their
// impulses: on BoxesStack1 (52 contacts of a resting stack) PROX-GS stalls near 2e-5 after 10000
// sweeps, while the contact states are right after a few hundred. Given the states, the Coulomb
// conditions are linear equations (PGS-SM eq. 19-21 with the cone in place of the box):
//   separating: lambda_c = 0;
//   sticking:   v_c = 0 on the normal and on every friction row with a positive mu_i;
//   sliding:    lambda_f = lambda_n diag(mu) d with the direction d of the current iterate
//               (||d|| = 1 in the cone's own metric), and v_n = 0.
// With lambda = lambda^0 + P dx (P: the free unknowns; a sliding contact has one, lambda_n;
// lambda^0 the iterate with the states imposed) and E the rows of those equations,
// E (W (lambda^0 + P dx) + q) = 0 is a square linear system in dx. A multi-body W is singular (four
// contacts under one face carry a load three could), so dx is taken as the minimum-norm
// least-squares solution (complete orthogonal decomposition): with the right states the system is
// consistent and this is its solution with the least change from lambda^0, which keeps the
// impulses of a redundant support about where the sweep put them; with wrong states it is the
// closest the equations allow. Each candidate is projected onto the cones (PGS-SM eq. 24, with
// the cone's Euclidean projection) and the states read again from it: a pass whose states were
// wrong shows it as a negative lambda_n or an impulse outside the cone, and the next pass drops or
// moves that contact. The step keeps the candidate with the smallest natural-map residual.
#include "contactlab/math.h"

namespace contactlab {

struct DelassusProblem;

// Up to kSubspacePasses passes from lambda, fewer once a candidate's residual is below
// `tolerance`. Returns the natural-map residual (natural_map.h) of the best projected candidate
// and leaves that candidate in `candidate`. `denseW` is problem.denseW(), formed once per solve by
// the caller.
double subspaceStep(const DelassusProblem& problem, const Eigen::MatrixXd& denseW, const Eigen::VectorXd& lambda,
                    double tolerance, Eigen::VectorXd& candidate);

constexpr int kSubspacePasses = 3;

}  // namespace contactlab
