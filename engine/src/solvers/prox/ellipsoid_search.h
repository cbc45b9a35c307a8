#pragma once
// The closest-point search of PROX paper sec. 4.1, shared by the friction projections
// (prox_operators.cpp) and the Gauss-Seidel sweep, which runs it for the contacts of a group at
// once. Every function takes T = double, a GCC vector of doubles with one problem per element, or
// a LanePair of two such vectors or of two LanePairs (lane_pair.h); `active` (bool, or the
// comparison mask) says which elements are to be solved, and the others are left as they were. Written once for all, with the
// helpers below in place of std:: functions that take no vectors; element by element the vector
// form does what the scalar does.
//
// Both closest-point searches solve a secular equation S(t) = sum_i c_i / (d_i + t)^2 = 1
// (c_i >= 0, d_i > 0) for t >= 0, given a bracket [low, high] with S(low) >= 1 > S(high) (for the
// ellipsoid, S = g + 1 of eq. 35 and the bracket is eq. 36's).
//
// Root finder: a safeguarded rational-model iteration inside the bracket. The paper (sec. 4.1)
// found plain Newton on g unreliable: g is steep left of the root and flat right of it, so a step
// from the flat side overshoots past the poles at t = -d_i, and a step from the steep side creeps
// (x1.5 per step when a small torsion axis dominates). Instead:
//  - each step solves a model M(t) = a + b / (p + t)^2 of S fitted to S, S' and S'' at the current
//    t (the secular-equation solvers' rational interpolation, as in LAPACK's dlaed4, here with the
//    pole p fitted too). The model is exact for one term (any d_i) and for one varying term plus
//    terms that stay constant, the friction ellipsoid's common case: a small torsion axis whose
//    term changes fast beside two large tangential ones that barely move, so it takes fewer
//    evaluations per search than Newton on S^(-1/2) - 1, exact for one term only
//    (docs/benchmarks.md). Where the model has no root (its constant a >= 1, possible far left of the root)
//    the step is that Newton step instead, which from the left never overshoots (S^(-1/2) - 1 is
//    concave: a power mean of the d_i + t);
//  - every evaluation shrinks the bracket (by the sign of S - 1), and a step that would leave it
//    is replaced by the midpoint, so the iteration cannot diverge; at worst it is the bisection.
// It stops when the bracket or the step is below kRootTolerance relative (a few evaluations
// instead of bisection's ~50 halvings) and returns the bracket end with S < 1, so the projected
// point is feasible: a step that ends left of the root is followed by one evaluation just past it
// to get that end. Results differ from the exact bisection in the last bits.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace contactlab::ellipsoid_search {

constexpr double kRootTolerance = 1e-12;

// Everything here is forced inline: the Gauss-Seidel sweep is compiled for x86-64-v4 and AVX2 as
// well as for baseline x86-64, and a 32-byte vector passed to an out-of-line function compiled
// for another target would be passed differently (GCC's -Wpsabi).
#define CONTACTLAB_LANE_INLINE [[gnu::always_inline]] inline

// mask ? a : b, element by element (LanePair, lane_pair.h, has its own, found by argument-dependent
// lookup).
template <class Mask, class T>
CONTACTLAB_LANE_INLINE T select(Mask mask, T a, T b) { return mask ? a : b; }

