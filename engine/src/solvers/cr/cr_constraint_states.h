#pragma once
// The states of the CR solve's constraints and how they switch while it iterates
// (conjugate-residual-deformable-contact.txt, Alg. 2: activation, deactivation, static/kinetic
// friction; Alg. 3: the kinetic friction force's magnitude and direction).
//
// Sign convention (ours, see cr_preconditioner.h): the multipliers push, node forces are L^T y, and
// for constraint k with rows (n, t1, t2)
//   g_k = j_k v - c_k,n        the normal row's slack, >= 0 when the contact is not closing too fast;
//   s_k = j_k,t v - c_k,t      the sliding (tangential) displacement of the step, 2 entries.
// A kinetic contact's friction force gamma~_k = mu lambda~_k delta_k is moved to the right side
// (eq. 17, 20); delta_k is the unit direction of that force in (t1, t2), opposite to sliding.
#include <array>
#include <cstdint>
#include <vector>

#include "problem/deformable_problem.h"

namespace contactlab {

enum class FrictionMode : std::uint8_t { Static, Kinetic };

struct CrConstraintState {
  bool active = false;
  FrictionMode friction = FrictionMode::Kinetic;
  Vec2 direction = Vec2::Zero();      // delta_k (unit), zero until the contact has slid
  double lambdaEstimate = 0.0;        // lambda~_k: simple moving average of lambda_k (Alg. 3, lines 4-5)
  std::array<double, 2> lambdaHistory{0.0, 0.0};  // the last n = 2 values that average takes
  int historyCount = 0;
  Vec2 kineticForce = Vec2::Zero();   // gamma~_k = mu lambda~_k delta_k
  // Kinetic force updates taken in this solve that moved the rows by less than epsilon_2 (at most
  // one: evaluateConstraints); the solve sets it to zero at its start.
  int smallUpdates = 0;
  // The realignment of delta (Alg. 3, line 8) in this solve: the fraction of alpha_theta it takes,
  // halved whenever a turn goes back against the last one, and the last turn's side (+1
  // counter-clockwise in (t1, t2), -1 clockwise, 0 none yet). The solve resets both at its start.
  double realignScale = 1.0;
  int lastTurn = 0;
};

struct CrStateSettings {
  double changeTolerance = 5e-6;  // epsilon_2: the solve's constraint tolerance (Alg. 1, line 22)
  double realignAngle = 1.2 * 3.14159265358979323846 / 180.0;  // epsilon_theta (Alg. 3, line 6)
  double realignStep = 0.01;      // alpha_theta (Alg. 3, line 8)
  // Line 19: a switch of state, or a kinetic force's update alone, that moves the constraint's rows
  // by no more than this (>= changeTolerance) is deferred; a force update is then still taken, once
  // per solve, with smallForceUpdates, when it changes the force itself enough.
  double deferTolerance = 5e-6;
  bool smallForceUpdates = true;
  // The friction pyramid (DeformableFriction::Pyramid): each tangent row sticks or slides on its own.
  // A constraint's state then reads: direction[a] the sign of row a's kinetic force (+1 or -1), 0
  // while that row sticks; friction Kinetic when either row slides. kineticForce = mu lambda~
  // direction, a corner or an edge of the pyramid, and delta is never realigned.
  bool pyramid = false;
};

// Whether row r (0 normal, 1-2 friction) of a constraint in state `state` takes part in B: the normal
// row when active, a friction row when active, sticking, and mu > 0 (with the pyramid, row by row).
inline bool rowInSystem(const CrConstraintState& state, double mu, int r, bool pyramid) {
  if (!state.active) return false;
  if (r == 0) return true;
  if (!(mu > 0.0)) return false;
  return state.friction == FrictionMode::Static || (pyramid && state.direction[r - 1] == 0.0);
}

// Alg. 2 for every constraint: `rows` holds (g_k, s_k) per constraint (3 entries each), `multipliers`
// (lambda_k, gamma_k) per constraint (3 each, the solver's y beyond the velocities; set to zero for
// rows that leave B), `compliance` rowCompliance's values. A switch of state, and a kinetic force's
// update alone, only when Z^-1 S_d [dlambda, dgamma + dgamma~] exceeds deferTolerance (line 19; a
// force update also when it is the solve's one small update). Returns how many constraints changed.
int evaluateConstraints(const DeformableProblem& problem, const Eigen::VectorXd& rows,
                        const Eigen::VectorXd& compliance, const CrStateSettings& settings,
                        std::vector<CrConstraintState>& states, Eigen::Ref<Eigen::VectorXd> multipliers);

}  // namespace contactlab
