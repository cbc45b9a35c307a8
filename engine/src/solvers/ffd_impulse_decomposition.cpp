#include "solvers/ffd_impulse_decomposition.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/stage_timer.h"

namespace contactlab {
namespace {

// The per-body problems below are small (a body's contacts) and dense, solved by projected
// Gauss-Seidel. The papers treat them as exact (a QP per body); we solve them to a fraction of the
// outer tolerance (SolverSettings::tolAbs, velocity units) rather than to round-off, at most
// max(3, 32 / contacts) sweeps a visit (a small problem, e.g. a ball in a V-slot, is solved to the
// tolerance in one visit; a brick's 20 contacts get 3 sweeps, so a visit costs ~contacts^2 * 3), each warm-started from the previous pass's impulses: the outer passes
// revisit every body, so an inner solve left short is continued on the next pass, and the outer
// merit (the pass's impulse changes) only reaches tolAbs once the inner solves have settled too.
// With tolAbs = 0 (never stop early) the inner solves run to round-off (kInnerRoundOff, relative).
// Solving every visit to round-off from zero would cost many times prox-gs's time per step.
constexpr int kInnerRowUpdates = 32;  // sweeps a visit: max(kInnerMinSweeps, this / contacts)
constexpr int kInnerMinSweeps = 3;
constexpr double kInnerFraction = 1e-4;
constexpr double kInnerRoundOff = 1e-10;

// Ridge on the eq. 13 normal equations (relative to their diagonal): when C has dependent columns
// (a box face on four coplanar corners: rank 3) eq. 13 has a whole affine set of exact fits; the ridge
// picks the one of least (effective-mass weighted) norm, which for a symmetric support is the
// symmetric split. Small enough not to move an exact fit measurably (relative 1e-9).
constexpr double kSplitRidge = 1e-9;

// Ridge on the projections' duals (eq. 6, 21): an empty T (after plain FFD's friction, which ignores
// the neighbours, no non-negative normal impulses may undo what it did) has no dual solution and the
// iteration would run to overflow; the ridge bounds it at a relative cost of 1e-8 in the impulses.
constexpr double kProjectionRidge = 1e-8;

// Projected Gauss-Seidel for the small dense LCP  x >= 0, A x + q >= 0, x^T (A x + q) = 0, from the x
// given (clamped to x >= 0), until a sweep changes no row's velocity by more than `tolerance`
// (0: kInnerRoundOff relative to q).
void solveDenseLcp(const Eigen::MatrixXd& a, const Eigen::VectorXd& q, double ridge, double tolerance,
                   Eigen::VectorXd& x) {
  const Eigen::Index n = q.size();
  if (x.size() != n) x.setZero(n);
  x = x.cwiseMax(0.0);
  if (tolerance <= 0.0) tolerance = kInnerRoundOff * std::max(q.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  const int sweeps = std::max(kInnerMinSweeps, kInnerRowUpdates / static_cast<int>(std::max<Eigen::Index>(n, 1)));
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    double change = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double diagonal = a(i, i) * (1.0 + ridge);
      // a is symmetric: its column i is row i, contiguous in Eigen's column-major storage.
      const double residual = a.col(i).dot(x) + ridge * a(i, i) * x[i] + q[i];
      const double next = std::max(0.0, x[i] - residual / diagonal);
      change = std::max(change, std::abs(next - x[i]) * diagonal);
      x[i] = next;
    }
    if (change <= tolerance) break;
  }
}

// Friction (t, s, tau) within the bounds (b_t, b_s, b_tau) = mu alpha: with `box` (ffd, eq. 9's
// sampled directions) each row clamped; otherwise (ffd-id, eq. 19) the tangential pair radially scaled
// into the ellipse of half-axes b_t, b_s and the torsion clamped. A zero bound allows no impulse.
Vec3 clampFriction(const Vec3& f, const Vec3& bounds, bool box) {
  if (box) return f.cwiseMax(-bounds).cwiseMin(bounds);
  auto ratio = [](double value, double bound) { return bound > 0.0 ? value / bound : (value != 0.0 ? HUGE_VAL : 0.0); };
  const double e = std::hypot(ratio(f[0], bounds[0]), ratio(f[1], bounds[1]));
  Vec3 out = f;
  if (e > 1.0) out.head<2>() /= e;
  if (!std::isfinite(e)) out.head<2>().setZero();
  out[2] = std::clamp(f[2], -bounds[2], bounds[2]);
  return out;
}

}  // namespace

