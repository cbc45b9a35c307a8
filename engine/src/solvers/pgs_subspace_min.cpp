#include "solvers/pgs_subspace_min.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/stage_timer.h"

namespace contactlab {
namespace {

// The Fischer-Burmeister function: zero exactly when a >= 0, b >= 0 and a b = 0.
double fischerBurmeister(double a, double b) { return std::hypot(a, b) - a - b; }

}  // namespace

template <class Rows>
double PgsSubspaceMinimization::fischerMerit(const Rows& rows, const Eigen::VectorXd& lambda) {
  double sum = 0.0;
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec4 l = lambda.segment<4>(4 * k);
    const Vec4 y = rows.velocity(k, lambda);
    const Vec4 d = rows.diagonal(k);
    const double normal = fischerBurmeister(d[kNormal] * l[kNormal], y[kNormal]);
    sum += normal * normal;
    const Vec3 upper = boxFrictionBounds(rows.friction(k), l[kNormal]);
    for (int i = 1; i < 4; ++i) {
      const double phi = fischerBurmeister(d[i] * (l[i] + upper[i - 1]),
                                           fischerBurmeister(d[i] * (upper[i - 1] - l[i]), -y[i]));
      sum += phi * phi;
    }
  }
  return 0.5 * sum;
}

template <class Rows>
void PgsSubspaceMinimization::applyReduced(Rows& rows, double gamma, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
  rows.multiply(x, out);  // body-space: J (M^-1 J^T x), A never formed
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec4 ax = out.segment<4>(4 * k) + gamma * rows.diagonal(k).cwiseProduct(x.segment<4>(4 * k));
    for (int i = 0; i < 4; ++i) out[4 * k + i] = free_[4 * k + i] ? ax[i] : 0.0;
  }
}

template <class Rows>
void PgsSubspaceMinimization::subspaceStep(BoxGaussSeidelSweep<Rows>& sweep, const SolverSettings& settings) {
  lambda_ = sweep.lambda();
  Rows& rows = sweep.rows();
  const Eigen::Index rowCount = lambda_.size();
  free_.assign(rowCount, 0);
  rhs_.setZero(rowCount);
  int freeRows = 0;
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec4 l = lambda_.segment<4>(4 * k);
    const Vec4 y = rows.velocity(k, lambda_);
    // Alg. lines 7-9, eq. 19: a row is free (set A) strictly inside its bounds, else fixed at the
    // bound it sits on (L or U). PGS's projection puts a row exactly on its bound.
    const Vec3 upper = boxFrictionBounds(rows.friction(k), l[kNormal]);
    free_[4 * k] = l[kNormal] > 0.0;
    for (int i = 1; i < 4; ++i) free_[4 * k + i] = -upper[i - 1] < l[i] && l[i] < upper[i - 1];
    // Eq. 22 written for the correction x = lambda_F^new - lambda_F: with y = A lambda + b,
    // A_FF x = -(b_F + A_FF lambda_F + A_FB lambda_B) = -y_F.
    for (int i = 0; i < 4; ++i)
      if (free_[4 * k + i]) {
        rhs_[4 * k + i] = -y[i];
        ++freeRows;
      }
  }
  if (freeRows == 0) return;

  // Conjugate gradients, not preconditioned, as in the paper's experiments (sec. 5); the matrix is
  // A_FF + gamma diag(A_FF) (sec. 5.1's regularization, see SolverSettings::pgsSm.regularization).
  // A_FF is only positive semi-definite when the free rows outnumber the bodies' degrees of
  // freedom; a direction with p^T A p <= 0 ends the iteration with what it has.
  const double gamma = settings.pgsSm.regularization;
  const int maxIterations = settings.pgsSm.cgMaxIterations > 0 ? settings.pgsSm.cgMaxIterations : freeRows;
  const double stopNorm = settings.pgsSm.cgTolerance * rhs_.norm();
  x_.setZero(rowCount);
  residual_ = rhs_;
  direction_ = residual_;
  double rr = residual_.squaredNorm();
  for (int it = 0; it < maxIterations && std::sqrt(rr) > stopNorm; ++it) {
    applyReduced(rows, gamma, direction_, product_);
    const double curvature = direction_.dot(product_);
    if (!(curvature > 0.0)) break;
    const double alpha = rr / curvature;
    x_ += alpha * direction_;
    residual_ -= alpha * product_;
    const double next = residual_.squaredNorm();
    direction_ = residual_ + (next / rr) * direction_;
    rr = next;
  }
  lambda_ += x_;

  // Alg. lines 13-15: the bounds from the new normal impulses, eq. 24's projection of the free rows,
  // and the fixed rows on their (updated) bound.
  for (int k = 0; k < rows.numContacts(); ++k) {
    auto l = lambda_.segment<4>(4 * k);
    l[kNormal] = std::max(0.0, l[kNormal]);
    const Vec3 upper = boxFrictionBounds(rows.friction(k), l[kNormal]);
    for (int i = 1; i < 4; ++i) {
      const double u = upper[i - 1];
      if (free_[4 * k + i])
        l[i] = std::clamp(l[i], -u, u);
      else
        l[i] = l[i] > 0.0 ? u : (l[i] < 0.0 ? -u : 0.0);
    }
  }
  sweep.setIterate(lambda_);
}

