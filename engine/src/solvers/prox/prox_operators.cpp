#include "solvers/prox/prox_operators.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace contactlab {
namespace {

// Both closest-point searches below solve a secular equation S(t) = sum_i c_i / (d_i + t)^2 = 1
// (c_i >= 0, d_i > 0) for t >= 0, given a bracket [low, high] with S(low) >= 1 > S(high) (for the
// ellipsoid, S = g + 1 of eq. 35 and the bracket is eq. 36's).
//
// Root finder: safeguarded Newton inside the bracket. The paper (sec. 4.1) found plain Newton on g
// unreliable: g is steep left of the root and flat right of it, so a step from the flat side
// overshoots past the poles at t = -d_i, and a step from the steep side creeps (x1.5 per step when
// a small torsion axis dominates). Two changes make it safe and fast:
//  - Newton runs on S^(-1/2) - 1, which has the same root, is exactly linear in t for one term (one
//    step lands on the root) and concave in general (a power mean of the d_i + t), so from the
//    left the iterates rise monotonically to the root and never overshoot in exact arithmetic;
//  - every evaluation shrinks the bracket (by the sign of S - 1), and a step that would leave it
//    is replaced by the midpoint, so the iteration cannot diverge; at worst it is the bisection.
// It stops when the bracket or the Newton step is below kRootTolerance relative (quadratic
// convergence: a few steps instead of bisection's ~50 halvings) and returns the bracket end with
// S < 1, so the projected point is feasible: when Newton converges from the left we evaluate once
// just past its root to get that end. Results differ from the exact bisection in the last bits.
constexpr double kRootTolerance = 1e-12;

struct SecularValue {
  double s;      // S(t)
  double slope;  // -S'(t) / 2
};

// The term count n is a template parameter in what follows, so that the loops over the two or three
// terms unroll: these run for every friction projection of an outside point.
template <int n>
inline SecularValue secularValue(const double* c, const double* d, double t) {
  SecularValue v{0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    const double inverse = 1.0 / (d[i] + t);
    const double term = c[i] * inverse * inverse;
    v.s += term;
    v.slope += term * inverse;
  }
  return v;
}

// The t in [low, high] with S(t) = 1 (see above); useNewton = false when some d_i <= 0 (then S is
// not convex on the whole bracket and only the bisection is safe). x_i = c_i' / (d_i + t) moves
// by |dt| / (d_i + t) relative when t moves by dt, so t is wanted to kRootTolerance * (t + min d_i).
template <int n>
double secularRoot(const double* c, const double* d, double low, double high, bool useNewton) {
  // S(t) >= c_i / (d_i + t)^2 for each i, so the root is at least the largest one-term root
  // sqrt(c_i) - d_i: a start left of the root (Newton then rises monotonically) and close to it
  // when one term dominates, as the torsion term does for a contact spinning against mu_tau.
  double smallestD = d[0], oneTermRoot = low;
  for (int i = 0; i < n; ++i) {
    smallestD = std::min(smallestD, d[i]);
    oneTermRoot = std::max(oneTermRoot, std::sqrt(c[i]) - d[i]);
  }
  smallestD = std::max(smallestD, 0.0);
  auto resolution = [&](double t) { return kRootTolerance * (t + smallestD) + 1e-300; };
  double t = !useNewton ? 0.5 * (low + high) : oneTermRoot < high ? oneTermRoot : low;
  double pastOffset = 0.0;  // how far beyond a converged left iterate we look for S < 1
  for (int iteration = 0; iteration < 200; ++iteration) {
    const SecularValue v = secularValue<n>(c, d, t);
    const bool beforeRoot = v.s >= 1.0;
    (beforeRoot ? low : high) = t;
    if (high - low <= resolution(high)) break;
    double next = 0.5 * (low + high);
    if (useNewton) {
      const double step = v.s * (std::sqrt(v.s) - 1.0) / v.slope;  // -(S^(-1/2) - 1) / (S^(-1/2) - 1)'
      if (std::abs(step) <= resolution(t)) {
        // Converged. From the right, high = t is within |step| of the root: done. From the left,
        // look just past the root (further each time, as S may be flat there to rounding) so
        // that high lands within the resolution.
        if (!beforeRoot) break;
        pastOffset = std::max({2.0 * std::abs(step), 16.0 * pastOffset, 1e-3 * resolution(t)});
        if (t + pastOffset < high) next = t + pastOffset;
      } else if (t + step > low && t + step < high) {
        next = t + step;
        // Convergence is quadratic: a step from the left lands about step^2 / (t + min d_i) short
        // of the root. Once that is below the resolution, aim just past the root at once; the
        // evaluation there then ends the search (S < 1, and the step back is within the resolution)
        // instead of first confirming the Newton point. If the aim falls short, the search goes on.
        const double scale = t + smallestD;
        if (beforeRoot && std::abs(step) <= 5e-7 * scale) {
          const double aimed = next + 2.0 * step * step / scale + 1e-3 * resolution(next);
          if (aimed < high) next = aimed;
        }
      }
    }
    t = next;
  }
  return high;
}

// g(t) of eq. 35 over the coordinates with a positive semi-axis; flattened ones contribute nothing.
template <int dims>
double ellipsoidRootFunction(double t, const Vec3& z, const Vec3& squaredAxes) {
  double g = -1.0;
  for (int i = 0; i < dims; ++i) {
    const double q = squaredAxes[i] * z[i] / (squaredAxes[i] + t);
    g += q * q / squaredAxes[i];
  }
  return g;
}

// Closest point on an ellipsoid (or ellipse, dims = 2) to an outside point: sec. 4.1's root of g
// (eq. 35) in the bracket of eq. 36 on the problem scaled into the unit cube (eqs. 37-38), found by
// the safeguarded Newton iteration of secularRoot instead of bisection.
template <int dims>
Vec3 projectOutsidePoint(Vec3 z, Vec3 axes) {
  // eq. 37: scale so every axis and coordinate is at most one.
  const double largest = std::max({1.0, axes.cwiseAbs().maxCoeff(), z.cwiseAbs().maxCoeff()});
  const double scale = 1.0 / largest;
  z *= scale;
  axes *= scale;
  const Vec3 squaredAxes = axes.cwiseProduct(axes);

  // eq. 36 and the expansion t_max = alpha^k t_guess with alpha = 1.5 until g(t_max) < 0.
  constexpr double kExpansion = 1.5;
  double tLow = 0.0;
  // Written out: Eigen's dynamic-size head() reductions on a Vec3 trip GCC 12's -Warray-bounds.
  double largestAxis = 0.0, zSquaredNorm = 0.0;
  for (int i = 0; i < dims; ++i) largestAxis = std::max(largestAxis, axes[i]), zSquaredNorm += z[i] * z[i];
  const double zNorm = std::sqrt(zSquaredNorm);
  double tHigh = std::max(largestAxis * zNorm, 1e-300);
  // At t = a_max |z|, S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2 is at most
  // (1 + a_max / |z|)^-2 when a_max <= |z| (each term grows with a_i^2 <= t) and below 1/4 otherwise
  // (a_i^2 z_i^2 / (a_i^2 + t)^2 <= z_i^2 / 4t). So g < 0 holds by a margin of about 2 a_max / |z|,
  // far above rounding unless a_max / |z| is below kExpansionNeeded: only then is g evaluated and t
  // expanded.
  constexpr double kExpansionNeeded = 1e-12;
  while (largestAxis < kExpansionNeeded * zNorm && ellipsoidRootFunction<dims>(tHigh, z, squaredAxes) >= 0.0) {
    tLow = tHigh;
    tHigh *= kExpansion;
  }
  // Safeguarded Newton in the bracket (see secularRoot); tHigh keeps g < 0, so the answer is feasible.
  // S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2.
  const Vec3 weights = squaredAxes.cwiseProduct(z).cwiseProduct(z);
  tHigh = secularRoot<dims>(weights.data(), squaredAxes.data(), tLow, tHigh, true);
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
// |y| <= 1, solved by (H + t I) y = g with the t >= 0 that puts y on the sphere (secularRoot on the
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
  const double tHigh0 = std::max(g.norm(), 1e-300);  // |y(t)| <= |g| / t, so |y(|g|)| <= 1
  const Vec weights = g.cwiseProduct(g);               // S(t) = |y(t)|^2 = sum_i g_i^2 / (values_i + t)^2
  // Rounding can leave H with a zero or negative eigenvalue when the axes differ by many orders of
  // magnitude; S is then not convex on the bracket and the bisection must decide alone.
  const double tHigh = secularRoot<Dims>(weights.data(), values.data(), 0.0, tHigh0, values.minCoeff() > 0.0);
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
  // A point inside is its own projection in every metric. Most contact updates are inside, and
  // this test skips the scaling (and the divisions undoing it) that sits on the Gauss-Seidel
  // sweep's dependency chain from one contact to the next.
  if (insideEllipsoid(z, semiAxes)) return z;
  const Vec3 scaledZ = z.cwiseProduct(sqrtMetric), scaledAxes = semiAxes.cwiseProduct(sqrtMetric);
  // When the test could decide (three positive semi-axes, the friction ellipsoid of a pressed
  // contact, and no overflow or underflow in it), z is outside: straight to the search. Otherwise
  // proxEllipsoid sorts out flattened ellipsoids and extreme magnitudes.
  const double volumeSquared = semiAxes.prod() * semiAxes.prod();
  const bool decided = volumeSquared > 0.0 && volumeSquared <= std::numeric_limits<double>::max();
  const Vec3 x = decided ? projectOutsidePoint<3>(scaledZ, scaledAxes) : proxEllipsoid(scaledZ, scaledAxes);
  return x.cwiseQuotient(sqrtMetric);
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
      xPermuted = dims == 3 ? projectOutsidePoint<3>(zPermuted, axesPermuted) : projectOutsidePoint<2>(zPermuted, axesPermuted);
    }
  }
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < dims; ++i) x[order[i]] = xPermuted[i];
  return x;
}

}  // namespace contactlab
