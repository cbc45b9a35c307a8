#pragma once
// Discrete orientation polytopes (kDOPs): the intersection of k/2 slabs, one per fixed axis, the
// bounding volume of the mesh hierarchies (the PROX paper's sec. 6 narrow phase is a kDOP BVH).
// k = 14 (box + 4 corner diagonals), 18 (box + 6 edge diagonals) or 26 (all of them). The first
// three axes are always x, y and z, so the first three slabs of every kDOP are its bounding box.
#include <algorithm>
#include <array>
#include <span>

#include "geometry/shape_geometry.h"

namespace contactlab {

inline constexpr int kMaxKdopAxes = 13;
// The k a mesh model is built with unless told otherwise, WorldSettings::kdop's default too
// (tests/collision/mesh_model_test.cpp checks that the two agree).
inline constexpr int kDefaultKdop = 14;

// Two consecutive entries of a per-axis array (slab bounds, projections, axis components) as one
// GCC vector, one SSE2 register on x86-64: the kDOP tests take their slabs two at a time.
using SlabPair = double __attribute__((vector_size(2 * sizeof(double))));
template <size_t N>
SlabPair loadSlabPair(const std::array<double, N>& values, int i) {
  using Unaligned = double __attribute__((vector_size(2 * sizeof(double)), aligned(sizeof(double)), may_alias));
  return *reinterpret_cast<const Unaligned*>(&values[i]);
}

// The unit axes of a k-DOP, k in {14, 18, 26}; throws std::invalid_argument for any other k.
std::span<const Vec3> kdopAxes(int k);
// Whether k names a kDOP this module builds (14, 18 or 26).
bool isSupportedKdop(int k);

// A point's projections on the axes of a kDOP: formed once, for a query that tests one point
// against many kDOPs (a tree's nodes).
struct AxisProjections {
  std::array<double, kMaxKdopAxes> along;
  int count = 0;
};
AxisProjections projectOnAxes(std::span<const Vec3> axes, const Vec3& point);

// A kDOP's axes component by component (x[i], y[i], z[i] of axis i), padded with a copy of the
// last axis, so that projections can be formed two axes at a time.
struct AxisComponents {
  explicit AxisComponents(std::span<const Vec3> axes);
  std::array<double, kMaxKdopAxes + 1> x, y, z;
  int count;
};

// The same for a point's path point + t move, t in [0, 1]: per axis the interval [low, high] its
// projection sweeps (one more entry, the padding's). Formed once per path, for a query that tests
// it against many kDOPs (a mesh vertex against a leaf of tetrahedra and then each of them:
// projected per kDOP, the two dot products per axis would be most of such a test's cost).
struct PathProjections {
  std::array<double, kMaxKdopAxes + 1> low;
  std::array<double, kMaxKdopAxes + 1> high;
  int count = 0;
};
PathProjections projectPathOnAxes(const AxisComponents& axes, const Vec3& point, const Vec3& move = Vec3::Zero());

// Slab i is [lower[i], upper[i]] along axis i; only the first axes.size() entries are used.
struct Kdop {
  std::array<double, kMaxKdopAxes> lower;
  std::array<double, kMaxKdopAxes> upper;

