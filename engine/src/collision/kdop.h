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

// Slab i is [lower[i], upper[i]] along axis i; only the first axes.size() entries are used.
struct Kdop {
  std::array<double, kMaxKdopAxes> lower;
  std::array<double, kMaxKdopAxes> upper;

  // Empty: holds nothing, so that merging or adding points starts from it.
  static Kdop empty();
  void add(std::span<const Vec3> axes, const Vec3& point);
  void merge(const Kdop& other, int axisCount);
  Vec3 boxCentre() const { return 0.5 * Vec3(lower[0] + upper[0], lower[1] + upper[1], lower[2] + upper[2]); }
  Vec3 boxHalfExtents() const { return 0.5 * Vec3(upper[0] - lower[0], upper[1] - lower[1], upper[2] - lower[2]); }
  // A lower bound of the distance from a point to the kDOP (0 inside): the largest distance to
  // one of its slabs (the axes are unit).
  double distanceBound(const AxisProjections& point) const;
  // distanceBound(point) <= distance, stopping at the first slab farther than that.
  bool mayBeWithin(const AxisProjections& point, double distance) const {
    for (int i = 0; i < point.count; ++i)
      if (std::max(lower[i] - point.along[i], point.along[i] - upper[i]) > distance) return false;
    return true;
  }
  // The same for the path point + t move, t in [0, 1] (a point alone by default), tested against
  // one kDOP, projected only as far as the first slab farther than `distance`; when false, `bound`
  // is the distance to that slab (a lower bound of the distance from every point of the path).
  bool mayBeWithin(std::span<const Vec3> axes, const Vec3& point, double distance, double& bound,
                   const Vec3& move = Vec3::Zero()) const {
    for (size_t i = 0; i < axes.size(); ++i) {
      const double projection = axes[i].dot(point), along = axes[i].dot(move);
      bound = std::max(lower[i] - (projection + std::max(0.0, along)), (projection + std::min(0.0, along)) - upper[i]);
      if (bound > distance) return false;
    }
    return true;
  }
};

Kdop kdopOfPoints(std::span<const Vec3> axes, std::span<const Vec3> points);

// Overlap tests of many boxes of another body (centre and half extents in that body's frame, as
// the nodes of its tree give them) with kDOPs of this body. The pose's part of each projection
// (a . R c + a . t and |a . R_j|) is formed once, so a test costs two 3-vectors' dot products per
// axis. Axes go two at a time (one SSE2 register on x86-64; the tandem traversal of two meshes is
// mostly this test, and a node pair that is not separated tests every axis), stopping at the
// first pair with a separating slab. With a `translation` d (in this body's frame) the boxes are
// tested along their whole path, box + t d for t in [0, 1]: each projected box is moved by half the
// path's extent a . d on the axis and widened by half of |a . d|, formed once with the pose's part,
// so it costs one addition per axis.
class OrientedBoxTest {
 public:
  OrientedBoxTest(std::span<const Vec3> axes, const Pose& otherInThis, double margin,
                  const Vec3& translation = Vec3::Zero());
  bool overlaps(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents) const {
    double unused;
    return !separated(kdop, centre, halfExtents, unused);
  }
  // !overlaps(...), and then `distance` is a lower bound of the distance between what the box and
  // the kDOP bound (the gap on the first separating slab in axis order, margin not subtracted; the
  // axes are unit).
  bool separated(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents, double& distance) const {
    const SlabPair cx = {centre.x(), centre.x()}, cy = {centre.y(), centre.y()}, cz = {centre.z(), centre.z()};
    const SlabPair hx = {halfExtents.x(), halfExtents.x()}, hy = {halfExtents.y(), halfExtents.y()},
                   hz = {halfExtents.z(), halfExtents.z()};
    // Axis pairs (i, i + 1); an odd last axis is paired with itself (the per-axis values are padded
    // with a copy of the last axis's).
    auto separatedOnPair = [&](int i, const SlabPair& upper, const SlabPair& lower) {
      const SlabPair middle =
          ((loadSlabPair(x_, i) * cx + loadSlabPair(y_, i) * cy) + loadSlabPair(z_, i) * cz) + loadSlabPair(offset_, i);
      const SlabPair boxRadius =
          (loadSlabPair(absX_, i) * hx + loadSlabPair(absY_, i) * hy) + loadSlabPair(absZ_, i) * hz +
          loadSlabPair(sweepRadius_, i);
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

 private:
  // Per axis a: the components of R^T a, of |R^T a|, a . t plus half the path's extent a . d, and
  // half of |a . d|; one more entry, a copy of the last axis's, for an odd last axis.
  using Values = std::array<double, kMaxKdopAxes + 1>;
  Values x_, y_, z_, absX_, absY_, absZ_, offset_, sweepRadius_;
  int axisCount_;
  double margin_;
};

}  // namespace contactlab
