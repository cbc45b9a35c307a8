#include "solvers/cr/cr_constraint_states.h"

#include <cmath>

namespace contactlab {
namespace {

// Below this sliding displacement (metres per step) the sliding direction is noise: the friction
// direction is not realigned to it (the red area of the paper's Fig. 4).
constexpr double kNoSliding = 1e-12;

// A kinetic force update smaller than this fraction of the force is deferred (with a small move,
// see evaluateConstraints): the moving average halves its gap to mu lambda at each update, so an
// update is kept about ten times before it becomes small.
constexpr double kSmallForceChange = 1e-3;

Vec2 unitOrZero(const Vec2& x) {
  const double n = x.norm();
  return n > kNoSliding ? Vec2(x / n) : Vec2::Zero();
}

// Alg. 3: lambda~ follows lambda by a moving average of n = 2 values whenever the force differs from
// mu lambda; delta turns towards the direction opposite to sliding by alpha_theta once they differ
// by more than epsilon_theta.
void updateKineticFriction(double mu, double lambda, const Vec2& sliding, const CrStateSettings& settings,
                           CrConstraintState& state) {
  if (std::abs(state.kineticForce.norm() - mu * std::max(lambda, 0.0)) > 0.0) {
    state.lambdaHistory[state.historyCount % 2] = std::max(lambda, 0.0);
    ++state.historyCount;
    const int n = std::min(state.historyCount, 2);
    state.lambdaEstimate = n == 1 ? state.lambdaHistory[(state.historyCount - 1) % 2]
                                  : 0.5 * (state.lambdaHistory[0] + state.lambdaHistory[1]);
  }
  const Vec2 against = unitOrZero(-sliding);
  if (!against.isZero()) {
    if (state.direction.isZero()) {
      state.direction = against;
    } else {
      const double cosine = state.direction.dot(against);
      if (cosine > 0.0 && cosine < std::cos(settings.realignAngle))
        state.direction = unitOrZero(state.direction + settings.realignStep * (against - state.direction));
    }
  }
  state.kineticForce = mu * state.lambdaEstimate * state.direction;
}

}  // namespace

int evaluateConstraints(const DeformableProblem& problem, const Eigen::VectorXd& rows,
                        const Eigen::VectorXd& compliance, const CrStateSettings& settings,
                        std::vector<CrConstraintState>& states, Eigen::Ref<Eigen::VectorXd> multipliers) {
  int changes = 0;
  for (int k = 0; k < problem.numConstraints(); ++k) {
    const DeformableConstraint& c = problem.constraints[k];
    CrConstraintState& state = states[k];
    if (isRetired(c)) {
      if (state.active) ++changes;
      state = CrConstraintState{};
      multipliers.segment<3>(3 * k).setZero();
      continue;
    }
    const double slack = rows[3 * k];
    const Vec2 sliding = rows.segment<2>(3 * k + 1);
    const double lambda = multipliers[3 * k];
    const Vec2 gamma = multipliers.segment<2>(3 * k + 1);
    CrConstraintState next = state;
    Vec3 nextMultipliers(lambda, gamma.x(), gamma.y());
    if (state.active) {
      // Lines 6-7: separating and pulling. An active row holds its slack at zero up to the solve's
      // error, so "separating" is slack >= -epsilon_2: with slack >= 0 exactly, a pulling constraint
      // held at -1e-15 would never let go.
      if (slack >= -settings.changeTolerance && lambda < 0.0) {
        next = CrConstraintState{};
        nextMultipliers.setZero();
      }
    } else if (slack <= 0.0) {  // lines 8-9
      next = CrConstraintState{};
      next.active = true;
      next.friction = FrictionMode::Kinetic;
      next.direction = unitOrZero(-sliding);
    }
    if (next.active && c.mu > 0.0) {
      if (next.friction == FrictionMode::Static) {
        // Lines 12-14: more friction than the cone allows, and sliding goes on against it.
        if (gamma.norm() > c.mu * lambda && sliding.dot(gamma) < 0.0) {
          next.friction = FrictionMode::Kinetic;
          next.direction = unitOrZero(gamma);
          next.lambdaEstimate = gamma.norm() / c.mu;
          next.lambdaHistory = {next.lambdaEstimate, next.lambdaEstimate};
          next.historyCount = 1;
          next.kineticForce = gamma;
          nextMultipliers.tail<2>().setZero();
        }
      } else if (state.active && !next.direction.isZero() && sliding.dot(next.direction) >= 0.0) {
        // Lines 15-17: the kinetic force has turned the sliding round: stick, starting from that force.
        next.friction = FrictionMode::Static;
        nextMultipliers.tail<2>() = next.kineticForce;
        next.kineticForce.setZero();
      }
      if (next.friction == FrictionMode::Kinetic) updateKineticFriction(c.mu, lambda, sliding, settings, next);
    }
    // Line 19: how far the change would move the constraint's rows. A switch of state is always kept:
    // its force may be the same at the switch (a kinetic force handed to the static rows), but the
    // rows it puts into or takes out of B change what follows. An update of the kinetic force alone
    // is deferred when it moves the rows by less than epsilon_2 and changes the force by less than
    // kSmallForceChange of its size. The paper defers on the first test alone; then a kinetic force
    // whose whole size moves its vertex by less than epsilon_2 in a step (light contacts, small
    // bodies: a 2 cm soft block's at 1 ms) never starts, and the body slides without friction.
    const Vec2 frictionChange = nextMultipliers.tail<2>() - gamma + next.kineticForce - state.kineticForce;
    const Vec3 delta(nextMultipliers[0] - lambda, frictionChange.x(), frictionChange.y());
    const double moved = compliance.segment<3>(3 * k).cwiseProduct(delta).norm();
    const bool switched = next.active != state.active || next.friction != state.friction;
    const double forceChange = (next.kineticForce - state.kineticForce).norm();
    const bool smallChange = moved <= settings.changeTolerance &&
                             forceChange <= kSmallForceChange * std::max(next.kineticForce.norm(), state.kineticForce.norm());
    if (switched || !smallChange) {
      ++changes;
      state = next;
      multipliers.segment<3>(3 * k) = nextMultipliers;
    }
  }
  return changes;
}

}  // namespace contactlab
