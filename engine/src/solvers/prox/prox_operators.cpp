#include "solvers/prox/prox_operators.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "solvers/prox/ellipsoid_search.h"

namespace contactlab {
namespace {

// Closest point on an ellipsoid (or ellipse, dims = 2) to an outside point (ellipsoid_search.h);
// `mapped` as there.
template <int dims>
Vec3 projectOutsidePoint(const Vec3& z, const Vec3& axes, const Vec3& mapped) {
  Vec3 x = Vec3::Zero();
  ellipsoid_search::projectOutsidePoint<dims>(z.data(), axes.data(), true, x.data(), mapped.data());
  return x;
}
template <int dims>
Vec3 projectOutsidePoint(const Vec3& z, const Vec3& axes) { return projectOutsidePoint<dims>(z, axes, z); }

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
  const double tHigh = ellipsoid_search::secularRoot<Dims>(weights.data(), values.data(), 0.0, tHigh0, values.minCoeff() > 0.0, true);
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
  return decided ? projectOutsidePoint<3>(scaledZ, scaledAxes, z) : proxEllipsoid(scaledZ, scaledAxes).cwiseQuotient(sqrtMetric);
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
