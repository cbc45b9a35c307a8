#pragma once
// Drift anchors. A resting contact solved to a tolerance slides by what the tolerance leaves, about
// tolerance x dt per step, and left alone that adds up: a stack creeps sideways by centimetres in a
// minute. So a sticking contact remembers how far its two material points have slid against each
// other since it last slid for real (its slip, a world vector in the tangent plane), and the next
// step's problem asks it to undo a fraction of that: the target
// tangential velocity becomes -kAnchorRate slip / dt instead of 0. The slip then decays instead of
// adding up, to at most about the solver's error x dt / kAnchorRate. Bullet's and PhysX's friction
// anchors do the same with anchor points on the bodies; measuring the slip by integrating the
// relative velocity of the material points instead leaves rolling alone (a rolling ball's contact
// point moves over both bodies, but its material points do not slide). The twist about the normal is
// not anchored (docs/benchmarks.md, "Tried and dropped").
#include <vector>

#include "problem/contact_problem.h"

namespace contactlab {

struct ContactSlip {
  Vec3 slip = Vec3::Zero();  // world, in the tangent plane: B's material point against A's since sticking
};

// The fraction of the slip a step undoes, as Baumgarte's and Box2D's position correction factor.
inline constexpr double kAnchorRate = 0.2;
// A slip longer than this is a contact that slides, not one that creeps: it lets go of its anchor.
inline constexpr double kLongestSlip = 1e-3;  // metres

// Adds to each contact's b (rows t, s) the velocity kAnchorRate * slip / dt (eq. 22: v = A lambda
// + b, so a sticking contact, solved to v_t = 0, moves by -kAnchorRate * slip over the step), and
// writes it to bias (4 per contact; the normal row 0).
void biasTowardAnchors(const std::vector<ContactSlip>& slips, double dt, ContactProblem& problem, std::vector<Vec4>& bias);

// After the solve: each contact's slip at the end of the step. A sticking contact (lambda_n > 0 and
// its friction strictly inside the Coulomb-Contensou ellipsoid, eq. 16) adds dt times its relative
// velocity J u^{t+1} = b - bias + J M^-1 J^T lambda in rows t, s; any other contact lets go.
// `response` is M^-1 J^T lambda per slot.
void advanceSlips(const ContactProblem& problem, const Eigen::VectorXd& lambda, const Eigen::VectorXd& response,
                  const std::vector<Vec4>& bias, double dt, std::vector<ContactSlip>& slips);

}  // namespace contactlab
