#include "solvers/prox/prox_operators.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace contactlab {
namespace {

// Both closest-point searches below solve a secular equation S(t) = sum_i c_i / (d_i + t)^2 = 1
// (c_i >= 0, d_i > 0) for t >= 0 by bisection down to the resolution of doubles, about 50 sweeps of
// the interval that each evaluate S: that was most of the solver's time. The bisection stays (sec.
// 4.1: Newton alone can diverge on the flat part), but is told where the root is, so it evaluates S
// only where that knowledge does not already decide. The result is bit for bit the plain bisection's.

// Newton's estimate of the root of S(t) = 1 from t0 >= 0, used only as a hint. Iterating on
// S^(-1/2) - 1, which is exactly linear in t for one term (one step then lands on the root) and
// concave in general (a power mean of the d_i + t), so the iterates rise monotonically to the root.
double secularRootEstimate(const double* c, const double* d, int n, double t0) {
  double t = t0;
  for (int iteration = 0; iteration < 16; ++iteration) {
    double s = 0.0, slope = 0.0;  // S(t) and -S'(t) / 2
    for (int i = 0; i < n; ++i) {
      const double inverse = 1.0 / (d[i] + t);
      const double term = c[i] * inverse * inverse;
      s += term;
      slope += term * inverse;
    }
    const double step = s * (std::sqrt(s) - 1.0) / slope;  // -(S^(-1/2) - 1) / (S^(-1/2) - 1)'
    if (!(step > 1e-16 * t)) break;
    t += step;
  }
  return t;
}

// The bisection `while (high - low > 1e-15 high) { mid = (low + high) / 2; (beforeRoot(mid) ? low :
// high) = mid; }` (at most 200 halvings), returning the final `high`. beforeRoot must be monotone: true
// below some point, false from there on, as the computed secular function is (every rounded
// operation in it is monotone in t). Given beforeRoot(low) and !beforeRoot(high), two evaluations
// around `hint` bracket the switch closely; midpoints outside that bracket are decided without
// evaluating, so a good hint leaves a handful of evaluations instead of about 50.
template <class BeforeRoot>
double bisectWithHint(double low, double high, double hint, BeforeRoot beforeRoot) {
  double knownBefore = low, knownAfter = high;  // beforeRoot holds at and below the first, fails from the second
  auto decide = [&](double t) {
    bool before = t <= knownBefore;
    // Non-short-circuit &: the known cases are the common ones, and their outcome is a coin toss
    // the branch predictor would miss half the time.
    if (!before & (t < knownAfter)) {
      before = beforeRoot(t);
      (before ? knownBefore : knownAfter) = t;
    }
    return before;
  };
  if (hint > low && hint < high) {
    // Probe the other side of the hint with a step that grows until the switch is bracketed.
    const double direction = decide(hint) ? 1.0 : -1.0;
    for (double step = 4e-16 * hint; knownAfter - knownBefore > step; step *= 16.0) {
      const double probe = hint + direction * step;
      if (decide(probe) != (direction > 0.0)) break;
    }
  }
  for (int iteration = 0; iteration < 200 && high - low > 1e-15 * high; ++iteration) {
    const double mid = 0.5 * (low + high);
    const bool before = decide(mid);
    low = before ? mid : low;  // selects rather than a branch, for the same reason
    high = before ? high : mid;
  }
  return high;
}

// g(t) of eq. 35 over the coordinates with a positive semi-axis; flattened ones contribute nothing.
double ellipsoidRootFunction(double t, const Vec3& z, const Vec3& squaredAxes, int dims) {
  double g = -1.0;
  for (int i = 0; i < dims; ++i) {
    const double q = squaredAxes[i] * z[i] / (squaredAxes[i] + t);
    g += q * q / squaredAxes[i];
  }
  return g;
}

// Closest point on an ellipsoid (or ellipse, dims = 2) to an outside point, by the bracketed
// bisection of sec. 4.1 on the problem scaled into the unit cube (eqs. 36-38). The paper found
// Newton-Raphson to diverge on the flat part of g; bisection cannot.
Vec3 projectOutsidePoint(Vec3 z, Vec3 axes, int dims) {
  // eq. 37: scale so every axis and coordinate is at most one.
  const double largest = std::max({1.0, axes.cwiseAbs().maxCoeff(), z.cwiseAbs().maxCoeff()});
  const double scale = 1.0 / largest;
  z *= scale;
  axes *= scale;
  const Vec3 squaredAxes = axes.cwiseProduct(axes);

  // eq. 36 and the expansion t_max = alpha^k t_guess with alpha = 1.5 until g(t_max) < 0.
  constexpr double kExpansion = 1.5;
  double tLow = 0.0;
  double tHigh = std::max(axes.head(dims).maxCoeff() * z.head(dims).norm(), 1e-300);
  while (ellipsoidRootFunction(tHigh, z, squaredAxes, dims) >= 0.0) {
    tLow = tHigh;
    tHigh *= kExpansion;
  }
  // Bisect down to the resolution of doubles; tHigh always has g < 0, so the answer is feasible.
  // S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2.
  const Vec3 weights = squaredAxes.cwiseProduct(z).cwiseProduct(z);
  const double hint = secularRootEstimate(weights.data(), squaredAxes.data(), dims, tLow);
  tHigh = bisectWithHint(tLow, tHigh, hint,
                         [&](double t) { return ellipsoidRootFunction(t, z, squaredAxes, dims) >= 0.0; });
  // eq. 32: x* = (tK + I)^-1 z, then undo the scaling.
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < dims; ++i) x[i] = squaredAxes[i] * z[i] / (squaredAxes[i] + tHigh);
  return x / scale;
}