  // Empty: holds nothing, so that merging or adding points starts from it.
  static Kdop empty();
  void add(std::span<const Vec3> axes, const Vec3& point);
  void merge(const Kdop& other, int axisCount);
  // Every slab widened by `distance` on both sides: the points within that distance of the kDOP
  // are inside (the axes are unit).
  Kdop inflated(double distance, int axisCount) const;
  // Whether the two kDOPs (over the same axes) overlap on each of the first axisCount slabs.
  bool overlaps(const Kdop& other, int axisCount) const {
    for (int i = 0; i < axisCount; ++i)
      if (lower[i] > other.upper[i] || other.lower[i] > upper[i]) return false;
    return true;
  }
  Vec3 boxCentre() const { return 0.5 * Vec3(lower[0] + upper[0], lower[1] + upper[1], lower[2] + upper[2]); }
  Vec3 boxHalfExtents() const { return 0.5 * Vec3(upper[0] - lower[0], upper[1] - lower[1], upper[2] - lower[2]); }
  // A lower bound of the distance from a point to the kDOP (0 inside): the largest distance to
  // one of its slabs (the axes are unit).
  double distanceBound(const AxisProjections& point) const { return largestGap(point.along, point.along, point.count); }
  // The same for every point of a path: the largest gap between a slab and the path's interval on
  // its axis.
  double distanceBound(const PathProjections& path) const { return largestGap(path.low, path.high, path.count); }
  // distanceBound(point) <= distance, stopping at the first slab farther than that.
  bool mayBeWithin(const AxisProjections& point, double distance) const {
    for (int i = 0; i < point.count; ++i)
      if (std::max(lower[i] - point.along[i], point.along[i] - upper[i]) > distance) return false;
    return true;
  }
  // Whether the path may come within `distance`; `bound` is distanceBound(path), a lower bound of
  // the distance from every point of the path. All slabs are always taken: with no early exit
  // the test has no branch to mispredict, and most paths tested against a leaf's tetrahedra are
  // rejected at some slab or other.
  bool mayBeWithin(const PathProjections& path, double distance, double& bound) const {
    bound = distanceBound(path);
    return bound <= distance;
  }

 private:
  // max(0, max_i max(lower[i] - high[i], low[i] - upper[i])) over the first `count` slabs, two at a
  // time (one SSE2 register on x86-64): the nearest-surface-point search forms this bound for tens
  // of nodes per query and the vertex tests for every tetrahedron near a vertex. max is exact, so
  // the bound does not depend on the order the slabs are taken in.
  template <size_t N>
  double largestGap(const std::array<double, N>& low, const std::array<double, N>& high, int count) const {
    SlabPair bounds = {0.0, 0.0};
    int i = 0;
    for (; i + 2 <= count; i += 2) {
      const SlabPair below = loadSlabPair(lower, i) - loadSlabPair(high, i);
      const SlabPair above = loadSlabPair(low, i) - loadSlabPair(upper, i);
      const SlabPair slab = below > above ? below : above;
      bounds = slab > bounds ? slab : bounds;
    }
    double bound = std::max(bounds[0], bounds[1]);
    if (i < count) bound = std::max({bound, lower[i] - high[i], low[i] - upper[i]});
    return bound;
  }
};

Kdop kdopOfPoints(std::span<const Vec3> axes, std::span<const Vec3> points);

// The first-order motion of points over a step, in the frame they are tested in: the point p
// follows the path p + t of(p), t in [0, 1] (a body's translation and turn seen from another body;
// ContactBuffer::relativeTravel).
struct LinearMotion {
  Vec3 shift = Vec3::Zero();
  Vec3 turn = Vec3::Zero();
  Vec3 of(const Vec3& point) const { return shift + turn.cross(point); }
};

// Overlap tests of many boxes of another body (centre and half extents in that body's frame, as
// the nodes of its tree give them) with kDOPs of this body. The pose's part of each projection
// (a . R c + a . t and |a . R_j|) is formed once, so a test costs two 3-vectors' dot products per
// axis. Axes go two at a time (one SSE2 register on x86-64; the tandem traversal of two meshes is
// mostly this test, and a node pair that is not separated tests every axis), stopping at the
// first pair with a separating slab.
// With a `motion` (in this body's frame) the boxes are tested along the paths of all their points.
// On axis a a point p moves by a . of(p) = a . shift + (a x turn) . p, which over the box is
// along(c) = a . of(p_c) at its centre p_c, give or take rho = |R^T (a x turn)| . halfExtents: the
// projected box is moved by half of along(c) and widened by half of |along(c)| plus rho. Without a
// turn along is the same for every box, formed once with the pose's part (one addition per axis);
// with one, it costs two more dot products per axis (along(c) and rho).
class OrientedBoxTest {
 public:
  OrientedBoxTest(std::span<const Vec3> axes, const Pose& otherInThis, double margin, const LinearMotion& motion = {});
  bool overlaps(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents) const {
    double unused;
    return !separated(kdop, centre, halfExtents, unused);
  }
  // !overlaps(...), and then `distance` is a lower bound of the distance between what the box and
  // the kDOP bound (the gap on the first separating slab in axis order, margin not subtracted; the
  // axes are unit).
  bool separated(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents, double& distance) const {
    return turning_ ? separatedOnSomePair<true>(kdop, centre, halfExtents, distance)
                    : separatedOnSomePair<false>(kdop, centre, halfExtents, distance);
  }

