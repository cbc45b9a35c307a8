#pragma once
// Two GCC vectors of doubles used as one vector of twice the lanes by ellipsoid_search.h: the
// Gauss-Seidel sweep searches the outside lanes gathered from a run of groups eight at a time, or
// sixteen as a LanePair of LanePairs (two or four chains of divisions and square roots side by
// side, and one loop's branches instead of two or four).
// A GCC vector of eight doubles would say the same, but GCC 12 lowers comparisons and selects on a
// vector wider than the target's registers (AVX2: four doubles) element by element; here every
// operation is two register-wide ones.
#include <cstddef>

#include "solvers/prox/ellipsoid_search.h"

namespace contactlab::ellipsoid_search {

#define CONTACTLAB_LANE_INLINE [[gnu::always_inline]] inline

template <class Vector>
struct LanePair {
  Vector first, second;
};
// The comparison masks of a LanePair: GCC's mask vectors, half by half.
template <class Mask>
struct LaneMaskPair {
  Mask first, second;
};

template <class Vector>
using MaskOf = decltype(Vector{} < Vector{});

// Arithmetic with another pair or with a double on either side.
#define CONTACTLAB_LANE_PAIR_ARITHMETIC(op)                                                                          \
  template <class V>                                                                                                 \
  CONTACTLAB_LANE_INLINE LanePair<V> operator op(LanePair<V> a, LanePair<V> b) {                                     \
    return {a.first op b.first, a.second op b.second};                                                               \
  }                                                                                                                  \
  template <class V>                                                                                                 \
  CONTACTLAB_LANE_INLINE LanePair<V> operator op(LanePair<V> a, double b) { return {a.first op b, a.second op b}; } \
  template <class V>                                                                                                 \
  CONTACTLAB_LANE_INLINE LanePair<V> operator op(double a, LanePair<V> b) { return {a op b.first, a op b.second}; } \
  template <class V, class B>                                                                                        \
  CONTACTLAB_LANE_INLINE LanePair<V>& operator op##=(LanePair<V>& a, B b) { return a = a op b; }
CONTACTLAB_LANE_PAIR_ARITHMETIC(+)
CONTACTLAB_LANE_PAIR_ARITHMETIC(-)
CONTACTLAB_LANE_PAIR_ARITHMETIC(*)
CONTACTLAB_LANE_PAIR_ARITHMETIC(/)
#undef CONTACTLAB_LANE_PAIR_ARITHMETIC

template <class V>
CONTACTLAB_LANE_INLINE LanePair<V> operator-(LanePair<V> a) { return {-a.first, -a.second}; }

#define CONTACTLAB_LANE_PAIR_COMPARISON(op)                                                                      \
  template <class V>                                                                                             \
  CONTACTLAB_LANE_INLINE LaneMaskPair<MaskOf<V>> operator op(LanePair<V> a, LanePair<V> b) {                     \
    return {a.first op b.first, a.second op b.second};                                                           \
  }                                                                                                              \
  template <class V>                                                                                             \
  CONTACTLAB_LANE_INLINE LaneMaskPair<MaskOf<V>> operator op(LanePair<V> a, double b) {                          \
    return {a.first op b, a.second op b};                                                                        \
  }
CONTACTLAB_LANE_PAIR_COMPARISON(<)
CONTACTLAB_LANE_PAIR_COMPARISON(<=)
CONTACTLAB_LANE_PAIR_COMPARISON(>)
CONTACTLAB_LANE_PAIR_COMPARISON(>=)
#undef CONTACTLAB_LANE_PAIR_COMPARISON

template <class M>
CONTACTLAB_LANE_INLINE LaneMaskPair<M> operator&&(LaneMaskPair<M> a, LaneMaskPair<M> b) {
  return {a.first && b.first, a.second && b.second};
}
template <class M>
CONTACTLAB_LANE_INLINE LaneMaskPair<M> operator||(LaneMaskPair<M> a, LaneMaskPair<M> b) {
  return {a.first || b.first, a.second || b.second};
}
template <class M>
CONTACTLAB_LANE_INLINE LaneMaskPair<M> operator!(LaneMaskPair<M> a) { return {!a.first, !a.second}; }

template <class M>
CONTACTLAB_LANE_INLINE bool anyOf(LaneMaskPair<M> mask) { return anyOf(mask.first || mask.second); }
template <class M, class V>
CONTACTLAB_LANE_INLINE LanePair<V> select(LaneMaskPair<M> mask, LanePair<V> a, LanePair<V> b) {
  return {select(mask.first, a.first, b.first), select(mask.second, a.second, b.second)};
}
template <class V>
CONTACTLAB_LANE_INLINE LanePair<V> squareRoot(LanePair<V> x) { return {squareRoot(x.first), squareRoot(x.second)}; }
template <class V>
CONTACTLAB_LANE_INLINE LanePair<V> powerOfTwoBelowReciprocal(LanePair<V> x) {
  return {powerOfTwoBelowReciprocal(x.first), powerOfTwoBelowReciprocal(x.second)};
}

#undef CONTACTLAB_LANE_INLINE

}  // namespace contactlab::ellipsoid_search