// Which coordinates have a positive semi-axis (the rest are pinned to zero), in a stable order;
// written out because std::stable_partition allocates a buffer on every call.
int activeAxes(const Vec3& semiAxes, int order[3]) {
  int dims = 0;
  for (int i = 0; i < 3; ++i)
    if (semiAxes[i] > 0.0) order[dims++] = i;
  for (int i = 0, next = dims; i < 3; ++i)
    if (!(semiAxes[i] > 0.0)) order[next++] = i;
  return dims;
}

// min (x - c)^T G (x - c) over the unit-free ellipsoid {S y : |y| <= 1}, S = diag(axes), on `dims`
// coordinates: with H = S G S and g = S G c this is the trust-region problem min y^T H y / 2 - g^T y,
// |y| <= 1, solved by (H + t I) y = g with the t >= 0 that puts y on the sphere (bisection on the
// secular equation in H's eigenbasis, monotone in t like eq. 35).
template <int Dims>
Eigen::Matrix<double, Dims, 1> projectInMetric(const Eigen::Matrix<double, Dims, 1>& center,
                                               const Eigen::Matrix<double, Dims, 1>& axes,
                                               const Eigen::Matrix<double, Dims, Dims>& metric) {
  using Vec = Eigen::Matrix<double, Dims, 1>;
  if (center.cwiseQuotient(axes).squaredNorm() <= 1.0) return center;
  const Eigen::Matrix<double, Dims, Dims> h = axes.asDiagonal() * metric * axes.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, Dims, Dims>> eigen(h);
  const Vec g = eigen.eigenvectors().transpose() * (axes.asDiagonal() * (metric * center));
  const Vec values = eigen.eigenvalues();
  auto outside = [&](double t) { return (g.array() / (values.array() + t)).matrix().squaredNorm() > 1.0; };
  const double tHigh0 = std::max(g.norm(), 1e-300);  // |y(t)| <= |g| / t, so |y(|g|)| <= 1
  const Vec weights = g.cwiseProduct(g);               // S(t) = |y(t)|^2 = sum_i g_i^2 / (values_i + t)^2
  // Rounding can leave H with a zero or negative eigenvalue when the axes differ by many orders of
  // magnitude; `outside` is then not monotone and the plain bisection must decide alone.
  const double hint = values.minCoeff() > 0.0 ? secularRootEstimate(weights.data(), values.data(), Dims, 0.0)
                                              : std::numeric_limits<double>::quiet_NaN();
  const double tHigh = bisectWithHint(0.0, tHigh0, hint, outside);
  const Vec y = eigen.eigenvectors() * (g.array() / (values.array() + tHigh)).matrix();
  return axes.asDiagonal() * y;
}

}  // namespace

