#pragma once
// The closest-point search of PROX paper sec. 4.1, shared by the friction projections
// (prox_operators.cpp) and the Gauss-Seidel sweep, which runs it for the contacts of a group at
// once. Every function takes T = double, or a GCC vector of doubles with one problem per element;
// `active` (bool, or the vector's comparison mask) says which elements are to be solved, and the
// others are left as they were. Written once for both, with the helpers below in place of std::
// functions that take no vectors; element by element the vector form does what the scalar does.
//
// Both closest-point searches solve a secular equation S(t) = sum_i c_i / (d_i + t)^2 = 1
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
#include <cmath>

namespace contactlab::ellipsoid_search {

constexpr double kRootTolerance = 1e-12;

// Everything here is forced inline: the Gauss-Seidel sweep is compiled for AVX2 as well as for
// baseline x86-64, and a 32-byte vector passed to an out-of-line function compiled for the other
// target would be passed differently (GCC's -Wpsabi).
#define CONTACTLAB_LANE_INLINE [[gnu::always_inline]] inline

// Element-wise helpers, the same choices as std::abs, std::max (a < b ? b : a), std::min and
// std::sqrt for a double.
template <class T>
CONTACTLAB_LANE_INLINE T magnitude(T x) { return x < 0.0 ? -x : x; }
template <class T>
CONTACTLAB_LANE_INLINE T larger(T a, T b) { return a < b ? b : a; }
template <class T>
CONTACTLAB_LANE_INLINE T smaller(T a, T b) { return b < a ? b : a; }
CONTACTLAB_LANE_INLINE double squareRoot(double x) { return std::sqrt(x); }
// For a vector, SSE2's sqrtpd two elements at a time where there is one (every x86-64; the AVX2
// clone encodes it as vsqrtpd): std::sqrt must set errno for a negative argument, so GCC
// (math-errno on by default) takes it lane by lane with a test and a branch to the libm call after
// each. Square roots are correctly rounded, so both give the same bits (the arguments here are >= 0).
template <class T>
CONTACTLAB_LANE_INLINE T squareRoot(T x) {
#if defined(__SSE2__)
  if constexpr (sizeof(T) == 4 * sizeof(double)) {
    using Half = double __attribute__((vector_size(2 * sizeof(double))));
    const Half low = __builtin_ia32_sqrtpd(__builtin_shufflevector(x, x, 0, 1));
    const Half high = __builtin_ia32_sqrtpd(__builtin_shufflevector(x, x, 2, 3));
    return __builtin_shufflevector(low, high, 0, 1, 2, 3);
  }
#endif
  for (int i = 0; i < static_cast<int>(sizeof(T) / sizeof(double)); ++i) x[i] = std::sqrt(x[i]);
  return x;
}
CONTACTLAB_LANE_INLINE bool anyOf(bool mask) { return mask; }
template <class Mask>
CONTACTLAB_LANE_INLINE bool anyOf(Mask mask) {
  for (int i = 0; i < static_cast<int>(sizeof(Mask) / sizeof(mask[0])); ++i)
    if (mask[i]) return true;
  return false;
}

template <class T>
struct SecularValue {
  T s;      // S(t)
  T slope;  // -S'(t) / 2
};

// The term count n is a template parameter, so that the loops over the two or three terms unroll:
// these run for every friction projection of an outside point.
template <int n, class T>
CONTACTLAB_LANE_INLINE SecularValue<T> secularValue(const T* c, const T* d, T t) {
  SecularValue<T> v{T{}, T{}};
  for (int i = 0; i < n; ++i) {
    const T inverse = 1.0 / (d[i] + t);
    const T term = c[i] * inverse * inverse;
    v.s += term;
    v.slope += term * inverse;
  }
  return v;
}

// The t in [low, high] with S(t) = 1 (see above); useNewton = false when some d_i <= 0 (then S is
// not convex on the whole bracket and only the bisection is safe). x_i = c_i' / (d_i + t) moves
// by |dt| / (d_i + t) relative when t moves by dt, so t is wanted to kRootTolerance * (t + min d_i).
template <int n, class T, class Mask>
CONTACTLAB_LANE_INLINE T secularRoot(const T* c, const T* d, T low, T high, bool useNewton, Mask active) {
  // S(t) >= c_i / (d_i + t)^2 for each i, so the root is at least the largest one-term root
  // sqrt(c_i) - d_i: a start left of the root (Newton then rises monotonically) and close to it
  // when one term dominates, as the torsion term does for a contact spinning against mu_tau.
  T smallestD = d[0], oneTermRoot = low;
  for (int i = 0; i < n; ++i) {
    smallestD = smaller(smallestD, d[i]);
    oneTermRoot = larger(oneTermRoot, squareRoot(c[i]) - d[i]);
  }
  smallestD = larger(smallestD, T{});
  auto resolution = [&](T t) __attribute__((always_inline)) { return kRootTolerance * (t + smallestD) + 1e-300; };
  T t = !useNewton ? 0.5 * (low + high) : oneTermRoot < high ? oneTermRoot : low;
  T pastOffset{};  // how far beyond a converged left iterate we look for S < 1
  for (int iteration = 0; iteration < 200; ++iteration) {
    const SecularValue<T> v = secularValue<n>(c, d, t);
    const Mask beforeRoot = v.s >= 1.0;
    low = active && beforeRoot ? t : low;
    high = active && !beforeRoot ? t : high;
    Mask done = high - low <= resolution(high);
    T next = 0.5 * (low + high);
    if (useNewton) {
      const T step = v.s * (squareRoot(v.s) - 1.0) / v.slope;  // -(S^(-1/2) - 1) / (S^(-1/2) - 1)'
      const Mask converged = magnitude(step) <= resolution(t);
      // Converged. From the right, high = t is within |step| of the root: done. From the left, look
      // just past the root (further each time, as S may be flat there to rounding) so that high
      // lands within the resolution.
      done = done || (converged && !beforeRoot);
      const Mask lookPast = converged && beforeRoot;
      pastOffset = lookPast ? larger(larger(2.0 * magnitude(step), 16.0 * pastOffset), 1e-3 * resolution(t)) : pastOffset;
      next = lookPast && t + pastOffset < high ? t + pastOffset : next;
      // Not converged: the Newton point when it is inside the bracket, else the midpoint.
      // Convergence is quadratic: a step from the left lands about step^2 / (t + min d_i) short of
      // the root. Once that is below the resolution, aim just past the root at once; the evaluation
      // there then ends the search (S < 1, and the step back is within the resolution) instead of
      // first confirming the Newton point. If the aim falls short, the search goes on.
      const T newtonPoint = t + step;
      const Mask inBracket = !converged && newtonPoint > low && newtonPoint < high;
      const T scale = t + smallestD;
      const T aimed = newtonPoint + 2.0 * step * step / scale + 1e-3 * resolution(newtonPoint);
      const Mask aim = inBracket && beforeRoot && magnitude(step) <= 5e-7 * scale && aimed < high;
      next = inBracket ? (aim ? aimed : newtonPoint) : next;
    }
    active = active && !done;
    if (!anyOf(active)) break;
    t = active ? next : t;
  }
  return high;
}

// g(t) of eq. 35 over the first `dims` coordinates.
template <int dims, class T>
CONTACTLAB_LANE_INLINE T ellipsoidRootFunction(T t, const T* z, const T* squaredAxes) {
  T g = T{} - 1.0;
  for (int i = 0; i < dims; ++i) {
    const T q = squaredAxes[i] * z[i] / (squaredAxes[i] + t);
    g += q * q / squaredAxes[i];
  }
  return g;
}

// Closest point x on the ellipsoid (or ellipse, dims = 2) with positive semi-axes `axes` to a point
// z outside it: sec. 4.1's root of g (eq. 35) in the bracket of eq. 36 on the problem scaled into
// the unit cube (eqs. 37-38), found by the safeguarded Newton iteration of secularRoot instead of
// bisection; x* = (tK + I)^-1 z (eq. 32).
template <int dims, class T, class Mask>
CONTACTLAB_LANE_INLINE void projectOutsidePoint(const T* zIn, const T* axesIn, Mask active, T* x) {
  // eq. 37: scale so every axis and coordinate is at most one.
  T largest = T{} + 1.0;
  for (int i = 0; i < dims; ++i) largest = larger(largest, magnitude(axesIn[i]));
  for (int i = 0; i < dims; ++i) largest = larger(largest, magnitude(zIn[i]));
  const T scale = 1.0 / largest;
  T z[dims], squaredAxes[dims], weights[dims];
  T largestAxis{}, zSquaredNorm{};
  for (int i = 0; i < dims; ++i) {
    z[i] = zIn[i] * scale;
    const T axis = axesIn[i] * scale;
    squaredAxes[i] = axis * axis;
    largestAxis = larger(largestAxis, axis);
    zSquaredNorm += z[i] * z[i];
  }

  // eq. 36 and the expansion t_max = alpha^k t_guess with alpha = 1.5 until g(t_max) < 0.
  // At t = a_max |z|, S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2 is at most
  // (1 + a_max / |z|)^-2 when a_max <= |z| (each term grows with a_i^2 <= t) and below 1/4 otherwise
  // (a_i^2 z_i^2 / (a_i^2 + t)^2 <= z_i^2 / 4t). So g < 0 holds by a margin of about 2 a_max / |z|,
  // far above rounding unless a_max / |z| is below kExpansionNeeded: only then is g evaluated and t
  // expanded.
  constexpr double kExpansion = 1.5, kExpansionNeeded = 1e-12;
  const T zNorm = squareRoot(zSquaredNorm);
  T tLow{}, tHigh = larger(largestAxis * zNorm, T{} + 1e-300);
  for (Mask expand = active && largestAxis < kExpansionNeeded * zNorm; anyOf(expand);) {
    expand = expand && ellipsoidRootFunction<dims>(tHigh, z, squaredAxes) >= 0.0;
    tLow = expand ? tHigh : tLow;
    tHigh = expand ? tHigh * kExpansion : tHigh;
  }
  // Safeguarded Newton in the bracket (see secularRoot); tHigh keeps g < 0, so the answer is feasible.
  // S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2.
  for (int i = 0; i < dims; ++i) weights[i] = squaredAxes[i] * z[i] * z[i];
  tHigh = secularRoot<dims>(weights, squaredAxes, tLow, tHigh, true, active);
  // eq. 32, then undo the scaling.
  for (int i = 0; i < dims; ++i) x[i] = squaredAxes[i] * z[i] / (squaredAxes[i] + tHigh) / scale;
}

}  // namespace contactlab::ellipsoid_search

#undef CONTACTLAB_LANE_INLINE
