#include "solvers/cr/cr_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/stage_timer.h"

namespace contactlab {

// Everything one CR solve keeps between iterations, named as in Alg. 1. y = [v; m] with m the
// multipliers (3 per constraint); r = d - B y; p the search direction; Bp = B p kept by recurrence,
// and the parts A v and A p of B y and B p kept apart (the residual split of sec. 3.5: a change of
// constraint states recomputes r from A v without a product with A).
struct CrSolver::Iterate {
  const DeformableProblem& problem;
  ThreadPool* pool;
  int n3;
  Eigen::VectorXd y, r, p, Bp, Ap, Av, z, Az, w, q;
  Eigen::VectorXd inverseDiagonalA, compliance, rows;
  std::vector<std::uint8_t> rowActive;
  std::vector<int> inSystem;  // the constraints with a row in B (any rowActive of theirs), ascending
  CrPreconditionerOperator preconditioner;
  double numerator = 0.0;  // z^T B z = r^T C^-1 B C^-1 r of the current residual

  Iterate(const DeformableProblem& problem, ThreadPool* pool) : problem(problem), pool(pool), n3(3 * problem.numNodes()) {}
  int m() const { return problem.numConstraints(); }

  // (g_k, s_k) = (j_k v - c_k,n, j_k,t v - c_k,t) per constraint.
  void computeRows() {
    rows.resize(3 * m());
    const Eigen::VectorXd v = y.head(n3);
    for (int k = 0; k < m(); ++k) {
      const DeformableConstraint& c = problem.constraints[k];
      rows.segment<3>(3 * k) = constraintRowsTimes(problem, k, v) - Vec3(c.cn, c.ct.x(), c.ct.y());
    }
  }

  // The B-product of a vector whose A-part is known: out = [Ax - L^T x_l; -L x_v], active rows only.
  void constraintProduct(const Eigen::VectorXd& x, const Eigen::VectorXd& Ax, Eigen::VectorXd& out) const {
    out.resize(x.size());
    out.head(n3) = Ax;
    out.tail(3 * m()).setZero();
    const Eigen::VectorXd xv = x.head(n3);
    for (const int k : inSystem) {
      const Vec3 mask(rowActive[3 * k], rowActive[3 * k + 1], rowActive[3 * k + 2]);
      addConstraintRowsTransposed(problem, k, -mask.cwiseProduct(Vec3(x.segment<3>(n3 + 3 * k))), out);
      out.segment<3>(n3 + 3 * k) = -mask.cwiseProduct(constraintRowsTimes(problem, k, xv));
    }
  }

  void setupRows(const std::vector<CrConstraintState>& states, CrPreconditioner kind, bool pyramid) {
    rowActive.assign(3 * m(), 0);
    inSystem.clear();
    for (int k = 0; k < m(); ++k) {
      for (int r = 0; r < 3; ++r)
        rowActive[3 * k + r] = !isRetired(problem.constraints[k]) && rowInSystem(states[k], problem.constraints[k].mu, r, pyramid);
      if (rowActive[3 * k]) inSystem.push_back(k);
    }
    preconditioner.setup(problem, inverseDiagonalA, compliance, rowActive, kind);
  }

  // r = d - B y from the kept A v (lines 19-21 with the split of sec. 3.5), then p = C^-1 r, B p.
  void restart(const std::vector<CrConstraintState>& states) {
    r.resize(y.size());
    Eigen::VectorXd force = problem.b;  // b + J_t^T gamma~ + L^T m
    for (int k = 0; k < m(); ++k) {
      const CrConstraintState& s = states[k];
      if (s.active && s.friction == FrictionMode::Kinetic)
        addConstraintRowsTransposed(problem, k, Vec3(0.0, s.kineticForce.x(), s.kineticForce.y()), force);
    }
    computeRows();
    r.tail(3 * m()).setZero();
    for (const int k : inSystem) {
      const Vec3 mask(rowActive[3 * k], rowActive[3 * k + 1], rowActive[3 * k + 2]);
      addConstraintRowsTransposed(problem, k, mask.cwiseProduct(Vec3(y.segment<3>(n3 + 3 * k))), force);
      r.segment<3>(n3 + 3 * k) = mask.cwiseProduct(Vec3(rows.segment<3>(3 * k)));
    }
    r.head(n3) = force - Av;
    preconditioner.apply(problem, r, z);
    problem.A.multiply(z.head(n3), Az, pool);
    constraintProduct(z, Az, w);
    p = z;
    Ap = Az;
    Bp = w;
    numerator = z.dot(w);
  }

