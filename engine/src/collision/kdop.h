#pragma once
// Discrete orientation polytopes (kDOPs): the intersection of k/2 slabs, one per fixed axis, the
// bounding volume of the mesh hierarchies (the PROX paper's sec. 6 narrow phase is a kDOP BVH).
// k = 14 (box + 4 corner diagonals), 18 (box + 6 edge diagonals) or 26 (all of them). The first
// three axes are always x, y and z, so the first three slabs of every kDOP are its bounding box.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "geometry/shape_geometry.h"

namespace contactlab {

inline constexpr int kMaxKdopAxes = 13;

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
  // The same for a point tested against one kDOP, projected only as far as the first slab farther
  // than `distance`; when false, `bound` is the distance to that slab (a lower bound of the
  // distance from the point to the kDOP).
  bool mayBeWithin(std::span<const Vec3> axes, const Vec3& point, double distance, double& bound) const {
    for (size_t i = 0; i < axes.size(); ++i) {
      const double projection = axes[i].dot(point);
      bound = std::max(lower[i] - projection, projection - upper[i]);
      if (bound > distance) return false;
    }
    return true;
  }
};

Kdop kdopOfPoints(std::span<const Vec3> axes, std::span<const Vec3> points);

// Overlap tests of many boxes of another body (centre and half extents in that body's frame, as
// the nodes of its tree give them) with kDOPs of this body. The pose's part of each projection
// (a . R c + a . t and |a . R_j|) is formed once, so a test costs two 3-vectors' dot products per
// axis. Axes go four at a time (GCC vector types: two SSE2 registers on x86-64, one AVX2 register
// in a caller compiled for it; the tandem traversal of two meshes is mostly this test, and a node
// pair that is not separated tests every axis), stopping at the first four with a separating slab.
class OrientedBoxTest {
 public:
  OrientedBoxTest(std::span<const Vec3> axes, const Pose& otherInThis, double margin);
  bool overlaps(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents) const {
    double unused;
    return !separated(kdop, centre, halfExtents, unused);
  }
  // !overlaps(...), and then `distance` is a lower bound of the distance between what the box and
  // the kDOP bound (the gap on the first separating slab in axis order, margin not subtracted; the
  // axes are unit).
  bool separated(const Kdop& kdop, const Vec3& centre, const Vec3& halfExtents, double& distance) const {
    const Pack cx = Pack{} + centre.x(), cy = Pack{} + centre.y(), cz = Pack{} + centre.z();
    const Pack hx = Pack{} + halfExtents.x(), hy = Pack{} + halfExtents.y(), hz = Pack{} + halfExtents.z();
    for (int i = 0; i < axisCount_; i += kLanes) {
      // Lanes i to i + 3 of an array. (No helper returns a vector: 32-byte vectors are passed
      // differently with and without AVX, and a caller may be an AVX2 clone.)
      auto at = [i](const auto& values) { return reinterpret_cast<const UnalignedPack*>(&values[i]); };
      const Pack middle = ((*at(x_) * cx + *at(y_) * cy) + *at(z_) * cz) + *at(offset_);
      const Pack boxRadius = (*at(absX_) * hx + *at(absY_) * hy) + *at(absZ_) * hz;
      const Pack radius = boxRadius + margin_;
      // Where the kDOP's arrays end first (the last of 13 axes), slab i repeated: only lane i is an
      // axis there.
      const bool whole = i + kLanes <= kMaxKdopAxes;
      const Pack upper = whole ? *at(kdop.upper) : Pack{} + kdop.upper[i];
      const Pack lower = whole ? *at(kdop.lower) : Pack{} + kdop.lower[i];
      const Mask above = middle - radius > upper;
      const Mask below = middle + radius < lower;
      // Lanes past the last axis compare what the kDOP holds there (empty slabs): masked off.
      const Mask separating = (above | below) & *reinterpret_cast<const UnalignedMask*>(&isAxis_[i]);
      if (!((separating[0] | separating[1]) | (separating[2] | separating[3]))) continue;
      int lane = 0;
      while (!separating[lane]) ++lane;
      distance = above[lane] ? middle[lane] - boxRadius[lane] - upper[lane] : lower[lane] - middle[lane] - boxRadius[lane];
      return true;
    }
    return false;
  }

 private:
  static constexpr int kLanes = 4;
  static constexpr int kPaddedAxes = (kMaxKdopAxes + kLanes - 1) / kLanes * kLanes;
  using Pack = double __attribute__((vector_size(kLanes * sizeof(double))));
  using Mask = std::int64_t __attribute__((vector_size(kLanes * sizeof(std::int64_t))));
  using UnalignedPack = double __attribute__((vector_size(kLanes * sizeof(double)), aligned(sizeof(double)), may_alias));
  using UnalignedMask =
      std::int64_t __attribute__((vector_size(kLanes * sizeof(std::int64_t)), aligned(sizeof(std::int64_t)), may_alias));
  using Values = std::array<double, kPaddedAxes>;
  // Per axis a: the components of R^T a, of |R^T a|, and a . t (zero past the last axis).
  Values x_{}, y_{}, z_{}, absX_{}, absY_{}, absZ_{}, offset_{};
  std::array<std::int64_t, kPaddedAxes> isAxis_{};  // all bits set for the axes, zero past them
  int axisCount_;
  double margin_;
};

}  // namespace contactlab
