#include "collision/kdop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
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

// A point's path (point + t move) against a kDOP: it may come within the distance if any point of the
// path may; the bound it gives is that of the path's nearest end on the separating slab.
TEST(Kdop, PathOfAPointIsTestedAsAWhole) {
  const auto axes = kdopAxes(14);
  const Kdop unitCube = kdopOfPoints(axes, std::vector<Vec3>{{0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                                              {1, 1, 0}, {1, 0, 1}, {0, 1, 1}});
  const Vec3 start(3, 0.5, 0.5);
  const AxisComponents components(axes);
  auto path = [&](const Vec3& move) { return projectPathOnAxes(components, start, move); };
  double bound = 0.0;
  EXPECT_FALSE(unitCube.mayBeWithin(path(Vec3::Zero()), 0.5, bound));
  EXPECT_DOUBLE_EQ(bound, 2.0);
  EXPECT_TRUE(unitCube.mayBeWithin(path(Vec3(-2.5, 0, 0)), 0.5, bound));  // into the cube
  EXPECT_FALSE(unitCube.mayBeWithin(path(Vec3(-1, 0, 0)), 0.5, bound));   // stops 1 short
  EXPECT_DOUBLE_EQ(bound, 1.0);
  EXPECT_FALSE(unitCube.mayBeWithin(path(Vec3(2, 0, 0)), 0.5, bound));  // away: the start
  EXPECT_DOUBLE_EQ(bound, 2.0);
}

// Random points and kDOPs of a few random points each, for k = 14, 18 and 26 (7, 9 and 13 axes:
// pairs of slabs and an odd last one) and for the first three axes only.
struct RandomKdops {
  std::mt19937 random{20261125};
  std::uniform_real_distribution<double> coordinate{-2.0, 2.0};
  Vec3 point() { return Vec3(coordinate(random), coordinate(random), coordinate(random)); }
  Kdop kdop(std::span<const Vec3> axes) {
    const std::vector<Vec3> points{point(), point(), point()};
    return kdopOfPoints(axes, points);
  }
  // A box given in another frame (that frame's pose in the kDOP's frame, the box's centre and half
  // extents in it) and a margin to test it with.
  struct Box {
    Pose frameInKdopFrame;
    Vec3 centre, halfExtents;
    double margin;
  };
  Box box() {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const Vec3 axisPart = point();
    const Quat orientation = Quat(coordinate(random), axisPart.x(), axisPart.y(), axisPart.z()).normalized();
    Box box{{point(), orientation.toRotationMatrix()}, point(), Vec3::Zero(), 0.0};
    box.halfExtents = Vec3(unit(random), unit(random), unit(random));
    box.margin = 0.1 * unit(random);
    return box;
  }
  static std::vector<std::span<const Vec3>> axisSets() {
    return {kdopAxes(14), kdopAxes(18), kdopAxes(26), kdopAxes(18).first(3)};
  }
};

TEST(Kdop, DistanceBoundIsTheLargestGapOverAllSlabs) {
  RandomKdops random;
  for (const auto axes : RandomKdops::axisSets())
    for (int trial = 0; trial < 500; ++trial) {
      const Kdop kdop = random.kdop(axes);
      const Vec3 point = 3.0 * random.point();
      double largestGap = 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        const double along = axes[i].dot(point);
        largestGap = std::max({largestGap, kdop.lower[i] - along, along - kdop.upper[i]});
      }
      EXPECT_EQ(kdop.distanceBound(projectOnAxes(axes, point)), largestGap) << axes.size() << " axes, trial " << trial;
    }
}

// A path point + t move projected two axes at a time: its interval on each axis is bitwise the one
// of projecting its two ends axis by axis, and the path's bound is the largest gap between a slab
// and that interval, below the bound of every point of the path (sampled).
TEST(Kdop, PathBoundIsTheLargestGapOfItsIntervals) {
  RandomKdops random;
  for (const auto axes : RandomKdops::axisSets())
    for (int trial = 0; trial < 500; ++trial) {
      const Kdop kdop = random.kdop(axes);
      const Vec3 point = 3.0 * random.point(), move = random.point();
      const PathProjections path = projectPathOnAxes(AxisComponents(axes), point, move);
      ASSERT_EQ(path.count, static_cast<int>(axes.size()));
      double largestGap = 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        const double start = axes[i].dot(point), along = axes[i].dot(move);
        EXPECT_EQ(path.low[i], start + std::min(0.0, along)) << axes.size() << " axes, axis " << i;
        EXPECT_EQ(path.high[i], start + std::max(0.0, along)) << axes.size() << " axes, axis " << i;
        largestGap = std::max({largestGap, kdop.lower[i] - path.high[i], path.low[i] - kdop.upper[i]});
      }
      EXPECT_EQ(kdop.distanceBound(path), largestGap) << axes.size() << " axes, trial " << trial;
      for (double t = 0.0; t <= 1.0; t += 0.125)
        EXPECT_LE(kdop.distanceBound(path), kdop.distanceBound(projectOnAxes(axes, point + t * move)) + 1e-12);
      double bound = -1.0;
      EXPECT_EQ(kdop.mayBeWithin(path, 0.5, bound), largestGap <= 0.5);
      EXPECT_EQ(bound, largestGap);
    }
}

