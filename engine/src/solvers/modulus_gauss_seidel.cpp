#include "solvers/modulus_gauss_seidel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/stage_timer.h"
#include "solvers/pgs.h"

namespace contactlab {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}

void ModulusGaussSeidel::setFixedBounds(Eigen::VectorXd lower, Eigen::VectorXd upper) {
  if (lower.size() != upper.size() || (lower.array() > upper.array()).any())
    throw std::invalid_argument("modulus-gs: fixed bounds need lower <= upper, one pair per row");
  fixedBounds_ = true;
  fixedLower_ = std::move(lower);
  fixedUpper_ = std::move(upper);
}

void ModulusGaussSeidel::clearFixedBounds() { fixedBounds_ = false; }

double ModulusGaussSeidel::merit(const Eigen::VectorXd& lambda, const Eigen::VectorXd& velocity,
                                 const Eigen::VectorXd& lower, const Eigen::VectorXd& upper) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const double e = lambda[i] - std::clamp(lambda[i] - velocity[i], lower[i], upper[i]);
    sum += e * e;
  }
  return std::sqrt(sum);
}

// The friction box of each contact for the current normal impulse, frozen for the coming sweep (see
// the header): normal row [0, inf); row 1 + j in [-mu_j lambda_n, mu_j lambda_n] with mu_j =
// friction[j], the same pairing of coefficients and rows as the PROX ellipsoid's semi-axes.
template <class Rows>
void ModulusGaussSeidel::updateBounds(const Rows& rows) {
  if (fixedBounds_) {
    lower_ = fixedLower_;
    upper_ = fixedUpper_;
    return;
  }
  lower_.resize(lambda_.size());
  upper_.resize(lambda_.size());
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec3 box = boxFrictionBounds(rows.friction(k), lambda_[4 * k + kNormal]);
    lower_[4 * k] = 0.0;
    upper_[4 * k] = kInfinity;
    lower_.segment<3>(4 * k + 1) = -box;
    upper_.segment<3>(4 * k + 1) = box;
  }
}

template <class Rows>
void ModulusGaussSeidel::computeVelocity(const Rows& rows) {
  velocity_.resize(lambda_.size());
  for (int k = 0; k < rows.numContacts(); ++k) velocity_.segment<4>(4 * k) = rows.velocity(k, lambda_);
}

// One outer iteration k -> k+1 of Method 3.2 (with l = 0, u = inf: Method 3.1), rows i = 1..m.
//
// The modulus variable. The paper derives Method 3.2 for 0 <= l < u "without loss of generality",
// i.e. for the shifted variable lambda - l, whose modulus variable x gives lambda = l + (2/gamma) x_+
// clamped to u. Friction rows have l = -mu lambda_n < 0, and l moves with lambda_n from sweep to
// sweep, so we keep the unshifted z = x + (gamma/2) l, which does not jump when l does. In z:
//   x_-          = max(0, (gamma/2) l_i - z_i)                (how far z lies below the lower bound)
//   z_i         <- z_i - gamma / (A_ii + gamma Omega_ii) (J_i v^{k+1,i} + b_i - 2 Omega_ii (x_-)_i)
//   lambda_i    <- p_BLCP((2/gamma) z_i) = clamp((2/gamma) z_i, l_i, u_i)
// For a normal row (l = 0) z is the paper's x and these are Method 3.1's lines. The paper writes
// lambda_i <- (2/gamma) p_BLCP(x_i), which for gamma != 2 would clamp x (not lambda) to [l, u]; we
// clamp lambda, which agrees with Method 3.1's lambda = (2/gamma) max{0, x} for l = 0, u = inf and
// with the paper's form for its gamma = 2. (Method 3.1's printed "(gamma/gamma) max" is read as
// 2/gamma, as in Method 2.2 and eq. 13.)
// A row at its upper bound has x_- = 0, so its z keeps climbing while w_i < 0 (lambda stays at u_i):
// the paper's Method 3.2 has no counterpart of x_- for the upper bound, and we keep it that way.
//
// Sparsity (sec. 3): in the body-space form J_i v^{k+1,i} + b_i is row i of the contact's velocity
// J_k w + b_k, and v^{k+1,i+1} = v^{k+1,i} + (M^-1 J^T)_{*i} dlambda_i. The four rows of one contact
// are updated in turn; while they are, only this contact's lambda changes, so its rows' velocities
// change by the contact's 4x4 diagonal block A_kk times the change: we read the velocity once per
// contact (rows.velocity) and write w once per contact with the contact's whole change
// (rows.addChange; the same numbers as writing w after every row). In the Delassus form the velocity
// is W's block row times lambda and there is no w to write.
template <class Rows>
void ModulusGaussSeidel::sweep(Rows& rows) {
  const double halfGamma = 0.5 * gamma_;
  for (int k = 0; k < rows.numContacts(); ++k) {
    const Vec4 diagonal = rows.diagonal(k);
    const Mat4& blockA = rows.diagonalBlock(k);
    const Vec4 v0 = rows.velocity(k, lambda_);
    const Vec4 start = lambda_.segment<4>(4 * k);
    Vec4 current = start;
    for (int r = 0; r < 4; ++r) {
      const int i = 4 * k + r;
      const double d = diagonal[r];  // D_ii = A_ii; Omega_ii = alpha D_ii
      if (!(d > 0.0)) continue;      // a row that moves nothing: lambda_i stays
      const double omega = alpha_ * d;
      const double vi = v0[r] + blockA.row(r).dot(current - start);
      const double xMinus = std::max(0.0, halfGamma * lower_[i] - z_[i]);
      z_[i] -= gamma_ / (d + gamma_ * omega) * (vi - 2.0 * omega * xMinus);
      current[r] = std::clamp(z_[i] / halfGamma, lower_[i], upper_[i]);
    }
    const Vec4 delta = current - start;
    if (delta != Vec4::Zero()) {
      rows.addChange(k, delta);
      lambda_.segment<4>(4 * k) = current;
    }
  }
}

