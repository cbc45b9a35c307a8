// The CR solve's constraint states (engine/src/solvers/cr/cr_constraint_states.cpp, Alg. 2-3): when
// a switch or a kinetic force's update is taken and when line 19 defers it.
#include "solvers/cr/cr_constraint_states.h"

#include <gtest/gtest.h>

namespace contactlab {
namespace {

// One constraint of a node on the ground (rows n, t1, t2; a vertex with weight 1).
DeformableProblem oneConstraint(double mu) {
  DeformableProblem problem;
  problem.dt = 0.001;
  DeformableConstraint c;
  c.node = {0, -1, -1, -1};
  c.weight = {1.0, 0.0, 0.0, 0.0};
  c.mu = mu;
  problem.constraints.push_back(c);
  return problem;
}

// The rows, multipliers and compliance of that constraint, and the one call of Alg. 2.
struct Evaluation {
  Eigen::VectorXd rows = Eigen::VectorXd::Zero(3), multipliers = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd compliance = Eigen::VectorXd::Constant(3, 1e-6);  // metres per unit multiplier
  int run(const DeformableProblem& problem, const CrStateSettings& settings, std::vector<CrConstraintState>& states) {
    return evaluateConstraints(problem, rows, compliance, settings, states, multipliers);
  }
};

// An active constraint pulling (lambda < 0) at zero slack lets go when the pull moves its row by
// more than the bound: epsilon_2 at a convergence check, the solve's current error in flight.
TEST(CrConstraintStates, ASwitchWithinTheSolvesCurrentErrorWaits) {
  const DeformableProblem problem = oneConstraint(0.0);
  Evaluation e;
  e.multipliers[0] = -20.0;  // moves the row by 20e-6 m, four times epsilon_2 = 5e-6
  CrConstraintState active;
  active.active = true;
  CrStateSettings settings;
  settings.deferTolerance = 5e-5;  // in flight, the iterate's active rows still 50 um off
  std::vector<CrConstraintState> states{active};
  EXPECT_EQ(e.run(problem, settings, states), 0);
  EXPECT_TRUE(states[0].active);
  settings.deferTolerance = settings.changeTolerance;  // at convergence
  EXPECT_EQ(e.run(problem, settings, states), 1);
  EXPECT_FALSE(states[0].active);
}

// An inactive constraint 20 um inside waits in flight while the iterate's error is 50 um, and is
// activated at convergence.
TEST(CrConstraintStates, AnActivationWithinTheSolvesCurrentErrorWaits) {
  const DeformableProblem problem = oneConstraint(0.0);
  Evaluation e;
  e.rows[0] = -2e-5;
  CrStateSettings settings;
  settings.deferTolerance = 5e-5;
  std::vector<CrConstraintState> states(1);
  EXPECT_EQ(e.run(problem, settings, states), 0);
  EXPECT_FALSE(states[0].active);
  settings.deferTolerance = settings.changeTolerance;
  EXPECT_EQ(e.run(problem, settings, states), 1);
  EXPECT_TRUE(states[0].active);
}

// A sliding constraint whose kinetic force moves its rows by less than epsilon_2 (a light contact)
// takes one such update per solve, which starts its friction at mu lambda; a later change of lambda
// within the same solve waits for the next solve.
TEST(CrConstraintStates, ALightSlidingContactTakesOneSmallForceUpdatePerSolve) {
  const DeformableProblem problem = oneConstraint(0.5);
  Evaluation e;
  e.rows << 0.0, 1e-4, 0.0;  // sliding along +t1
  e.multipliers[0] = 2.0;    // mu lambda = 1: moves the rows by 1e-6 m, below epsilon_2
  CrConstraintState sliding;
  sliding.active = true;
  sliding.friction = FrictionMode::Kinetic;
  sliding.direction = Vec2(-1.0, 0.0);
  std::vector<CrConstraintState> states{sliding};
  const CrStateSettings settings;  // at a convergence check
  EXPECT_EQ(e.run(problem, settings, states), 1);
  EXPECT_DOUBLE_EQ(states[0].kineticForce.x(), -1.0);  // mu lambda against the sliding
  e.multipliers[0] = 3.0;
  EXPECT_EQ(e.run(problem, settings, states), 0) << "a second small update in the same solve";
  EXPECT_DOUBLE_EQ(states[0].kineticForce.x(), -1.0);
  states[0].smallUpdates = 0;  // the next solve
  EXPECT_EQ(e.run(problem, settings, states), 1);
  EXPECT_DOUBLE_EQ(states[0].kineticForce.x(), -0.5 * 0.5 * (2.0 + 3.0));  // Alg. 3's moving average of 2 and 3
}

}  // namespace
}  // namespace contactlab