// Element-wise helpers, the same choices as std::abs, std::max (a < b ? b : a), std::min and
// std::sqrt for a double.
template <class T>
CONTACTLAB_LANE_INLINE T magnitude(T x) { return select(x < 0.0, -x, x); }
template <class T>
CONTACTLAB_LANE_INLINE T larger(T a, T b) { return select(a < b, b, a); }
template <class T>
CONTACTLAB_LANE_INLINE T smaller(T a, T b) { return select(b < a, b, a); }
CONTACTLAB_LANE_INLINE double squareRoot(double x) { return std::sqrt(x); }
// For a vector, element by element. std::sqrt must set errno for a negative argument, so where
// math-errno is on (GCC's default) GCC takes it lane by lane with a test and a branch to the libm
// call after each; there SSE2's sqrtpd does two elements at a time (every x86-64; the AVX2 clone
// encodes it as vsqrtpd on 128 bits). The sweep's file is compiled with -fno-math-errno, and then
// the plain loop below is one square root per register in each clone: in the AVX2 clone one
// 256-bit vsqrtpd for four lanes.
// Square roots are correctly rounded, so all give the same bits (the arguments here are >= 0).
// The template thus has a different body in the sweep's file than in others (the tests); it is
// always inlined and both bodies give the same bits, so the one-definition rule's letter is all
// that differs.
template <class T>
CONTACTLAB_LANE_INLINE T squareRoot(T x) {
#if defined(__SSE2__) && !defined(__NO_MATH_ERRNO__)
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
// Bit l set when lane l of a comparison mask (all ones or zero per lane) is set. For four 64-bit
// lanes, the sign bits of both halves by SSE2's movmskpd (every x86-64; VEX-encoded in the AVX2
// clone) instead of four element moves: the searches ask this at every step.
template <class Mask>
CONTACTLAB_LANE_INLINE unsigned laneBits(Mask mask) {
#if defined(__SSE2__)
  if constexpr (sizeof(Mask) == 4 * sizeof(std::int64_t) && sizeof(mask[0]) == sizeof(std::int64_t)) {
    using Half = double __attribute__((vector_size(2 * sizeof(double))));
    const unsigned low = __builtin_ia32_movmskpd((Half)__builtin_shufflevector(mask, mask, 0, 1));
    const unsigned high = __builtin_ia32_movmskpd((Half)__builtin_shufflevector(mask, mask, 2, 3));
    return low | high << 2;
  }
#endif
  unsigned bits = 0;
  for (int i = 0; i < static_cast<int>(sizeof(Mask) / sizeof(mask[0])); ++i) bits |= (mask[i] != 0 ? 1u : 0u) << i;
  return bits;
}
template <class Mask>
CONTACTLAB_LANE_INLINE bool anyOf(Mask mask) {
  // Eight 64-bit lanes (a 512-bit vector): any of the two halves' OR, by the four-lane test above
  // instead of eight element moves.
  if constexpr (sizeof(Mask) == 8 * sizeof(std::int64_t) && sizeof(mask[0]) == sizeof(std::int64_t))
    return laneBits(__builtin_shufflevector(mask, mask, 0, 1, 2, 3) | __builtin_shufflevector(mask, mask, 4, 5, 6, 7)) != 0;
  return laneBits(mask) != 0;
}

// 1/e_i for the n values with one division: 1/e_i = (product of the other e_j) / (product of all).
// The sweep's search is bound by the divider (docs/benchmarks.md), and the products cost a few
// multiplications; each reciprocal is then within a few ulps instead of half an ulp, which the
// search's tolerance (kRootTolerance) is far above.
// The signs do not matter. An element with some |e_i| outside [1e-100, 1e100] (a zero among them),
// where a product could overflow or underflow, takes the plain divisions instead; each element's
// result depends on its own values only, so a vector lane gives the bits the scalar search gives.
template <int n, class T>
CONTACTLAB_LANE_INLINE void reciprocals(const T* e, T* inverse) {
  T before[n];  // before[i] = e_0 ... e_{i-1}
  before[0] = T{} + 1.0;
  for (int i = 1; i < n; ++i) before[i] = before[i - 1] * e[i - 1];
  const T product = before[n - 1] * e[n - 1];
  const T inverseProduct = 1.0 / product;
  T after = T{} + 1.0;  // e_{i+1} ... e_{n-1}
  for (int i = n - 1; i >= 0; --i) {
    inverse[i] = before[i] * after * inverseProduct;
    after *= e[i];
  }
  auto inRange = magnitude(e[0]) >= 1e-100 && magnitude(e[0]) <= 1e100;
  for (int i = 1; i < n; ++i) inRange = inRange && magnitude(e[i]) >= 1e-100 && magnitude(e[i]) <= 1e100;
  if (anyOf(!inRange))
    for (int i = 0; i < n; ++i) inverse[i] = select(inRange, inverse[i], 1.0 / e[i]);
}

// 2^-k for the k with 2^(k-1) <= x < 2^k, for x >= 1 (x times it is in [1/2, 1), exactly), from
// x's exponent bits; for x >= 2^1022 it stays 2^-1022, so x times it is below 4.
template <class T>
CONTACTLAB_LANE_INLINE T powerOfTwoBelowReciprocal(T x) {
  constexpr std::uint64_t kExponentMask = 0x7ff0000000000000, kLargestExponent = std::uint64_t{2044} << 52;
  constexpr std::uint64_t kBiasTwice = std::uint64_t{2045} << 52;
  if constexpr (sizeof(T) == sizeof(double)) {
    const std::uint64_t exponent = std::min(std::bit_cast<std::uint64_t>(x) & kExponentMask, kLargestExponent);
    return std::bit_cast<double>(kBiasTwice - exponent);
  } else {
    typedef std::uint64_t Bits __attribute__((vector_size(sizeof(T))));  // four or eight lanes
    // A cast between vector types of one size keeps the bits (GCC's vector extension); it is not
    // a conversion.
    Bits exponent = (Bits)x & kExponentMask;
    exponent = exponent < kLargestExponent ? exponent : kLargestExponent;
    return (T)(kBiasTwice - exponent);
  }
}

template <class T>
struct SecularValue {
  T s;          // S(t)
  T slope;      // -S'(t) / 2
  T curvature;  // S''(t) / 6
};

// The term count n is a template parameter, so that the loops over the two or three terms unroll:
// these run for every friction projection of an outside point.
template <int n, class T>
CONTACTLAB_LANE_INLINE SecularValue<T> secularValue(const T* c, const T* d, T t) {
  SecularValue<T> v{T{}, T{}, T{}};
  T shifted[n], inverse[n];
  for (int i = 0; i < n; ++i) shifted[i] = d[i] + t;
  reciprocals<n>(shifted, inverse);
  for (int i = 0; i < n; ++i) {
    const T term = c[i] * inverse[i] * inverse[i];
    v.s += term;
    v.slope += term * inverse[i];
    v.curvature += term * inverse[i] * inverse[i];
  }
  return v;
}

// The t in [low, high] with S(t) = 1 (see above); useModel = false when some d_i <= 0 (then S is
// not convex on the whole bracket and only the bisection is safe). x_i = c_i' / (d_i + t) moves
// by |dt| / (d_i + t) relative when t moves by dt, so t is wanted to kRootTolerance * (t + min d_i).
template <int n, class T, class Mask>
CONTACTLAB_LANE_INLINE T secularRoot(const T* c, const T* d, T low, T high, bool useModel, Mask active) {
  // S(t) >= sum over any subset I of c_i / (max_I d_j + t)^2, so the root is at least
  // sqrt(sum_I c_i) - max_I d_j: a start left of the root, close to it when the subset's terms
  // dominate. The subsets taken: the leading n - 1 terms (the friction ellipsoid's tangential axes,
  // whose d_i differ only by the metric), the last alone (the torsion term, dominating for a contact
  // spinning against mu_tau) and all n: as few evaluations as taking every subset, fewer than the
  // best single term (docs/benchmarks.md).
  T smallestD = d[0], leading = c[0], leadingD = d[0];
  for (int i = 1; i < n; ++i) smallestD = smaller(smallestD, d[i]);
  for (int i = 1; i < n - 1; ++i) leading += c[i], leadingD = larger(leadingD, d[i]);
  T start = larger(low, larger(squareRoot(leading) - leadingD, squareRoot(c[n - 1]) - d[n - 1]));
  if constexpr (n >= 2) start = larger(start, squareRoot(leading + c[n - 1]) - larger(leadingD, d[n - 1]));
  smallestD = larger(smallestD, T{});
  auto resolution = [&](T t) __attribute__((always_inline)) { return kRootTolerance * (t + smallestD) + 1e-300; };
  T t = !useModel ? 0.5 * (low + high) : select(start < high, start, low);
  T pastOffset{};  // how far beyond a converged left iterate we look for S < 1
  for (int iteration = 0; iteration < 200; ++iteration) {
    const SecularValue<T> v = secularValue<n>(c, d, t);
    const Mask beforeRoot = v.s >= 1.0;
    low = select(active && beforeRoot, t, low);
    high = select(active && !beforeRoot, t, high);
    // Done when the bracket is within the resolution, or, from the right, when convexity (all
    // d_i > 0) puts the root within it: S(t - resolution) >= S(t) + 2 resolution slope(t) >= 1.
    // That test needs no step, so the last evaluation of most searches (the aimed one below) ends
    // here, before the square root and the division of a step.
    Mask done = high - low <= resolution(high);
    if (useModel) done = done || (!beforeRoot && v.s + 2.0 * resolution(t) * v.slope >= 1.0);
    active = active && !done;
    if (!anyOf(active)) break;
    T next = 0.5 * (low + high);
    if (useModel) {
      // The model's root: with slope = -S'/2 and curvature = S''/6, the fit has p + t =
      // slope / curvature, b / (p + t)^2 = slope^2 / curvature and a = S - slope^2 / curvature
      // (>= 0 by Cauchy-Schwarz), and M(t + step) = 1 gives, written without cancellation,
      // step = slope (S - 1) / (sqrt(D) (slope + sqrt(D))) with D = slope^2 - curvature (S - 1):
      // one square root and one division, as the Newton step costs. D <= 0 is the model without
      // a root.
      const T excess = v.s - 1.0;
      const T discriminant = v.slope * v.slope - v.curvature * excess;
      const T rootOfD = squareRoot(larger(discriminant, T{}));
      T step = v.slope * excess / (rootOfD * (v.slope + rootOfD));
      const Mask noModel = !(discriminant > 0.0);
      if (anyOf(noModel)) step = select(noModel, v.s * (squareRoot(v.s) - 1.0) / v.slope, step);  // Newton on S^(-1/2) - 1
      const Mask converged = magnitude(step) <= resolution(t);
      // Converged. From the right, high = t is within |step| of the root: done (where rounding kept
      // the test above from saying so). From the left, look just past the root (further each time,
      // as S may be flat there to rounding) so that high lands within the resolution.
      active = active && !(converged && !beforeRoot);
      const Mask lookPast = converged && beforeRoot;
      pastOffset = select(lookPast, larger(larger(2.0 * magnitude(step), 16.0 * pastOffset), 1e-3 * resolution(t)), pastOffset);
      next = select(lookPast && t + pastOffset < high, t + pastOffset, next);
      // Not converged: the model's (or Newton's) point when it is inside the bracket, else the
      // midpoint. Close to the root a step lands within about 2 step^2 / (t + min d_i) of it
      // (Newton, quadratic) or far closer (the model, which matches S to second order and so
      // converges cubically, like Halley's method: on the pyramid and the wall, steps of up to
      // 1e-3 (t + min d_i) land within the resolution). Once that is below half the resolution
      // (|step| <= 5e-7 (t + min d_i) for Newton), aim half a resolution past the point at once;
      // the evaluation there then ends the search (S < 1 within the resolution of the root)
      // instead of first confirming the point. If the aim falls short, or lands further past than
      // the resolution, the search goes on.
      const T newPoint = t + step;
      const Mask inBracket = !converged && newPoint > low && newPoint < high;
      const T aimed = newPoint + 0.501 * resolution(newPoint);
      const T aimLimit = select(noModel, T{} + 5e-7, T{} + 1e-3);
      const Mask aim = inBracket && magnitude(step) <= aimLimit * (t + smallestD) && aimed < high;
      next = select(inBracket, select(aim, aimed, newPoint), next);
      if (!anyOf(active)) break;
    }
    t = select(active, next, t);
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
// the unit cube (eqs. 37-38), found by the safeguarded iteration of secularRoot instead of
// bisection; x* = (tK + I)^-1 z (eq. 32). `mapped`, when given, is the point that (tK + I)^-1 maps
// to x instead of zIn: a caller that searches on a substituted problem y = sqrt(G) x with a diagonal
// metric G passes the unsubstituted z, since (tK_y + I)^-1 is diagonal and commutes with sqrt(G)
// (x = sqrt(G)^-1 (tK_y + I)^-1 sqrt(G) z), and so skips the divisions that undo the substitution.
// `spheroid` (dims = 3): the first two axes are equal in every active lane. Their two terms of S
// share a pole and are summed into one, so the search solves a two-term secular equation: the same
// root in less time (docs/benchmarks.md), different last bits.
template <int dims, bool spheroid = false, class T, class Mask>
CONTACTLAB_LANE_INLINE void projectOutsidePoint(const T* zIn, const T* axesIn, Mask active, T* x, const T* mapped = nullptr) {
  // eq. 37: scale so every axis and coordinate is below one (the largest lands in [1/2, 1); below 4
  // past 2^1022), by a power of two: exact, and no division on the way to the first evaluation.
  T largest = T{} + 1.0;
  for (int i = 0; i < dims; ++i) largest = larger(largest, magnitude(axesIn[i]));
  for (int i = 0; i < dims; ++i) largest = larger(largest, magnitude(zIn[i]));
  const T scale = powerOfTwoBelowReciprocal(largest);
  T z[dims], squaredAxes[dims], weights[dims];
  T largestAxis{}, zBound{};
  for (int i = 0; i < dims; ++i) {
    z[i] = zIn[i] * scale;
    const T axis = axesIn[i] * scale;
    squaredAxes[i] = axis * axis;
    largestAxis = larger(largestAxis, axis);
    zBound += magnitude(z[i]);
  }

  // eq. 36 and the expansion t_max = alpha^k t_guess with alpha = 1.5 until g(t_max) < 0.
  // At t = a_max |z|, S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2 is at most
  // (1 + a_max / |z|)^-2 when a_max <= |z| (each term grows with a_i^2 <= t) and below 1/4 otherwise
  // (a_i^2 z_i^2 / (a_i^2 + t)^2 <= z_i^2 / 4t). So g < 0 holds by a margin of about 2 a_max / |z|,
  // far above rounding unless a_max / |z| is below kExpansionNeeded: only then is g evaluated and t
  // expanded. |z| is taken as its bound |z|_1 (no square root): S falls with t, so the margin only
  // grows, and a_max >= kExpansionNeeded |z|_1 implies a_max >= kExpansionNeeded |z|.
  constexpr double kExpansion = 1.5, kExpansionNeeded = 1e-12;
  T tLow{}, tHigh = larger(largestAxis * zBound, T{} + 1e-300);
  for (Mask expand = active && largestAxis < kExpansionNeeded * zBound; anyOf(expand);) {
    expand = expand && ellipsoidRootFunction<dims>(tHigh, z, squaredAxes) >= 0.0;
    tLow = select(expand, tHigh, tLow);
    tHigh = select(expand, tHigh * kExpansion, tHigh);
  }
  // The safeguarded iteration in the bracket (see secularRoot); tHigh keeps g < 0, so the answer is feasible.
  // S(t) = g(t) + 1 = sum_i a_i^2 z_i^2 / (a_i^2 + t)^2.
  if (mapped == nullptr) mapped = zIn;
  if constexpr (spheroid) {
    // a_0 = a_1: the two leading terms of S share their pole and are one term.
    static_assert(dims == 3, "a spheroid has three axes");
    const T merged[2] = {squaredAxes[0] * (z[0] * z[0] + z[1] * z[1]), squaredAxes[2] * z[2] * z[2]};
    const T poles[2] = {squaredAxes[0], squaredAxes[2]};
    tHigh = secularRoot<2>(merged, poles, tLow, tHigh, true, active);
    T shifted[2] = {poles[0] + tHigh, poles[1] + tHigh}, inverse[2];
    reciprocals<2>(shifted, inverse);
    const T leading = poles[0] * inverse[0];
    x[0] = leading * mapped[0];
    x[1] = leading * mapped[1];
    x[2] = poles[1] * inverse[1] * mapped[2];
    return;
  }
  for (int i = 0; i < dims; ++i) weights[i] = squaredAxes[i] * z[i] * z[i];
  tHigh = secularRoot<dims>(weights, squaredAxes, tLow, tHigh, true, active);
  // eq. 32 on the unscaled point: a_i^2 / (a_i^2 + t) does not change with the scaling.
  T shifted[dims], inverse[dims];
  for (int i = 0; i < dims; ++i) shifted[i] = squaredAxes[i] + tHigh;
  reciprocals<dims>(shifted, inverse);
  for (int i = 0; i < dims; ++i) x[i] = squaredAxes[i] * inverse[i] * mapped[i];
}

}  // namespace contactlab::ellipsoid_search

#undef CONTACTLAB_LANE_INLINE