SolveReport ModulusGaussSeidel::solve(const ContactProblem& problem, const SolverSettings& settings,
                                      Eigen::VectorXd& lambda) {
  bodySpaceRows_.bind(problem);
  return run(bodySpaceRows_, settings, lambda);
}

SolveReport ModulusGaussSeidel::solve(const DelassusProblem& problem, const SolverSettings& settings,
                                      Eigen::VectorXd& lambda) {
  return solveWithNaturalMap(problem, lambda, [&] {
    delassusRows_.bind(problem);
    return run(delassusRows_, settings, lambda);
  });
}

template <class Rows>
SolveReport ModulusGaussSeidel::run(Rows& rows, const SolverSettings& settings, Eigen::VectorXd& lambda) {
  if (rows.numContacts() == 0) return emptyProblemReport();
  const Stopwatch watch;
  SolveReport report;
  if (!(settings.modulus.alpha > 0.0) || !(settings.modulus.gamma > 0.0))
    throw std::invalid_argument("modulus-gs: alpha and gamma must be positive");
  if (fixedBounds_ && fixedLower_.size() != 4 * rows.numContacts())
    throw std::invalid_argument("modulus-gs: fixed bounds do not match the problem's rows");
  alpha_ = settings.modulus.alpha;
  gamma_ = settings.modulus.gamma;

  // Method 3.2's first lines: lambda^0 <- p_BLCP(lambda^0) (normal rows first: the friction box
  // depends on them), x^0 <- (gamma/2) lambda^0, v^{1,1} <- v + M^-1 J^T lambda^0. As in the paper,
  // only lambda is warm started: x^0 has no negative part, so the memory x_- (for a row at its lower
  // bound, w_i / (2 Omega_ii) at a solution) starts from zero every solve; with alpha gamma = 1 the
  // first sweep is then exactly projected Gauss-Seidel.
  lambda_ = lambda;
  for (int k = 0; k < rows.numContacts(); ++k) lambda_[4 * k] = std::max(0.0, lambda_[4 * k]);
  updateBounds(rows);
  lambda_ = lambda_.cwiseMax(lower_).cwiseMin(upper_);
  z_ = 0.5 * gamma_ * lambda_;
  rows.setIterate(lambda_);

  const Stopwatch iterating;
  while (report.iterations < settings.maxIterations) {
    previous_ = lambda_;
    sweep(rows);
    ++report.iterations;
    // Eq. 24 at lambda^{k+1}, with the bounds of lambda_n^{k+1}, which the next sweep uses.
    computeVelocity(rows);
    updateBounds(rows);
    const double res = merit(lambda_, velocity_, lower_, upper_);
    report.residualHistory.push_back(res);
    if (!std::isfinite(res)) {  // not in the paper: return the last finite iterate rather than NaN
      lambda_ = previous_;
      break;
    }
    report.residual = res;
    report.convergence = stoppingTest(settings, report.residualHistory);
    if (report.converged()) break;
  }
  report.iterationSeconds = iterating.elapsedSeconds();
  lambda = lambda_;
  report.seconds = watch.elapsedSeconds();
  return report;
}

}  // namespace contactlab
