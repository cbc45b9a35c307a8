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
