#pragma once
// The preconditioned Conjugate Residual method for the deformable MLCP with friction
// (conjugate-residual-deformable-contact.txt, Alg. 1): CR on
//   B y = d,  B = [ A  -L^T ],  y = [ v ],  d = [ b + J_t^T gamma~ ]   (eq. 11, 20; signs: cr_preconditioner.h)
//                 [ -L   0  ]       [ m ]       [ -c              ]
// over the active rows L, with the constraint states switched at residual-dependent intervals
// (cr_constraint_states.h), and, at each convergence, new collisions added and the constraints
// re-linearized through the problem's ConstraintUpdater until neither changes anything.
#include <memory>
#include <string>
#include <vector>

#include "contactlab/metrics.h"
#include "contactlab/solver_settings.h"
#include "problem/deformable_problem.h"
#include "solvers/cr/cr_constraint_states.h"
#include "solvers/cr/cr_preconditioner.h"

namespace contactlab {

class ThreadPool;

class CrSolver {
 public:
  // Re-linearizations and collision checks continue while they change something; each is followed
  // by a converged solve, so this bounds only a cycle between them.
  static constexpr int kMostGeometryRounds = 50;

  explicit CrSolver(CrPreconditioner preconditioner) : preconditionerKind_(preconditioner) {}

  // The states and multipliers (3 per constraint) the next solve starts from, one per constraint of
  // its problem as it comes in (contacts persisting from the last step); without, every constraint
  // starts inactive with zero multipliers.
  void setWarmStart(std::vector<CrConstraintState> states, Eigen::VectorXd multipliers);

  // Solves for the node velocities: `v` (3 per node) holds the start on entry and the result on exit.
  // `updater` may be null (the constraints are then fixed). Constraints the updater appends are kept
  // in `problem`. With a pool, products with A are cut among its threads; results do not depend on
  // the thread count.
  DeformableSolveReport solve(DeformableProblem& problem, const DeformableSolverSettings& settings,
                              ConstraintUpdater* updater, Eigen::VectorXd& v, ThreadPool* pool = nullptr);

  // After a solve, per constraint: (lambda, friction force in t1, t2), the force the constraint
  // applies (its impulse over the step is dt times this; kinetic contacts report gamma~), and states.
  Eigen::VectorXd constraintForces() const;
  const std::vector<CrConstraintState>& states() const { return states_; }
  const Eigen::VectorXd& multipliers() const { return multipliers_; }  // y's tail: 3 per constraint

 private:
  struct Iterate;
  CrPreconditioner preconditionerKind_;
  std::vector<CrConstraintState> states_;
  Eigen::VectorXd multipliers_;  // 3 per constraint, the tail of y after the last solve
  std::vector<CrConstraintState> warmStates_;
  Eigen::VectorXd warmMultipliers_;
};

// Per constraint: (lambda, friction force in t1, t2), the force it applies with these states and
// multipliers (3 per constraint): zero for an inactive one, gamma~ for a kinetic one's friction.
Eigen::VectorXd crConstraintForces(const std::vector<CrConstraintState>& states, const Eigen::VectorXd& multipliers);

struct DeformableSolverEntry {
  std::string name;
  std::string summary;
  CrPreconditioner preconditioner;
};
const std::vector<DeformableSolverEntry>& deformableSolverRegistry();
// Throws std::invalid_argument naming the solver and the known names when there is none of that name.
std::unique_ptr<CrSolver> makeDeformableSolver(const std::string& name);

}  // namespace contactlab