SolveReport PgsSubspaceMinimization::solve(const ContactProblem& problem, const SolverSettings& settings,
                                           Eigen::VectorXd& lambda) {
  rFactors_.initialize(RFactorStrategy::Local, problem);
  bodySpaceSweep_.prepare(problem);
  return run(bodySpaceSweep_, settings, lambda);
}

SolveReport PgsSubspaceMinimization::solve(const DelassusProblem& problem, const SolverSettings& settings,
                                           Eigen::VectorXd& lambda) {
  return solveWithNaturalMap(problem, lambda, [&] {
    rFactors_.initialize(RFactorStrategy::Local, problem);
    delassusSweep_.prepare(problem);
    return run(delassusSweep_, settings, lambda);
  });
}

template <class Rows>
SolveReport PgsSubspaceMinimization::run(BoxGaussSeidelSweep<Rows>& sweep, const SolverSettings& settings,
                                         Eigen::VectorXd& lambda) {
  if (sweep.rows().numContacts() == 0) return emptyProblemReport();
  const Stopwatch watch;
  SolveReport report;
  sweep.setIterate(lambda);
  const auto meritOfSweep = [&] { return fischerMerit(sweep.rows(), sweep.lambda()); };

  double merit = meritOfSweep();
  double bestMerit = std::isfinite(merit) ? merit : std::numeric_limits<double>::infinity();
  best_ = sweep.lambda();
  report.residual = merit;
  if (settings.tolAbs > 0.0 && merit < settings.tolAbs) {  // the warm start is already a solution
    report.convergence = Convergence::Absolute;
    report.seconds = watch.elapsedSeconds();
    return report;
  }

  auto record = [&](double m) {
    ++report.iterations;
    report.residualHistory.push_back(m);
    report.rFactorHistory.push_back(1.0);
    if (m < bestMerit) {  // false for NaN
      bestMerit = m;
      best_ = sweep.lambda();
    }
  };
  // Termination (alg. lines 3 and 16): eq. 25, psi < tolAbs, and eq. 27, stagnation between two
  // tests, |psi_prev - psi| < tolRel psi_prev (the paper's (27) has no absolute value, which would
  // stop at every decrease; we read it as stagnation, as the text says).
  double previousTested = merit;
  // The stall test (stoppingTest) reads every sweep's merit, as for the other solvers.
  auto terminated = [&](double m) {
    const bool absolute = settings.tolAbs > 0.0 && m < settings.tolAbs;
    const bool relative = settings.tolRel > 0.0 && std::isfinite(previousTested) && std::isfinite(m) &&
                          std::abs(previousTested - m) < settings.tolRel * previousTested;
    previousTested = m;
    const bool stall = stalled(settings.stallWindow, report.residualHistory);
    if (absolute || relative || stall)
      report.convergence = absolute ? Convergence::Absolute : relative ? Convergence::Relative : Convergence::Stalled;
    return absolute || relative || stall;
  };

  const int pgsSweeps = std::max(1, settings.pgsSm.pgsSweeps);
  bool done = false;
  const Stopwatch iterating;
  while (!done && report.iterations < settings.maxIterations) {
    // Alg. line 2: the PGS phase, k_pgs sweeps (or what the iteration budget leaves).
    for (int i = 0; i < pgsSweeps && report.iterations < settings.maxIterations; ++i) {
      sweep.sweep(rFactors_);
      merit = meritOfSweep();
      record(merit);
    }
    if (terminated(merit)) break;
    // Lines 6-19: the subspace phase.
    for (int i = 0; i < settings.pgsSm.subspaceSteps && report.iterations < settings.maxIterations; ++i) {
      subspaceStep(sweep, settings);
      merit = meritOfSweep();
      record(merit);
      if (!std::isfinite(merit)) {
        // The reduced system had no usable solution (sec. 5's blow-ups): back to the best iterate,
        // and on with PGS.
        ++report.rollbacks;
        sweep.setIterate(best_);
        merit = bestMerit;
        break;
      }
      if (terminated(merit)) {
        done = true;
        break;
      }
    }
  }
  // Sec. 4.3: "a fall back to the best iterate found while iterating".
  if (!(merit <= bestMerit)) {
    ++report.rollbacks;
    sweep.setIterate(best_);
    merit = bestMerit;
  }
  report.iterationSeconds = iterating.elapsedSeconds();
  report.residual = merit;
  lambda = sweep.lambda();
  report.seconds = watch.elapsedSeconds();
  return report;
}

template double PgsSubspaceMinimization::fischerMerit(const BodySpaceRows&, const Eigen::VectorXd&);
template double PgsSubspaceMinimization::fischerMerit(const DelassusRows&, const Eigen::VectorXd&);

}  // namespace contactlab
