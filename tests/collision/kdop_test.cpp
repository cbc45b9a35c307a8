#include "collision/kdop.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace contactlab {
namespace {

TEST(Kdop, AxesPerK) {
  for (int k : {14, 18, 26}) {
    const auto axes = kdopAxes(k);
    ASSERT_EQ(static_cast<int>(axes.size()), k / 2);
    EXPECT_EQ(axes[0], Vec3::UnitX());
    EXPECT_EQ(axes[1], Vec3::UnitY());
    EXPECT_EQ(axes[2], Vec3::UnitZ());
    for (size_t i = 0; i < axes.size(); ++i) {
      EXPECT_NEAR(axes[i].norm(), 1.0, 1e-15);
      for (size_t j = 0; j < i; ++j) EXPECT_LT(std::abs(axes[i].dot(axes[j])), 1.0 - 1e-6) << k << ": " << i << " " << j;
    }
  }
}

TEST(Kdop, RejectsUnsupportedK) {
  EXPECT_FALSE(isSupportedKdop(6));
  EXPECT_TRUE(isSupportedKdop(26));
  EXPECT_THROW(kdopAxes(16), std::invalid_argument);
}

// Two unit cubes' corners near each other across the (1, 1, 1) diagonal: their bounding boxes
// overlap, but the plane x + y + z = 3 separates them, which the 14- and 26-DOPs (that have the
// corner diagonal) see and the 18-DOP (edge diagonals only) does not.
TEST(Kdop, DiagonalSlabsSeparateWhatBoxesCannot) {
  const std::vector<Vec3> a{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};   // x + y + z <= 1
  const std::vector<Vec3> b{{0.9, 0.9, 0.9}, {0.9, 0.9, 0.0}, {0.9, 0.0, 0.9}, {0.0, 0.9, 0.9}};  // >= 1.8
  for (int k : {14, 18, 26}) {
    const auto axes = kdopAxes(k);
    const Kdop ka = kdopOfPoints(axes, a), kb = kdopOfPoints(axes, b);
    EXPECT_TRUE(ka.overlaps(kb, 3)) << "the boxes overlap";
    EXPECT_EQ(ka.overlaps(kb, k / 2), k == 18) << k;
  }
}

TEST(Kdop, MergeHoldsBoth) {
  const auto axes = kdopAxes(26);
  Kdop merged = kdopOfPoints(axes, std::vector<Vec3>{{0, 0, 0}});
  merged.merge(kdopOfPoints(axes, std::vector<Vec3>{{2, -1, 3}}), 13);
  for (size_t i = 0; i < axes.size(); ++i) {
    EXPECT_DOUBLE_EQ(merged.lower[i], std::min(0.0, axes[i].dot(Vec3(2, -1, 3))));
    EXPECT_DOUBLE_EQ(merged.upper[i], std::max(0.0, axes[i].dot(Vec3(2, -1, 3))));
  }
  EXPECT_EQ(merged.boxCentre(), Vec3(1, -0.5, 1.5));
  EXPECT_EQ(merged.boxHalfExtents(), Vec3(1, 0.5, 1.5));
}

// The oriented box's kDOP is exact: every slab is touched by a corner of the box and holds all.
TEST(Kdop, OrientedBoxSlabsTouchTheCorners) {
  const Mat3 rotation = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const Vec3 centre(0.3, -1, 2), half(0.5, 0.2, 1.5);
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.push_back(centre + rotation * Vec3((c & 1) ? half.x() : -half.x(), (c & 2) ? half.y() : -half.y(),
                                               (c & 4) ? half.z() : -half.z()));
  for (int k : {14, 18, 26}) {
    const auto axes = kdopAxes(k);
    const Kdop box = kdopOfOrientedBox(axes, centre, rotation, half, 0.0);
    const Kdop hull = kdopOfPoints(axes, corners);
    for (int i = 0; i < k / 2; ++i) {
      EXPECT_NEAR(box.lower[i], hull.lower[i], 1e-12);
      EXPECT_NEAR(box.upper[i], hull.upper[i], 1e-12);
    }
    const Kdop grown = kdopOfOrientedBox(axes, centre, rotation, half, 0.25);
    EXPECT_NEAR(grown.upper[5] - box.upper[5], 0.25, 1e-12);
  }
}

TEST(Kdop, DistanceBoundIsTheFarthestSlab) {
  const auto axes = kdopAxes(14);
  const Kdop unitCube = kdopOfPoints(axes, std::vector<Vec3>{{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                                              {1, 1, 0}, {1, 0, 1}, {0, 1, 1}});
  EXPECT_DOUBLE_EQ(unitCube.distanceBound(projectOnAxes(axes, Vec3(0.5, 0.5, 0.5))), 0.0);
  EXPECT_DOUBLE_EQ(unitCube.distanceBound(projectOnAxes(axes, Vec3(3, 0.5, 0.5))), 2.0);
  // Beyond the corner (1, 1, 1) along the diagonal: the diagonal slab gives the exact distance.
  EXPECT_NEAR(unitCube.distanceBound(projectOnAxes(axes, Vec3(2, 2, 2))), std::sqrt(3.0), 1e-12);
}

}  // namespace
}  // namespace contactlab