SolveReport FastFrictionalDynamics::solve(const ContactProblem& problem, const SolverSettings& settings,
                                          Eigen::VectorXd& lambda) {
  if (problem.numContacts() == 0) return emptyProblemReport();
  const Stopwatch watch;
  SolveReport report;
  // The contacts of each dynamic body; a contact between two dynamic bodies is visited by both.
  contactStart_.assign(problem.numSlots + 1, 0);
  for (const ContactBlock& block : problem.blocks) {
    if (block.slotA >= 0) ++contactStart_[block.slotA + 1];
    if (block.slotB >= 0) ++contactStart_[block.slotB + 1];
  }
  for (int s = 0; s < problem.numSlots; ++s) contactStart_[s + 1] += contactStart_[s];
  contactList_.resize(contactStart_.back());
  std::vector<int> fill(contactStart_.begin(), contactStart_.end() - 1);
  for (int k = 0; k < problem.numContacts(); ++k) {
    const ContactBlock& block = problem.blocks[k];
    if (block.slotA >= 0) contactList_[fill[block.slotA]++] = k;
    if (block.slotB >= 0) contactList_[fill[block.slotB]++] = k;
  }
  // Contacts no dynamic body touches carry no impulse.
  for (int k = 0; k < problem.numContacts(); ++k)
    if (problem.blocks[k].slotA < 0 && problem.blocks[k].slotB < 0) lambda.segment<4>(4 * k).setZero();
  applyInvMassJt(problem, lambda, w_);
  frictionSplit_.setZero(problem.numContacts());
  innerTolerance_ = kInnerFraction * settings.tolAbs;

  // The papers run one pass over the bodies and define no merit. We repeat the pass (a body's step
  // changes its neighbours, and a pass in slot order sees the stack below a body before the body
  // above has pressed on it) and report the PROX eq. 27 merit the other solvers use: the largest
  // contact velocity change, |delta lambda| A_ii, a pass's impulse changes cause. With only static
  // neighbours a body's step does not depend on the iterate, so the second pass reports 0.
  //
  // Divergence (plain FFD on stacks: its friction, from each body's own twist, is applied to both
  // bodies of a contact, and on the wall's side contacts the passes amplify it, ~1.1x a pass after
  // the first few): once a pass's merit exceeds kDivergence times the smallest so far, the iterate
  // after that smallest pass is restored and the solve stops unconverged with one roll-back counted.
  // The first pass alone is the papers' single-pass method, so the fall-back is at worst theirs.
  constexpr double kDivergence = 2.0;
  double bestMerit = std::numeric_limits<double>::infinity();
  const Stopwatch iterating;
  while (report.iterations < settings.maxIterations) {
    double merit = 0.0;
    for (int slot = 0; slot < problem.numSlots; ++slot) merit = std::max(merit, solveBody(problem, slot, lambda));
    ++report.iterations;
    report.residualHistory.push_back(merit);
    if (!(merit <= kDivergence * bestMerit)) {  // also when merit is NaN
      lambda = bestLambda_;
      report.residual = bestMerit;
      ++report.rollbacks;
      report.convergence = Convergence::None;
      break;
    }
    if (merit < bestMerit) {
      bestMerit = merit;
      bestLambda_ = lambda;
    }
    report.residual = merit;
    report.convergence = stoppingTest(settings, report.residualHistory);
    if (report.converged()) break;
  }
  report.iterationSeconds = iterating.elapsedSeconds();
  report.seconds = watch.elapsedSeconds();
  return report;
}