  // y += a z + b z2 with z2 = C^-1 B z, (a, b) minimizing ||r - a B z - b B z2||; z, w = B z and Az
  // are those of the current r. Returns false when the step is zero.
  bool minimalResidualStep() {
    Eigen::VectorXd z2, Az2, w2;
    preconditioner.apply(problem, w, z2);
    problem.A.multiply(z2.head(n3), Az2, pool);
    constraintProduct(z2, Az2, w2);
    Eigen::Matrix2d gram;
    gram << w.dot(w), w.dot(w2), w.dot(w2), w2.dot(w2);
    const Eigen::Vector2d ab = gram.completeOrthogonalDecomposition().solve(Eigen::Vector2d(w.dot(r), w2.dot(r)));
    if (!ab.allFinite() || ab.isZero()) return false;
    y += ab[0] * z + ab[1] * z2;
    Av += ab[0] * Az + ab[1] * Az2;
    return true;
  }

  // ||U r||_inf: the largest error of an active row.
  double activeRowError() const {
    double worst = 0.0;
    for (const int k : inSystem)
      for (int row = 3 * k; row < 3 * k + 3; ++row)
        if (rowActive[row]) worst = std::max(worst, std::abs(r[n3 + row]));
    return worst;
  }

  // How far the iterate is from a solution of the MLCP with its constraints' present states, in
  // units of the solve's tolerances (1 or less: converged up to the deferrals of line 19): the
  // velocity rows' residual over epsilon_1 ||b - A v^i||, and over epsilon_2 the largest error of an
  // active row, penetration of an inactive constraint, or move of an active one by its pull
  // (lambda < 0). `rows` must be those of y.
  double merit(const std::vector<CrConstraintState>& states, double epsilon1, double epsilon2, double scale) const {
    double worst = activeRowError();
    for (int k = 0; k < m(); ++k) {
      if (isRetired(problem.constraints[k])) continue;
      if (!states[k].active) worst = std::max(worst, -rows[3 * k]);
      else worst = std::max(worst, compliance[3 * k] * -y[n3 + 3 * k]);
    }
    return std::max(r.head(n3).norm() / (epsilon1 * scale), worst / epsilon2);
  }
};

DeformableSolveReport CrSolver::solve(DeformableProblem& problem, const DeformableSolverSettings& settings,
                                      ConstraintUpdater* updater, Eigen::VectorXd& v, ThreadPool* pool) {
  const Stopwatch watch;
  DeformableSolveReport report;
  if (v.size() != 3 * problem.numNodes())
    throw std::invalid_argument("CR solve: the velocity vector has " + std::to_string(v.size()) +
                                " entries for " + std::to_string(problem.numNodes()) + " nodes");
  CrStateSettings stateSettings;
  stateSettings.changeTolerance = settings.absoluteTolerance;
  stateSettings.pyramid = settings.friction == DeformableFriction::Pyramid;
  const double epsilon1 = settings.relativeTolerance, epsilon2 = settings.absoluteTolerance;

  Iterate it(problem, pool);
  const int n3 = it.n3;
  it.y.setZero(n3 + 3 * problem.numConstraints());
  it.y.head(n3) = v;
  if (static_cast<int>(warmStates_.size()) == problem.numConstraints() &&
      warmMultipliers_.size() == 3 * problem.numConstraints()) {
    states_ = std::move(warmStates_);
    for (CrConstraintState& state : states_) {
      state.smallUpdates = 0;
      state.realignScale = 1.0;
      state.lastTurn = 0;
    }
    it.y.tail(3 * problem.numConstraints()) = warmMultipliers_;
  } else {
    states_.assign(problem.numConstraints(), CrConstraintState{});
  }
  warmStates_.clear();
  warmMultipliers_.resize(0);
  it.inverseDiagonalA.resize(n3);
  for (int i = 0; i < problem.numNodes(); ++i)
    it.inverseDiagonalA.segment<3>(3 * i) = problem.A.diagonalBlock(i).diagonal().cwiseInverse();
  problem.A.multiply(v, it.Av, pool);

  // epsilon_1 is relative to ||b - A v^i||, the unconstrained residual at the start velocity: the
  // impulse of the step's forces (dt (f_elastic + f_external) for a body in rigid motion). Relative
  // to ||d|| the bodies' momentum would loosen the contact forces with speed (a 2 cm block sliding
  // at 0.7 m/s gained 8 % in friction at the paper's epsilon_1), and relative to the first residual
  // a warm-started step would be asked for ever more digits.
  const double scale = std::max((problem.b - it.Av).norm(), std::numeric_limits<double>::min());
  // The iterate of least merit under the present linearization, with its states and ||r||: what
  // a solve that reaches the iteration cap returns, if better than where it ended. Cycles of states
  // among near-duplicate constraints (a pile of bunnies) can run the multipliers up to 1e6 by the
  // cap, and the step that takes such an iterate drives vertices centimetres into other bodies.
  double bestMerit = std::numeric_limits<double>::infinity(), bestResidual = 0.0;
  Eigen::VectorXd bestY;
  std::vector<CrConstraintState> bestStates;
  // The stall test: the iteration at which the least merit last fell by 1 %, and that merit. A
  // solve cycling among near-duplicate constraints (two bunnies touching corner to corner) meets
  // its best iterate within a few thousand iterations and then runs on to the cap without doing
  // better: in the capped steps of 30 bunnies the last 1 % of improvement came by iteration 265 to
  // 4,653 of 20,000.
  double stallMerit = std::numeric_limits<double>::infinity();
  int stallMark = 0;
  // The rows' compliance changes only with the constraints (new ones, re-linearized ones); r is
  // not that of y from such a change until the next restart, and the best iterate so far belongs
  // to the constraints before it. Constraints the updater appended start inactive with zero
  // multipliers.
  bool residualStale = true;
  const auto constraintsChanged = [&]() {
    const int before = static_cast<int>(states_.size()), count = problem.numConstraints();
    states_.resize(count);
    it.y.conservativeResize(n3 + 3 * count);
    if (count > before) it.y.tail(3 * (count - before)).setZero();
    it.compliance = rowCompliance(problem, it.inverseDiagonalA);
    residualStale = true;
    bestMerit = std::numeric_limits<double>::infinity();
    stallMerit = std::numeric_limits<double>::infinity();
    stallMark = report.iterations;
  };
  constraintsChanged();
  const auto keepIfBest = [&]() {
    if (residualStale) return;
    const double merit = it.merit(states_, epsilon1, epsilon2, scale);
    if (!(merit < bestMerit)) return;
    bestMerit = merit;
    if (merit < 0.99 * stallMerit) {
      stallMerit = merit;
      stallMark = report.iterations;
    }
    bestResidual = it.r.norm();
    bestY = it.y;
    bestStates = states_;
  };
  // In flight (line 13) a state switches, and a kinetic force is updated, only where that moves its
  // rows by more than the solve's current error on them, and no small update is taken: lambda there
  // is still that of an unconverged iterate, and each change restarts the recurrence. Two kinetic
  // contacts whose forces feed each other's lambda otherwise drifted by updates just over epsilon_2,
  // one restart every two iterations, to the 20,000 iteration cap (a step of a pile of rings). At
  // convergence (line 23) epsilon_2 is the bound again, so the fixed point is the same.
  const auto evaluate = [&](bool inFlight) {
    stateSettings.deferTolerance = inFlight ? std::max(epsilon2, it.activeRowError()) : epsilon2;
    stateSettings.smallForceUpdates = !inFlight;
    it.computeRows();
    keepIfBest();
    const int changes = evaluateConstraints(problem, it.rows, it.compliance, stateSettings, states_,
                                            it.y.tail(3 * problem.numConstraints()));
    report.activeSetChanges += changes;
    return changes;
  };
  const auto restart = [&]() {
    it.setupRows(states_, preconditionerKind_, stateSettings.pyramid);
    it.restart(states_);
    residualStale = false;
    ++report.residualRestarts;
  };

  evaluate(false);  // Alg. 1, line 6: the constraints' states at the start velocity
  restart();
  int geometryRounds = 0;

  while (report.iterations < settings.maxIterations) {
    if (settings.stallIterations > 0 && report.iterations - stallMark > settings.stallIterations) {
      report.stalled = true;
      break;
    }
    it.preconditioner.apply(problem, it.Bp, it.q);
    const double alpha = it.numerator / it.Bp.dot(it.q);  // line 9
    // CR breaks down where r^T C^-1 B C^-1 r vanishes away from the solution, which B's saddle-point
    // form allows (a residual in the constraint rows alone, with Diag; r^T B^-1 r = 0, with Full).
    // Then one step minimizes the plain ||r|| over span{C^-1 r, C^-1 B C^-1 r} (a GMRES(2) step) and
    // the recurrence starts again from its residual. Only when that step gains nothing is this a
    // local minimum (sec. 4.3).
    if (!std::isfinite(alpha) || std::abs(it.numerator) <= 1e-12 * it.z.norm() * it.w.norm()) {
      const bool moved = it.minimalResidualStep();
      ++report.iterations;
      if (moved) {
        restart();
        report.residualHistory.push_back(it.r.norm());
        report.constraintHistory.push_back(it.activeRowError());
        continue;
      }
    }
    bool localMinimum = !std::isfinite(alpha) || alpha == 0.0;
    int changes = 0;
    if (!localMinimum) {
      it.y += alpha * it.p;  // line 10
      it.r -= alpha * it.Bp;  // line 11
      it.Av += alpha * it.Ap;
      ++report.iterations;
      if (alpha > 0.0) {  // lines 12-13, at the interval of Alg. 2, line 2
        const double ratio = it.r.norm() / (epsilon1 * scale);
        const int interval = std::max(1, static_cast<int>(std::log2(std::max(ratio, 1.0)) / 3.0));
        if (report.iterations % interval == 0) changes = evaluate(true);
      }
      if (changes > 0) {
        restart();  // lines 19-21
      } else {      // lines 15-17
        it.preconditioner.apply(problem, it.r, it.z);
        problem.A.multiply(it.z.head(n3), it.Az, pool);
        it.constraintProduct(it.z, it.Az, it.w);
        const double next = it.z.dot(it.w);
        const double beta = it.numerator != 0.0 ? next / it.numerator : 0.0;
        it.p = it.z + beta * it.p;
        it.Ap = it.Az + beta * it.Ap;
        it.Bp = it.w + beta * it.Bp;
        it.numerator = next;
      }
      report.residualHistory.push_back(it.r.norm());
      report.constraintHistory.push_back(it.activeRowError());
      localMinimum = it.w.norm() < epsilon1 * scale;  // sec. 4.3: the gradient 2 B C^-1 r vanishes
    }
    const bool converged = it.r.norm() < epsilon1 * scale && it.activeRowError() < epsilon2;
    if (!converged && !localMinimum) continue;
    // Line 22 reached: make sure of the residual with a fresh product (the recurrences drift).
    problem.A.multiply(it.y.head(n3), it.Av, pool);
    if (evaluate(false) > 0) {  // line 23
      // Counted as an iteration: at a local minimum the states can cycle without a CR step
      // between their changes, and the iteration cap must end that too.
      ++report.iterations;
      restart();
      report.residualHistory.push_back(it.r.norm());
      report.constraintHistory.push_back(it.activeRowError());
      continue;
    }
    it.restart(states_);
    if (!(it.r.norm() < epsilon1 * scale && it.activeRowError() < epsilon2) && !localMinimum) continue;
    if (updater && geometryRounds < kMostGeometryRounds) {
      ++geometryRounds;
      const Eigen::VectorXd velocity = it.y.head(n3);
      if (updater->addCollisions(velocity, problem) > 0) {  // line 25
        ++report.collisionRounds;
        constraintsChanged();
        evaluate(false);
        restart();
        continue;
      }
      std::vector<std::uint8_t> active(problem.numConstraints());
      for (int k = 0; k < problem.numConstraints(); ++k) active[k] = states_[k].active;
      if (updater->relinearize(velocity, active, problem) > 0) {  // line 27
        ++report.relinearizations;
        constraintsChanged();
        evaluate(false);
        restart();
        continue;
      }
    }
    report.convergence = Convergence::Absolute;
    report.localMinimum = localMinimum && !converged;
    break;
  }
  report.residual = it.r.norm();
  if (!report.converged() && bestMerit < std::numeric_limits<double>::infinity()) {
    it.computeRows();
    if (bestMerit < it.merit(states_, epsilon1, epsilon2, scale)) {
      it.y = std::move(bestY);
      states_ = std::move(bestStates);
      report.residual = bestResidual;
      report.tookBestIterate = true;
    }
  }
  v = it.y.head(n3);
  multipliers_ = it.y.tail(3 * problem.numConstraints());
  report.allIterations = report.iterations;
  report.seconds = watch.elapsedSeconds();
  return report;
}

void CrSolver::setWarmStart(std::vector<CrConstraintState> states, Eigen::VectorXd multipliers) {
  warmStates_ = std::move(states);
  warmMultipliers_ = std::move(multipliers);
}

Eigen::VectorXd CrSolver::constraintForces() const { return crConstraintForces(states_, multipliers_); }

Eigen::VectorXd crConstraintForces(const std::vector<CrConstraintState>& states, const Eigen::VectorXd& multipliers) {
  Eigen::VectorXd forces = multipliers;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const CrConstraintState& s = states[k];
    // A sliding row's multiplier is zero (it leaves B when it starts to slide), so its force is the
    // kinetic force alone; with the pyramid a sticking row beside it keeps its multiplier.
    if (!s.active) forces.segment<3>(3 * k).setZero();
    else if (s.friction == FrictionMode::Kinetic) forces.segment<2>(3 * k + 1) += s.kineticForce;
  }
  return forces;
}

const std::vector<DeformableSolverEntry>& deformableSolverRegistry() {
  static const std::vector<DeformableSolverEntry> registry{
      {"cr-full", "Conjugate Residual with the Full preconditioner (Verschoor & Jalba 2019, eq. 22)",
       CrPreconditioner::Full},
      {"cr-diag", "Conjugate Residual with the Diag preconditioner (block diagonal of eq. 22)", CrPreconditioner::Diag},
  };
  return registry;
}

std::unique_ptr<CrSolver> makeDeformableSolver(const std::string& name) {
  std::string known;
  for (const DeformableSolverEntry& e : deformableSolverRegistry()) {
    if (e.name == name) return std::make_unique<CrSolver>(e.preconditioner);
    known += (known.empty() ? "" : ", ") + e.name;
  }
  throw std::invalid_argument("unknown deformable solver \"" + name + "\" (known: " + known + ")");
}

std::vector<SolverDescription> deformableSolverNames() {
  std::vector<SolverDescription> names;
  for (const DeformableSolverEntry& e : deformableSolverRegistry()) names.push_back({e.name, e.summary, false});
  return names;
}

}  // namespace contactlab