 private:
  template <bool Turning>
  bool separatedOnSomePair(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents, double& distance) const {
    const SlabPair cx = {centre.x(), centre.x()}, cy = {centre.y(), centre.y()}, cz = {centre.z(), centre.z()};
    const SlabPair hx = {halfExtents.x(), halfExtents.x()}, hy = {halfExtents.y(), halfExtents.y()},
                   hz = {halfExtents.z(), halfExtents.z()};
    const SlabPair half = {0.5, 0.5};
    // Axis pairs (i, i + 1); an odd last axis is paired with itself (the per-axis values are padded
    // with a copy of the last axis's).
    auto separatedOnPair = [&](int i, const SlabPair& upper, const SlabPair& lower) {
      SlabPair middle =
          ((loadSlabPair(x_, i) * cx + loadSlabPair(y_, i) * cy) + loadSlabPair(z_, i) * cz) + loadSlabPair(offset_, i);
      SlabPair boxRadius = (loadSlabPair(absX_, i) * hx + loadSlabPair(absY_, i) * hy) + loadSlabPair(absZ_, i) * hz;
      if constexpr (!Turning) {
        boxRadius += loadSlabPair(sweepRadius_, i);
      } else {
        const SlabPair turnAlong =
            (loadSlabPair(turnX_, i) * cx + loadSlabPair(turnY_, i) * cy) + loadSlabPair(turnZ_, i) * cz;
        const SlabPair along = loadSlabPair(alongAtOrigin_, i) + turnAlong;
        const SlabPair spread =
            (loadSlabPair(absTurnX_, i) * hx + loadSlabPair(absTurnY_, i) * hy) + loadSlabPair(absTurnZ_, i) * hz;
        middle += half * turnAlong;
        boxRadius += half * (along < 0.0 ? -along : along) + spread;
      }
      const SlabPair radius = boxRadius + margin_;
      const auto above = middle - radius > upper;
      const auto below = middle + radius < lower;
      const auto separating = above | below;
      if (!(separating[0] | separating[1])) return false;
      const int lane = separating[0] ? 0 : 1;
      distance = above[lane] ? middle[lane] - boxRadius[lane] - upper[lane]
                             : lower[lane] - middle[lane] - boxRadius[lane];
      return true;
    };
    int i = 0;
    for (; i + 2 <= axisCount_; i += 2)
      if (separatedOnPair(i, loadSlabPair(kdop.upper, i), loadSlabPair(kdop.lower, i))) return true;
    return i < axisCount_ &&
           separatedOnPair(i, SlabPair{kdop.upper[i], kdop.upper[i]}, SlabPair{kdop.lower[i], kdop.lower[i]});
  }

  // Per axis a: the components of R^T a, of |R^T a|, a . t plus half of a . of(t) (the motion of
  // the other frame's origin), and half of |a . of(t)| (used without a turn only). With a turn, the
  // components of R^T (a x turn) and of their absolute values, and a . of(t). One more entry, a
  // copy of the last axis's, for an odd last axis.
  using Values = std::array<double, kMaxKdopAxes + 1>;
  Values x_, y_, z_, absX_, absY_, absZ_, offset_, sweepRadius_;
  Values turnX_, turnY_, turnZ_, absTurnX_, absTurnY_, absTurnZ_, alongAtOrigin_;
  int axisCount_;
  double margin_;
  bool turning_;
};

}  // namespace contactlab