Vec3 proxEllipsoidInMetric(const Vec3& z, const Vec3& semiAxes, const Mat3& metric) {
  int order[3];
  const int dims = activeAxes(semiAxes, order);
  if (dims == 0) return Vec3::Zero();
  // Permute the active coordinates first; pinning the others to zero moves the centre of the
  // quadratic to c_a = z_a + G_aa^-1 G_ap z_p (p: pinned coordinates).
  Eigen::PermutationMatrix<3> permutation;
  for (int i = 0; i < 3; ++i) permutation.indices()[i] = order[i];
  const Mat3 g = permutation.transpose() * metric * permutation;
  const Vec3 zp = permutation.transpose() * z;
  const Vec3 axes = permutation.transpose() * semiAxes;
  Vec3 x = Vec3::Zero();
  switch (dims) {
    case 3: x = projectInMetric<3>(zp, axes, g); break;
    case 2: {
      const Eigen::Vector2d center =
          zp.head<2>() + g.topLeftCorner<2, 2>().ldlt().solve(g.topRightCorner<2, 1>() * zp[2]);
      x.head<2>() = projectInMetric<2>(center, axes.head<2>(), g.topLeftCorner<2, 2>());
      break;
    }
    default: {
      const double center = zp[0] + g.row(0).tail<2>().dot(zp.tail<2>()) / g(0, 0);
      x[0] = std::clamp(center, -axes[0], axes[0]);
    }
  }
  return permutation * x;
}

Vec3 proxEllipsoidInDiagonalMetric(const Vec3& z, const Vec3& semiAxes, const Vec3& sqrtMetric) {
  return proxEllipsoid(z.cwiseProduct(sqrtMetric), semiAxes.cwiseProduct(sqrtMetric)).cwiseQuotient(sqrtMetric);
}

Vec3 proxEllipsoid(const Vec3& z, const Vec3& semiAxes) {
  // Move the flattened axes last so the search works on the leading `dims` coordinates.
  int order[3];
  const int dims = activeAxes(semiAxes, order);

  Vec3 zPermuted, axesPermuted;
  for (int i = 0; i < 3; ++i) {
    zPermuted[i] = i < dims ? z[order[i]] : 0.0;
    axesPermuted[i] = semiAxes[order[i]];
  }

  Vec3 xPermuted = Vec3::Zero();
  if (dims > 0) {
    double inside = 0.0;  // f(z) + 1 of eq. 28
    for (int i = 0; i < dims; ++i) inside += (zPermuted[i] / axesPermuted[i]) * (zPermuted[i] / axesPermuted[i]);
    if (inside <= 1.0) {
      xPermuted = zPermuted;
    } else if (dims == 1) {
      xPermuted[0] = std::clamp(zPermuted[0], -axesPermuted[0], axesPermuted[0]);
    } else if (dims == 2 && axesPermuted[0] == axesPermuted[1]) {
      // The friction disk (no torsion, isotropic): the closest point is the radial clamp.
      xPermuted.head<2>() = zPermuted.head<2>() * (axesPermuted[0] / zPermuted.head<2>().norm());
    } else {
      xPermuted = projectOutsidePoint(zPermuted, axesPermuted, dims);
    }
  }
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < dims; ++i) x[order[i]] = xPermuted[i];
  return x;
}

}  // namespace contactlab
