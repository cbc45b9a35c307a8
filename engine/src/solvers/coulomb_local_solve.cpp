#include "solvers/coulomb_local_solve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "problem/natural_map.h"

namespace contactlab {
namespace {

// A candidate is accepted when its natural-map error (natural_map.h, the benchmark's measure) is
// below this fraction of the problem's magnitude: the closed forms and the quartic's roots are
// exact up to rounding, so a true solution passes by many orders, and a root of the quartic that
// is not a solution (a negative slip, say) fails by the slip's own size.
constexpr double kLawTolerance = 1e-9;

// The real roots of the monic cubic y^3 + c2 y^2 + c1 y + c0 (one or three), ascending: the
// closed forms for the depressed cubic (Cardano's for one real root, the trigonometric one for
// three), then two Newton steps each, since the closed forms lose digits to cancellation.
int cubicRoots(double c2, double c1, double c0, double (&roots)[3]) {
  const double shift = c2 / 3.0;  // y = x - shift gives x^3 + p x + q
  const double p = c1 - c2 * shift;
  const double q = c0 - c1 * shift + 2.0 * shift * shift * shift;
  const double halfQ = 0.5 * q, thirdP = p / 3.0;
  const double discriminant = halfQ * halfQ + thirdP * thirdP * thirdP;
  int count = 1;
  if (discriminant >= 0.0) {
    const double root = std::sqrt(discriminant);
    roots[0] = std::cbrt(-halfQ + root) + std::cbrt(-halfQ - root) - shift;
  } else {  // three real roots; p < 0 here
    const double m = 2.0 * std::sqrt(-thirdP);
    const double angle = std::acos(std::clamp(3.0 * q / (p * m), -1.0, 1.0)) / 3.0;
    for (int k = 0; k < 3; ++k) roots[k] = m * std::cos(angle - 2.0 * std::numbers::pi * k / 3.0) - shift;
    count = 3;
  }
  for (int k = 0; k < count; ++k)
    for (int step = 0; step < 2; ++step) {
      const double y = roots[k];
      const double slope = (3.0 * y + 2.0 * c2) * y + c1;
      if (slope != 0.0) roots[k] = y - (((y + c2) * y + c1) * y + c0) / slope;
    }
  std::sort(roots, roots + count);
  return count;
}

// The monic quartic x^4 + a[3] x^3 + a[2] x^2 + a[1] x + a[0] and its derivative.
double quartic(const double (&a)[4], double x) { return (((x + a[3]) * x + a[2]) * x + a[1]) * x + a[0]; }
double quarticSlope(const double (&a)[4], double x) { return ((4.0 * x + 3.0 * a[3]) * x + 2.0 * a[2]) * x + a[1]; }

// The root in [low, high], where the quartic is monotone and changes sign: Newton's method kept
// inside the shrinking bracket (a step that would leave it is replaced by bisection).
double bracketedQuarticRoot(const double (&a)[4], double low, double high) {
  const bool lowNegative = quartic(a, low) < 0.0;
  double x = 0.5 * (low + high);
  for (int iteration = 0; iteration < 100; ++iteration) {
    const double value = quartic(a, x);
    if (value == 0.0) return x;
    ((value < 0.0) == lowNegative ? low : high) = x;
    const double slope = quarticSlope(a, x);
    double next = slope != 0.0 ? x - value / slope : low;
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    const double resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(next));
    if (std::abs(next - x) <= resolution || high - low <= resolution) return next;
    x = next;
  }
  return x;
}

// The real roots x >= 0 of the monic quartic (at most four). Its critical points (the roots of the
// cubic derivative) split [0, bound] into pieces on which it is monotone; each piece whose ends
// differ in sign holds one root. bound is Cauchy's, 1 + max |a_i|. A critical point where the
// quartic is zero to rounding (a double root, which no sign change shows) counts too.
int nonNegativeQuarticRoots(const double (&a)[4], double (&roots)[4]) {
  const double bound = 1.0 + std::max({std::abs(a[0]), std::abs(a[1]), std::abs(a[2]), std::abs(a[3])});
  double critical[3];
  const int criticalCount = cubicRoots(0.75 * a[3], 0.5 * a[2], 0.25 * a[1], critical);
  double ends[5];
  int endCount = 0;
  ends[endCount++] = 0.0;
  for (int k = 0; k < criticalCount; ++k)
    if (critical[k] > 0.0 && critical[k] < bound) ends[endCount++] = critical[k];
  ends[endCount++] = bound;
  // Zero to rounding: below a few ulps of the sum of the terms' magnitudes.
  auto roundingLevel = [&](double x) {
    return 64.0 * std::numeric_limits<double>::epsilon() *
           ((((x + std::abs(a[3])) * x + std::abs(a[2])) * x + std::abs(a[1])) * x + std::abs(a[0]));
  };
  int count = 0;
  for (int k = 0; k + 1 < endCount && count < 4; ++k) {
    const double low = ends[k], high = ends[k + 1];
    const double lowValue = quartic(a, low), highValue = quartic(a, high);
    if ((lowValue < 0.0) != (highValue < 0.0)) roots[count++] = bracketedQuarticRoot(a, low, high);
    else if (std::abs(lowValue) <= (k == 0 ? 0.0 : roundingLevel(low))) roots[count++] = low;
  }
  return count;
}

}  // namespace

