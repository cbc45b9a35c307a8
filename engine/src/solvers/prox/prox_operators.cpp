#include "solvers/prox/prox_operators.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include <cstdio>
namespace contactlab {
struct Stats { long calls=0, dims[4]={}, inside=0, outside=0, evals=0; ~Stats(){ std::fprintf(stderr,"calls %ld dims %ld %ld %ld %ld inside %ld outside %ld evals %ld\n",calls,dims[0],dims[1],dims[2],dims[3],inside,outside,evals);} } gStats;
namespace {

// g(t) of eq. 35 over the coordinates with a positive semi-axis; flattened ones contribute nothing.
double ellipsoidRootFunction(double t, const Vec3& z, const Vec3& squaredAxes, int dims) {
  ++gStats.evals;
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
  for (int iteration = 0; iteration < 200 && tHigh - tLow > 1e-15 * tHigh; ++iteration) {
    const double tMid = 0.5 * (tLow + tHigh);
    if (ellipsoidRootFunction(tMid, z, squaredAxes, dims) >= 0.0) tLow = tMid;
    else tHigh = tMid;
  }
  // eq. 32: x* = (tK + I)^-1 z, then undo the scaling.
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < dims; ++i) x[i] = squaredAxes[i] * z[i] / (squaredAxes[i] + tHigh);
  return x / scale;
}

// Which coordinates have a positive semi-axis (the rest are pinned to zero).
int activeAxes(const Vec3& semiAxes, int order[3]) {
  order[0] = 0, order[1] = 1, order[2] = 2;
  std::stable_partition(order, order + 3, [&](int i) { return semiAxes[i] > 0.0; });
  int dims = 0;
  while (dims < 3 && semiAxes[order[dims]] > 0.0) ++dims;
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
  double tLow = 0.0, tHigh = std::max(g.norm(), 1e-300);  // |y(t)| <= |g| / t, so |y(|g|)| <= 1
  for (int iteration = 0; iteration < 200 && tHigh - tLow > 1e-15 * tHigh; ++iteration) {
    const double tMid = 0.5 * (tLow + tHigh);
    (outside(tMid) ? tLow : tHigh) = tMid;
  }
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
  ++gStats.calls; ++gStats.dims[dims];

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
      xPermuted = zPermuted; ++gStats.inside;
    } else if (dims == 1) {
      xPermuted[0] = std::clamp(zPermuted[0], -axesPermuted[0], axesPermuted[0]);
    } else if (dims == 2 && axesPermuted[0] == axesPermuted[1]) {
      // The friction disk (no torsion, isotropic): the closest point is the radial clamp.
      xPermuted.head<2>() = zPermuted.head<2>() * (axesPermuted[0] / zPermuted.head<2>().norm());
    } else {
      xPermuted = projectOutsidePoint(zPermuted, axesPermuted, dims); ++gStats.outside;
    }
  }
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < dims; ++i) x[order[i]] = xPermuted[i];
  return x;
}

}  // namespace contactlab
