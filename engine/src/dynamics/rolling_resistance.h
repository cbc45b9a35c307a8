#pragma once
// Rolling resistance. The contact model of the PROX paper (eq. 16) resists sliding and, with the
// Contensou torsion, spinning about the normal, but nothing resists rolling: an ideal ball rolls on a
// level floor forever, and a heap's balls roll off it at a few cm/s, never sleep and, long after,
// wake the heap by bumping into it. Real contacts deform a little, and the normal force sits a small
// distance b ahead of the contact point, a torque b lambda_n that opposes the rolling (b is the
// `mu_rolling` of a material, a length as mu_torsion is; MuJoCo's rolling friction and Bullet's
// rolling friction are this torque, Box2D's rolling resistance too).
//
// It is applied after the contact solve, as a step of its own (operator splitting): each contact
// with lambda_n > 0 takes the angular impulse P, in its tangent plane, that stops the relative
// rolling of its two bodies, w_rel - n (n . w_rel), clipped to |P| <= b lambda_n, contact by contact
// in their order (Gauss-Seidel: a ball's later contacts see what its earlier ones took). The sliding
// friction the solve found is left as it is; the slip the lost rolling leaves at the contact is the
// next step's solve's to take up, as a ball's friction turns its lost spin into lost speed. A ball
// of radius r rolling on a level floor then slows by (5/7) g b / r (docs/pipeline.md).
#include <vector>

#include "contactlab/math.h"
#include "problem/contact_problem.h"

namespace contactlab {

// `lambda` the solve's impulses (4 per contact), `arm` b per contact (metres; 0: no resistance),
// `freeVelocity` u_free per slot; `response` (M^-1 J^T lambda per slot, 6 each) gains the angular
// velocity changes of the rolling impulses.
void resistRolling(const ContactProblem& problem, const Eigen::VectorXd& lambda, const std::vector<double>& arm,
                   const std::vector<Vec6>& freeVelocity, Eigen::VectorXd& response);

}  // namespace contactlab