std::optional<Vec3> solveCoulombContact(const Mat3& a, const Vec3& b, double muT, double muS, const Vec3& previous) {
  std::optional<Vec3> best;
  double bestDistance = std::numeric_limits<double>::infinity();
  const Vec3 friction(muT, muS, 0.0);
  const double problemSize = b.cwiseAbs().maxCoeff();
  // Keeps r if it satisfies the law (natural-map error small against |r|, |A r| and |b|) and is
  // nearer `previous` than any kept before.
  auto consider = [&](const Vec3& r) {
    const Vec3 ar = a * r;
    const double size = std::max({problemSize, ar.cwiseAbs().maxCoeff(), r.cwiseAbs().maxCoeff()});
    const Vec4 impulse(r[0], r[1], r[2], 0.0), velocity(ar[0] + b[0], ar[1] + b[1], ar[2] + b[2], 0.0);
    if (!(naturalMapError(impulse, velocity, friction) <= kLawTolerance * size)) return;
    const double distance = (r - previous).squaredNorm();
    if (distance < bestDistance) {
      best = r;
      bestDistance = distance;
    }
  };

  if (muT == 0.0 && muS == 0.0) {  // frictionless: r_f = 0, complementarity on the normal row alone
    if (b[0] >= 0.0) consider(Vec3::Zero());
    else if (a(0, 0) > 0.0) consider(Vec3(-b[0] / a(0, 0), 0.0, 0.0));
    return best;
  }
  if (!(muT > 0.0 && muS > 0.0)) return std::nullopt;

  // Take-off and sticking.
  if (b[0] >= 0.0) consider(Vec3::Zero());
  Mat3 inverse;
  bool invertible = false;
  double determinant = 0.0;
  a.computeInverseAndDetWithCheck(inverse, determinant, invertible);
  if (invertible) consider(-(inverse * b));

  // Sliding. Scale the tangent rows by mu: with S = diag(1, mu_t, mu_s), r = S rho, A' = S A S and
  // b' = S b, the disk becomes |rho_f| <= rho_n and maximal dissipation v'_f = -beta rho_f, the
  // isotropic law with mu = 1. Sliding in the unit direction e: rho_f = -rho_n e, and v'_n = 0
  // gives rho_n = -b'_n / (A'_nn - A'_nf e), positive when b'_n < 0 and the denominator is. The
  // slip v'_f = A'_fn rho_n - rho_n A'_ff e + b'_f must be beta rho_n e with beta >= 0; times the
  // denominator that reads c + P e = gamma e with gamma = beta rho_n (A'_nn - A'_nf e) >= 0,
  //   c = A'_nn b'_f - b'_n A'_fn,   P = b'_n A'_ff - b'_f A'_nf^T   (2-vector, 2x2).
  // So e = (gamma I - P)^-1 c = adj(gamma I - P) c / det(gamma I - P) with |e| = 1: gamma is a
  // root >= 0 of det(gamma I - P)^2 - |adj(gamma I - P) c|^2, a quartic (det is quadratic and adj
  // linear in gamma). c and P are scaled to unit size first, which scales gamma alike.
  const Vec3 scale(1.0, muT, muS);
  const Mat3 as = scale.asDiagonal() * a * scale.asDiagonal();
  const Vec3 bs = scale.cwiseProduct(b);
  if (!(bs[0] < 0.0)) return best;
  const Eigen::Vector2d normalRow = as.block<1, 2>(0, 1).transpose(), normalColumn = as.block<2, 1>(1, 0);
  const Eigen::Vector2d tangentB = bs.tail<2>();
  Eigen::Vector2d c = as(0, 0) * tangentB - bs[0] * normalColumn;
  Eigen::Matrix2d p = bs[0] * as.block<2, 2>(1, 1) - tangentB * normalRow.transpose();
  const double size = std::max(p.cwiseAbs().maxCoeff(), c.cwiseAbs().maxCoeff());
  if (!(size > 0.0 && std::isfinite(size))) return best;
  c /= size;
  p /= size;
  const double trace = p.trace(), determinantP = p.determinant();
  // adj(gamma I - P) c = gamma c + w.
  const Eigen::Vector2d w(-p(1, 1) * c[0] + p(0, 1) * c[1], p(1, 0) * c[0] - p(0, 0) * c[1]);
  const double coefficients[4] = {determinantP * determinantP - w.squaredNorm(),
                                  -2.0 * trace * determinantP - 2.0 * c.dot(w),
                                  trace * trace + 2.0 * determinantP - c.squaredNorm(), -2.0 * trace};
  double roots[4];
  const int rootCount = nonNegativeQuarticRoots(coefficients, roots);
  for (int k = 0; k < rootCount; ++k) {
    const double gamma = roots[k];
    const double shiftedDeterminant = (gamma - p(0, 0)) * (gamma - p(1, 1)) - p(0, 1) * p(1, 0);
    if (shiftedDeterminant == 0.0) continue;
    Eigen::Vector2d direction = (gamma * c + w) / shiftedDeterminant;
    const double length = direction.norm();
    if (!(length > 0.0)) continue;
    direction /= length;  // |e| = 1 up to the root's rounding
    const double denominator = as(0, 0) - normalRow.dot(direction);
    if (!(denominator > 0.0)) continue;
    const double normal = -bs[0] / denominator;
    consider(Vec3(normal, -normal * muT * direction[0], -normal * muS * direction[1]));
  }
  return best;
}

}  // namespace contactlab