void FastFrictionalDynamics::splitNormalImpulse(const Eigen::VectorXd& dual, Eigen::VectorXd& alpha) const {
  // The metric is the joint one (the body and its dynamic neighbours, jointDelassus_): the body's own
  // twist r alone does not fix the impulses that pass through it (a brick in a wall pushed up from
  // below and down from above: any equal change of both leaves r as it is, and the least-norm split
  // drops the load of the bricks above). With static neighbours it is the body's own metric.
  // The body's normal-row Delassus matrix A = G^T M^-1 G (G = [g_1 .. g_nc], the wrenches of unit normal
  // impulses, eq. 2) and the total twist change r = M^-1 G dual; G^T r = A dual is then the normal
  // velocity change r causes at each contact.
  const Eigen::VectorXd normalVelocityChange = jointDelassus_ * dual;
  if (variant_ == FfdVariant::Projection) {
    // Eq. 7, alpha_k = n_k^T M r: the projection of r onto contact k's normal twist direction
    // M^-1 g_k in the kinetic metric of eq. 5 (a^T M b), expressed as the impulse along g_k that
    // gives that projection: alpha_k = <M^-1 g_k, r>_M / <M^-1 g_k, M^-1 g_k>_M = (G^T r)_k / A_kk.
    // For a sphere this is Fig. 2(b): the total impulse projected onto each normal, m g dt cos(theta_k).
    // A negative projection (r moves that contact point away) is no push: alpha_k = 0.
    alpha = normalVelocityChange.cwiseQuotient(jointDelassus_.diagonal()).cwiseMax(0.0);
    return;
  }
  // Eq. 11-13: x = argmin (C x - r)^T (C x - r) with C = M^-1 G (eq. 12). Choices where the paper is
  // vague: (a) the norm is the kinetic metric of eq. 5, the paper's inner product on se(3), rather than
  // the plain sum of squares eq. 11 writes: the plain one adds m/s to rad/s and its answer changes
  // with the choice of units and of the body's origin; when r lies in the range of C (it does: r is
  // the projection of eq. 6, a non-negative combination of the columns) both have the same exact fits.
  // In this metric the normal equations are A x = G^T r. (b) x >= 0: a normal impulse only pushes;
  // the paper does not say, but a least-squares split of a non-square C can otherwise go negative.
  // So eq. 13 becomes the non-negative least-squares LCP  x >= 0, A x - G^T r >= 0, complementary,
  // with a tiny ridge choosing among equally exact splits (kSplitRidge).
  // Warm start: the projection's multipliers, an exact fit themselves, so the ridge only moves the
  // split off them as far as the inner sweeps go (choice: among the exact fits, eq. 13 does not say
  // which; the one nearest the projection's is as good as the least-norm one and far cheaper).
  alpha = dual;
  solveDenseLcp(jointDelassus_, -normalVelocityChange, kSplitRidge, innerTolerance_, alpha);
}

