#include "solvers/prox/prox_operators.h"

#include <cmath>

namespace contactlab {
namespace {

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

}  // namespace

Vec3 proxEllipsoid(const Vec3& z, const Vec3& semiAxes) {
  // Move the flattened axes last so the search works on the leading `dims` coordinates.
  int order[3] = {0, 1, 2};
  std::stable_partition(order, order + 3, [&](int i) { return semiAxes[i] > 0.0; });
  int dims = 0;
  while (dims < 3 && semiAxes[order[dims]] > 0.0) ++dims;

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