// The box is given in another frame; on each axis its extent is that of its eight corners placed in
// the kDOP's frame, and the test must find the first axis (in order) on which that extent, grown by
// the margin, misses the kDOP's slab, with the gap there. With a sweep, the box's whole path: the
// corners where it starts and where it ends (in the kDOP's frame).
TEST(OrientedBoxTest, FindsTheFirstSeparatingSlabOfTheBoxCorners) {
  RandomKdops random;
  int separatedCount = 0, overlappingCount = 0;
  for (const bool moving : {false, true})
    for (const auto axes : RandomKdops::axisSets())
      for (int trial = 0; trial < 500; ++trial) {
        const Kdop kdop = random.kdop(axes);
        const auto [boxFrameInKdopFrame, centre, halfExtents, margin] = random.box();
        const Vec3 translation = moving ? Vec3(random.point()) : Vec3::Zero();
        double expectedDistance = std::numeric_limits<double>::quiet_NaN();
        for (size_t i = 0; i < axes.size() && std::isnan(expectedDistance); ++i) {
          double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
          for (int corner = 0; corner < 8; ++corner) {
            const Vec3 signs((corner & 1) ? 1 : -1, (corner & 2) ? 1 : -1, (corner & 4) ? 1 : -1);
            const Vec3 inKdopFrame = boxFrameInKdopFrame.position +
                                     boxFrameInKdopFrame.rotation * (centre + signs.cwiseProduct(halfExtents));
            for (const Vec3& end : {inKdopFrame, Vec3(inKdopFrame + translation)}) {
              lowest = std::min(lowest, axes[i].dot(end));
              highest = std::max(highest, axes[i].dot(end));
            }
          }
          if (lowest - margin > kdop.upper[i]) expectedDistance = lowest - kdop.upper[i];
          if (highest + margin < kdop.lower[i]) expectedDistance = kdop.lower[i] - highest;
        }
        const OrientedBoxTest test(axes, boxFrameInKdopFrame, margin, LinearMotion{translation});
        double distance = -1.0;
        const bool separated = test.separated(kdop, centre, halfExtents, distance);
        ASSERT_EQ(separated, !std::isnan(expectedDistance)) << axes.size() << " axes, trial " << trial;
        EXPECT_EQ(test.overlaps(kdop, centre, halfExtents), !separated);
        if (separated) EXPECT_NEAR(distance, expectedDistance, 1e-12) << axes.size() << " axes, trial " << trial;
        ++(separated ? separatedCount : overlappingCount);
      }
  // Both outcomes are exercised.
  EXPECT_GT(separatedCount, 400);
  EXPECT_GT(overlappingCount, 400);
}

// With a turn each point p of the box follows its own path p + t (shift + turn x p) (kDOP frame):
// a box the test separates has every point of every such path (corners, inner points, sampled in t)
// farther from the kDOP than the margin, at least by the distance it reports on some slab.
TEST(OrientedBoxTest, SeparatesTurningBoxesOnlyFromWhereTheirPointsGo) {
  RandomKdops random;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int separatedCount = 0, overlappingCount = 0;
  for (const auto axes : RandomKdops::axisSets())
    for (int trial = 0; trial < 500; ++trial) {
      const Kdop kdop = random.kdop(axes);
      const auto [boxFrameInKdopFrame, centre, halfExtents, margin] = random.box();
      const LinearMotion motion{0.5 * random.point(), 0.4 * random.point()};
      const OrientedBoxTest test(axes, boxFrameInKdopFrame, margin, motion);
      double distance = -1.0;
      const bool separated = test.separated(kdop, centre, halfExtents, distance);
      ++(separated ? separatedCount : overlappingCount);
      if (!separated) continue;
      EXPECT_GT(distance, margin);
      for (int sample = 0; sample < 40; ++sample) {
        // The eight corners, then points inside the box.
        const Vec3 signs = sample < 8 ? Vec3((sample & 1) ? 1 : -1, (sample & 2) ? 1 : -1, (sample & 4) ? 1 : -1)
                                      : Vec3(2 * unit(random.random) - 1, 2 * unit(random.random) - 1,
                                             2 * unit(random.random) - 1);
        const Vec3 start = boxFrameInKdopFrame.position +
                           boxFrameInKdopFrame.rotation * (centre + signs.cwiseProduct(halfExtents));
        for (double t = 0.0; t <= 1.0; t += 0.25)
          ASSERT_GE(kdop.distanceBound(projectOnAxes(axes, start + t * motion.of(start))), distance - 1e-12)
              << axes.size() << " axes, trial " << trial << ", sample " << sample << ", t " << t;
      }
    }
  EXPECT_GT(separatedCount, 300);
  EXPECT_GT(overlappingCount, 300);
}

}  // namespace
}  // namespace contactlab