double FastFrictionalDynamics::solveBody(const ContactProblem& problem, int slot, Eigen::VectorXd& lambda) {
  const int begin = contactStart_[slot];
  const int count = contactStart_[slot + 1] - begin;
  if (count == 0) return 0.0;
  const SlotInverseMass& mass = problem.inverseMass[slot];

  // Eq. 6: phi^- is the body's twist without its contact impulses (u_free). Adaptation to one impulse
  // per contact acting on both bodies: the impulses of the body's contacts are taken off its
  // neighbours too, and the neighbours respond to what this step puts on those contacts (their other
  // contacts stay frozen). The local problem is then the exact block of J M^-1 J^T over the body's
  // contacts, and the step a block Gauss-Seidel step: with the neighbours frozen instead (FFD's own
  // model), a brick between a resting brick below and a falling one above has an empty T.
  for (int a = 0; a < count; ++a) {
    const int k = contactList_[begin + a];
    addInvMassJt(problem, k, -lambda.segment<4>(4 * k), w_);
  }
  neighbourSlots_.clear();
  local_.resize(count);
  auto signedWrenches = [&](const ContactBlock& block, bool isB, Eigen::Matrix<double, 6, 4>& wrench,
                            Eigen::Matrix<double, 6, 4>& response, const SlotInverseMass& m) {
    // Eq. 2: the wrench Gamma_k^T f_k of a unit impulse along each row, signed for the body (the
    // impulse lambda acts on body j and its opposite on body i); eq. 4: its twist change.
    const double sign = isB ? 1.0 : -1.0;
    const Vec3& arm = isB ? block.armB : block.armA;
    for (int row = 0; row < 3; ++row) {
      const Vec3 d = block.frame.col(row);
      wrench.col(row) << sign * d, sign * arm.cross(d);
    }
    wrench.col(kTorsion) << Vec3::Zero(), sign * block.frame.col(0);
    for (int row = 0; row < 4; ++row)
      response.col(row) << m.invMass * wrench.col(row).head<3>(), m.invInertiaWorld * wrench.col(row).tail<3>();
  };
  for (int a = 0; a < count; ++a) {
    LocalContact& c = local_[a];
    c.k = contactList_[begin + a];
    const ContactBlock& block = problem.blocks[c.k];
    const bool isB = block.slotB == slot;
    c.freeVelocity = contactVelocity(block, w_);
    signedWrenches(block, isB, c.wrench, c.response, mass);
    const int other = isB ? block.slotA : block.slotB;
    c.neighbour = -1;
    if (other >= 0) {
      const auto found = std::find(neighbourSlots_.begin(), neighbourSlots_.end(), other);
      c.neighbour = static_cast<int>(found - neighbourSlots_.begin());
      if (found == neighbourSlots_.end()) neighbourSlots_.push_back(other);
      signedWrenches(block, !isB, c.neighbourWrench, c.neighbourResponse, problem.inverseMass[other]);
    }
    c.inverseMass = c.wrench.transpose() * c.response;  // A_kk, the contact's 4x4 block
    if (other >= 0) c.inverseMass += c.neighbourWrench.transpose() * c.neighbourResponse;
  }
  // Twist changes of the body (column 0) and of each neighbour from this step's impulses.
  twists_.setZero(6, 1 + static_cast<Eigen::Index>(neighbourSlots_.size()));

  ownDelassus_.resize(count, count);
  jointDelassus_.resize(count, count);
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b) {
      const LocalContact &ca = local_[a], &cb = local_[b];
      ownDelassus_(a, b) = ca.wrench.col(kNormal).dot(cb.response.col(kNormal));
      jointDelassus_(a, b) = ownDelassus_(a, b);
      if (ca.neighbour >= 0 && ca.neighbour == cb.neighbour)
        jointDelassus_(a, b) += ca.neighbourWrench.col(kNormal).dot(cb.neighbourResponse.col(kNormal));
    }
  // Contact a's row velocity now (eq. 3 on both sides), and an impulse on contact a moving both bodies.
  auto rowVelocity = [&](int a, int row) {
    const LocalContact& c = local_[a];
    double v = c.freeVelocity[row] + c.wrench.col(row).dot(twists_.col(0));
    if (c.neighbour >= 0) v += c.neighbourWrench.col(row).dot(twists_.col(1 + c.neighbour));
    return v;
  };
  auto push = [&](int a, const Vec4& impulse) {
    const LocalContact& c = local_[a];
    twists_.col(0) += c.response * impulse;
    if (c.neighbour >= 0) twists_.col(1 + c.neighbour) += c.neighbourResponse * impulse;
  };
  auto frictionImpulse = [](const Vec3& f) { return Vec4(0.0, f[0], f[1], f[2]); };

  // The friction the body's contacts carry now (rows t, s, tau: the impulses on this body along its
  // signed rows, which are the lambda rows) and the twist it gives the body. The papers run one pass
  // from no friction; we repeat the passes (see solve()), and a pass starts from the friction found
  // so far. Choice: the normal stage (eq. 6) then sees the friction's twist, so normal and friction
  // stages alternate towards a fixed point where both hold at once (normal impulses that also carry
  // the friction's tipping torque). With one pass from zero, as in the papers, this is their method
  // unchanged. Without it a box on an incline with mu above tan(angle) slides: the friction stage
  // stops the contact points partly by rotating the box into the slope, which the coupling
  // projection (eq. 21) then takes back.
  Eigen::Matrix<double, 3, Eigen::Dynamic> friction(3, count);
  for (int a = 0; a < count; ++a) {
    friction.col(a) = lambda.segment<3>(4 * local_[a].k + kTangentT);
    push(a, frictionImpulse(friction.col(a)));
  }

  // Eq. 6: phi^+ = proj_T(phi^-) in the metric of eq. 5, T = {phi : every normal velocity >= 0}.
  // Solved through its dual, an LCP in the normal multipliers; r = phi^+ - phi^- = M^-1 G dual. With
  // dynamic neighbours the metric is the joint one (the block of J M^-1 J^T, see above).
  Eigen::VectorXd q(count), dual, alpha;
  for (int a = 0; a < count; ++a) q[a] = rowVelocity(a, kNormal);
  dual.resize(count);  // warm start: the normal impulses of the last pass
  for (int a = 0; a < count; ++a) dual[a] = lambda[4 * local_[a].k + kNormal];
  solveDenseLcp(jointDelassus_, q, kProjectionRidge, innerTolerance_, dual);
  for (int a = 0; a < count; ++a) push(a, Vec4(dual[a], 0.0, 0.0, 0.0));
  // The split of r among the contacts: eq. 7 (ffd) or eq. 11-13 (ffd-id), the alpha_k that bound
  // the friction (eq. 9, eq. 19).
  splitNormalImpulse(dual, alpha);
  // The normal impulses the step applies. In both papers the body moves by r itself (eq. 22:
  // phi^+ = phi^- + r + f; FFD likewise), and the split only bounds the friction. Plain FFD's eq. 7
  // split does not add up to r (on a box face with four coplanar contacts each corner gets about
  // half the total: twice the body's impulse), so applying it as the contact impulses pushes every
  // brick up by about twice its load, the next pass doubles that again, and a stack overflowed
  // within the first step. So ffd applies the projection's own multipliers (which give r exactly)
  // and keeps eq. 7's alpha for its friction bound, where the papers use it; ffd-id applies its
  // eq. 13 split, which reproduces r (it is an exact fit when r is in the range of C, as here).
  Eigen::VectorXd normal = variant_ == FfdVariant::Projection ? dual : alpha;

  // The friction carried over is first brought within the new bounds mu alpha (eq. 9, eq. 19).
  for (int a = 0; a < count; ++a) {
    const Vec3 bounded = clampFriction(friction.col(a), problem.blocks[local_[a].k].friction * alpha[a],
                                         variant_ == FfdVariant::Projection);
    push(a, frictionImpulse(bounded - friction.col(a)));
    friction.col(a) = bounded;
  }
  if (variant_ == FfdVariant::Projection) {
    // Eq. 9: f = proj_S(phi^-) bounded by mu alpha_k, i.e. maximal dissipation of the body's OWN
    // twist phi^- + r + f (the neighbours' motion is ignored: the flaw Fig. 3 and the Truck scene
    // show). Choices: (a) the direction set S_k is sampled by the contact frame's two tangent pairs
    // (+-t, +-s: a box, the paper uses 4 pairs) plus the spin about n bounded by mu_tau alpha (the
    // torsion row, the same box); (b) the projection is solved by projected Gauss-Seidel over these
    // rows in the body's own metric; (c) the third line of eq. 9 (n^T M f >= 0) is kept by the
    // projection onto T below, as FFD-ID's eq. 21. Without the bodies' own velocities (a problem not
    // built from bodies) the relative velocity stands in for the body's own.
    const bool hasOwn = static_cast<int>(problem.freeVelocity.size()) == problem.numSlots;
    const Vec6 own = hasOwn ? problem.freeVelocity[slot] : Vec6::Zero();
    const int sweeps = std::max(kInnerMinSweeps, kInnerRowUpdates / (3 * count));
    for (int sweep = 0; sweep < sweeps; ++sweep) {
      double change = 0.0, scale = std::numeric_limits<double>::min();
      for (int a = 0; a < count; ++a) {
        const LocalContact& c = local_[a];
        const ContactBlock& block = problem.blocks[c.k];
        for (int row = kTangentT; row <= kTorsion; ++row) {
          const double velocity = hasOwn ? c.wrench.col(row).dot(own + twists_.col(0)) : rowVelocity(a, row);
          // The step uses the contact's inverse mass with the neighbour's part: with the body's own
          // alone, the outer passes push the neighbours back and forth and overflow.
          const double inverseMass = c.inverseMass(row, row);
          const double bound = block.friction[row - 1] * alpha[a];
          double& beta = friction(row - 1, a);
          const double next = std::clamp(beta - velocity / inverseMass, -bound, bound);
          Vec4 impulse = Vec4::Zero();
          impulse[row] = next - beta;
          push(a, impulse);
          change = std::max(change, std::abs(next - beta) * inverseMass);
          scale = std::max(scale, std::abs(velocity));
          beta = next;
        }
      }
      if (change <= (innerTolerance_ > 0.0 ? innerTolerance_ : kInnerRoundOff * scale)) break;
    }
  } else {
    // Eq. 14-20, contact by contact. Choices: (a) V_rk is the relative velocity after the normal
    // impulse (phi^- + r against the neighbour's current twist); (b) the contacts are visited in
    // turn, each seeing the twist after the previous contacts' friction (eq. 20's sum built as it
    // goes): the paper evaluates every V_rk before any friction, and then a box sliding on four
    // corners has its sliding removed four times over and reversed; (c) eq. 18's impulse
    // -m_k |V_t| s_k = -m_k V_t is added to the friction carried over, and eq. 19's min(., mu alpha_k)
    // clamps the sum (from no friction, the paper's formula exactly); (d) the friction disc is the
    // ellipse of (mu_t, mu_s) (equal in practice), reached by radial scaling; (e) the paper has no
    // torsional friction (Table II: "rotating" friction only in Basin); we treat the spin about n like
    // eq. 17-19, the torsion row bounded by mu_tau alpha_k (the box the other solvers use).
    for (int a = 0; a < count; ++a) {
      const LocalContact& c = local_[a];
      const ContactBlock& block = problem.blocks[c.k];
      const Eigen::Vector2d sliding(rowVelocity(a, kTangentT), rowVelocity(a, kTangentS));
      const double speed = sliding.norm();
      Vec3 next = friction.col(a);
      if (speed > 0.0) {
        // Eq. 14: s_k opposes the tangential relative velocity; eq. 17: the equivalent mass along it,
        // with the neighbour's response added (the "combined system" of sec. IV-C; eq. 17 as written
        // against a static body; with the body's mass alone two equal sliding bodies would each
        // be stopped as if the other were fixed, twice the impulse that stops them).
        const Eigen::Vector2d u = sliding / speed;
        next.head<2>() -= sliding / (u.transpose() * c.inverseMass.block<2, 2>(kTangentT, kTangentT) * u);  // eq. 18
      }
      const double spin = rowVelocity(a, kTorsion);
      next[2] -= spin / c.inverseMass(kTorsion, kTorsion);
      next = clampFriction(next, block.friction * alpha[a], false);  // eq. 19
      push(a, frictionImpulse(next - friction.col(a)));  // eq. 20
      friction.col(a) = next;
    }
  }

  // Eq. 21 (and eq. 9's n^T M f >= 0 for ffd): the twist phi^- + r + f' projected onto T again; the
  // extra normal impulse this takes is split like r. Read as a projection of the final twist, not of
  // f' alone: T is a set of twists, and f' by itself is not one. Eq. 22's restitution term eps r is
  // not added: the problem's b already carries Newton's impact law (v_n^+ >= -eps v_n^-, in the
  // assembly), so the projection onto T includes the bounce; adding eps r would count it twice.
  bool penetrating = false;
  for (int a = 0; a < count; ++a) {
    q[a] = rowVelocity(a, kNormal);
    penetrating |= q[a] < 0.0;
  }
  if (penetrating) {
    Eigen::VectorXd coupling;
    dual.setZero(count);
    solveDenseLcp(jointDelassus_, q, kProjectionRidge, innerTolerance_, dual);
    if (variant_ == FfdVariant::Projection) {
      normal += dual;  // applied as the projection gives it, as r above
    } else {
      splitNormalImpulse(dual, coupling);
      normal += coupling;
    }
  }

  // The step's impulses replace the contacts' lambda (taken off w at the start).
  double merit = 0.0;
  for (int a = 0; a < count; ++a) {
    const LocalContact& c = local_[a];
    const ContactBlock& block = problem.blocks[c.k];
    const Vec4 next(normal[a], friction(0, a), friction(1, a), friction(2, a));
    frictionSplit_[c.k] = alpha[a];
    merit = std::max(merit, (next - lambda.segment<4>(4 * c.k)).cwiseAbs().cwiseProduct(block.diagonalA).maxCoeff());
    lambda.segment<4>(4 * c.k) = next;
    addInvMassJt(problem, c.k, next, w_);
  }
  return merit;
}

}  // namespace contactlab
