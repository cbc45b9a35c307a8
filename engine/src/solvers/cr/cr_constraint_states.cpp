#include "solvers/cr/cr_constraint_states.h"

#include <algorithm>
#include <cmath>

namespace contactlab {
namespace {

// A direction of a displacement shorter than this (metres) is not taken.
constexpr double kNoSliding = 1e-12;

// A kinetic force update smaller than this fraction of the force is deferred (with a small move,
// see evaluateConstraints).
constexpr double kSmallForceChange = 1e-3;
// At most this many such updates per constraint and solve: then the paper's rule alone (line 19:
// below epsilon_2 in movement, deferred) applies. One starts the friction of a light contact (its
// whole force moves its rows by less than epsilon_2) from mu lambda; the next steps' solves take one
// each, so lambda~ follows a steady lambda over steps as Alg. 3's moving average would within one.
// Each is taken at an evaluation outside flight (the solve's start, a convergence check, after a
// geometry round), and one at a convergence check restarts the recurrence: a pile of rings with
// about a thousand active constraints, allowed 16 each, restarted about 85 times a step at
// convergence checks, each followed by iterations to converge again, which left the Full
// preconditioner little to gain over Diag (docs/deformable.md, "Deferred changes").
constexpr int kMostSmallUpdates = 1;

Vec2 unitOrZero(const Vec2& x) {
  const double n = x.norm();
  return n > kNoSliding ? Vec2(x / n) : Vec2::Zero();
}

// Alg. 3: lambda~ follows lambda by a moving average of n = 2 values whenever the force differs from
// mu lambda; delta turns towards the direction opposite to sliding by alpha_theta once they differ
// by more than epsilon_theta.
void updateKineticFriction(double mu, double lambda, const Vec2& sliding, const CrStateSettings& settings,
                           CrConstraintState& state) {
  const double forceSize = settings.pyramid ? mu * state.lambdaEstimate : state.kineticForce.norm();
  if (std::abs(forceSize - mu * std::max(lambda, 0.0)) > 0.0) {
    state.lambdaHistory[state.historyCount % 2] = std::max(lambda, 0.0);
    ++state.historyCount;
    const int n = std::min(state.historyCount, 2);
    state.lambdaEstimate = n == 1 ? state.lambdaHistory[(state.historyCount - 1) % 2]
                                  : 0.5 * (state.lambdaHistory[0] + state.lambdaHistory[1]);
  }
  // Below the solver's tolerance the sliding direction is noise (the red area of the paper's Fig. 4):
  // realigned to it, a nearly stuck contact's force turns back and forth from one evaluation to the
  // next and the solve never settles. The pyramid's directions are its rows' signs: never realigned.
  const Vec2 against = sliding.norm() > settings.changeTolerance ? unitOrZero(-sliding) : Vec2::Zero();
  if (!settings.pyramid && !against.isZero()) {
    if (state.direction.isZero()) {
      state.direction = against;
    } else {
      const double cosine = state.direction.dot(against);
      if (cosine > 0.0 && cosine < std::cos(settings.realignAngle)) {
        // A turn back against the last one halves the step: the sliding that the turned force
        // leaves can swing from one side of delta to the other (a rigid body's contacts pushing
        // each other's sliding round), and the fixed step would swing delta with it forever.
        const int turn = state.direction.x() * against.y() - state.direction.y() * against.x() > 0.0 ? 1 : -1;
        constexpr double kSmallestRealignScale = 1.0 / 64.0;  // delta still turns, if slowly
        if (state.lastTurn != 0 && turn != state.lastTurn)
          state.realignScale = std::max(kSmallestRealignScale, 0.5 * state.realignScale);
        state.lastTurn = turn;
        const double step = settings.realignStep * state.realignScale;
        state.direction = unitOrZero(state.direction + step * (against - state.direction));
      }
    }
  }
  state.kineticForce = mu * state.lambdaEstimate * state.direction;
}

// The pyramid's row signs for a constraint that starts to slide: against each row's sliding where
// that exceeds the tolerance, else the row sticks (0).
Vec2 pyramidSigns(const Vec2& sliding, double tolerance) {
  Vec2 signs = Vec2::Zero();
  for (int a = 0; a < 2; ++a)
    if (std::abs(sliding[a]) > tolerance) signs[a] = sliding[a] > 0.0 ? -1.0 : 1.0;
  return signs;
}

// Lines 12-17 row by row for the pyramid: a sticking row whose multiplier leaves [-mu lambda,
// mu lambda] while sliding goes on against it slides with the force's sign; a sliding row whose
// kinetic force has turned its sliding round sticks, starting from that force. Each switch is
// deferred alone while its effect (as the cone's) is below the tolerance. Returns the largest kept
// effect, 0 when no row switched.
double switchPyramidRows(double mu, double lambda, const Vec2& sliding, const Vec2& gamma, const Vec3& compliant,
                         double tolerance, const CrConstraintState& state, CrConstraintState& next,
                         Vec3& nextMultipliers) {
  double effect = 0.0;
  for (int a = 0; a < 2; ++a) {
    const double sign = state.direction[a];
    if (sign == 0.0) {
      const double excess = compliant[1 + a] * (std::abs(gamma[a]) - mu * std::max(lambda, 0.0));
      if (excess > tolerance && sliding[a] * gamma[a] < 0.0) {  // excess > 0: outside [-mu lambda, mu lambda]
        if (next.friction == FrictionMode::Static) {  // the first row to slide starts lambda~ at lambda
          next.lambdaEstimate = std::max(lambda, 0.0);
          next.lambdaHistory = {next.lambdaEstimate, next.lambdaEstimate};
          next.historyCount = 1;
        }
        next.direction[a] = gamma[a] > 0.0 ? 1.0 : -1.0;
        next.friction = FrictionMode::Kinetic;
        nextMultipliers[1 + a] = 0.0;
        effect = std::max(effect, excess);
      }
    } else if (sliding[a] * sign > tolerance) {
      next.direction[a] = 0.0;
      nextMultipliers[1 + a] = state.kineticForce[a];
      effect = std::max(effect, sliding[a] * sign);
    }
  }
  if (next.direction.isZero()) {
    next.friction = FrictionMode::Static;
    next.kineticForce.setZero();
  }
  return effect;
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
    // An inactive constraint that is not violated has nothing to switch or update (most candidates
    // of a pile, about 19 in 20): the rest of the loop would leave it as it is.
    if (!state.active && slack > 0.0) continue;
    const Vec2 sliding = rows.segment<2>(3 * k + 1);
    const double lambda = multipliers[3 * k];
    const Vec2 gamma = multipliers.segment<2>(3 * k + 1);
    // Lines 6-17: the switches of state. Each is deferred while its effect on the constraint's rows
    // is below epsilon_2 (line 19, sec. 3.5: "the change is postponed if the change in distance is
    // less than epsilon_2"): a deactivation by how far the pulling force moves them, an activation
    // by the penetration it prevents, a switch to kinetic friction by the excess over the cone, one
    // to static friction by the sliding it reverses. Without the deferral, states whose switch changes
    // nothing cycle at convergence: a step of a bouncing block took 20,000 iterations. In flight the
    // bound is the solve's current error on its active rows where that is larger (deferTolerance):
    // a switch smaller than the error of the iterate it is read from is noise, and each restarts
    // the recurrence (Full's iterates, from an indefinite preconditioner, switched more constraints
    // than Diag's and restarted it every few iterations).
    const Vec3 compliant = compliance.segment<3>(3 * k);
    CrConstraintState next = state;
    Vec3 nextMultipliers(lambda, gamma.x(), gamma.y());
    double effect = 0.0;  // of the switch, metres
    if (state.active) {
      // Lines 6-7: separating and pulling. An active row holds its slack at zero up to the solve's
      // error, so "separating" is slack >= -epsilon_2: with slack >= 0 exactly, a pulling constraint
      // held at -1e-15 would never let go.
      if (slack >= -settings.changeTolerance && lambda < 0.0) {
        next = CrConstraintState{};
        nextMultipliers.setZero();
        effect = compliant[0] * -lambda;
      }
    } else if (slack <= 0.0) {  // lines 8-9
      next = CrConstraintState{};
      next.active = true;
      next.friction = FrictionMode::Kinetic;
      next.direction = settings.pyramid ? pyramidSigns(sliding, settings.changeTolerance) : unitOrZero(-sliding);
      if (settings.pyramid && next.direction.isZero()) next.friction = FrictionMode::Static;
      effect = -slack;
    }
    if (settings.pyramid) {
      if (next.active && state.active && c.mu > 0.0)
        effect = switchPyramidRows(c.mu, lambda, sliding, gamma, compliant, settings.changeTolerance, state, next,
                                   nextMultipliers);
    } else if (next.active && state.active && c.mu > 0.0) {
      if (state.friction == FrictionMode::Static) {
        // Lines 12-14: more friction than the cone allows, and sliding goes on against it.
        if (gamma.norm() > c.mu * lambda && sliding.dot(gamma) < 0.0) {
          next.friction = FrictionMode::Kinetic;
          next.direction = unitOrZero(gamma);
          next.lambdaEstimate = gamma.norm() / c.mu;
          next.lambdaHistory = {next.lambdaEstimate, next.lambdaEstimate};
          next.historyCount = 1;
          next.kineticForce = gamma;
          nextMultipliers.tail<2>().setZero();
          effect = compliant.tail<2>().maxCoeff() * (gamma.norm() - c.mu * std::max(lambda, 0.0));
        }
      } else if (!state.direction.isZero() && sliding.dot(state.direction) >= 0.0) {
        // Lines 15-17: the kinetic force has turned the sliding round: stick, starting from that force.
        next.friction = FrictionMode::Static;
        nextMultipliers.tail<2>() = state.kineticForce;
        next.kineticForce.setZero();
        effect = sliding.dot(state.direction);
      }
    }
    const auto modeChanged = [&](const CrConstraintState& a, const CrConstraintState& b) {
      return a.active != b.active || a.friction != b.friction || (settings.pyramid && a.direction != b.direction);
    };
    if (modeChanged(next, state) && effect <= settings.deferTolerance) {  // deferred
      next = state;
      nextMultipliers = Vec3(lambda, gamma.x(), gamma.y());
    }
    const bool switching = modeChanged(next, state);
    if (next.active && c.mu > 0.0 && next.friction == FrictionMode::Kinetic)
      updateKineticFriction(c.mu, lambda, sliding, settings, next);
    // Line 19 for a kinetic force's update alone: deferred when it moves the rows by no more than
    // deferTolerance (epsilon_2, or in flight the solve's current error), unless it is a small
    // update (moving them by less than epsilon_2) taken outside flight that changes the force by
    // more than kSmallForceChange of its size, at most kMostSmallUpdates times a solve. The paper
    // defers on the movement alone; then a kinetic force whose whole size moves its vertex by less
    // than epsilon_2 in a step (light contacts, small bodies: a 2 cm soft block's at 1 ms) never
    // starts, and the body slides without friction.
    const Vec2 forceChange = next.kineticForce - state.kineticForce;
    const double moved = compliant.tail<2>().cwiseProduct(forceChange).norm();
    const bool smallMove = moved <= settings.changeTolerance;
    const bool settled = forceChange.norm() <= kSmallForceChange * std::max(next.kineticForce.norm(), state.kineticForce.norm());
    const bool takeSmall = settings.smallForceUpdates && !settled && state.smallUpdates < kMostSmallUpdates;
    if (switching || moved > settings.deferTolerance || (smallMove && takeSmall)) {
      ++changes;
      if (!switching && smallMove) ++next.smallUpdates;
      state = next;
      multipliers.segment<3>(3 * k) = nextMultipliers;
    }
  }
  return changes;
}

}  // namespace contactlab
