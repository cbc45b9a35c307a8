#pragma once
// Rolling resistance. The contact model of the PROX paper (eq. 16) resists sliding and, with the
// Contensou torsion, spinning about the normal, but nothing resists rolling: an ideal ball rolls on a
// level floor forever, and a heap's balls roll off it at a few cm/s, never sleep and, long after,
// wake the heap by bumping into it. Real contacts deform a little, and the normal force sits a small
// distance b ahead of the contact point, a torque b lambda_n that opposes the rolling (b is the
// `mu_rolling` of a material, a length as mu_torsion is; MuJoCo's and Bullet's rolling friction and
// Box2D's rolling resistance are this torque).
//
// It acts before the contact solve, on the free velocities, as an impulse from outside the contact
// problem (operator splitting): each contact, in turn, takes the angular impulse in its tangent
// plane that stops its bodies' relative rolling, w_rel - n (n . w_rel), clipped to b times its
// normal impulse of the last step (Gauss-Seidel: a ball's later contacts see what its earlier ones
// took). The solve then finds the contact impulses for the velocities that leaves, so its
// non-penetration and friction hold at the end of the step as they would without it. (Applied after
// the solve instead, the change of a rocking box's spin moved its corners into the boxes below, and
// a 20-row pyramid gained energy and came apart.) A ball of radius r rolling on a level floor slows
// by (5/7) g b / r (tests/dynamics/rolling_resistance_test.cpp). Contacts solved by the deformable
// CR solve (with a deformable body, or a rigid body in its island) have none: the paper's model.
#include <vector>

#include "contactlab/math.h"
#include "problem/contact_problem.h"

namespace contactlab {

// `normalImpulse` and `arm` (b, metres; 0: no resistance) per contact of `problem`; `freeVelocity`
// (6 per slot, the problem's own copy too) takes the rolling impulses, `velocityChange` (6 per slot)
// is what they changed, and each contact's b takes J times it (eq. 22: b = J u_free + ...).
void resistRolling(const std::vector<double>& normalImpulse, const std::vector<double>& arm,
                   std::vector<Vec6>& freeVelocity, Eigen::VectorXd& velocityChange, ContactProblem& problem);

}  // namespace contactlab
