#include "core/plot_sampling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace contactlab::app {
namespace {

TEST(DecimateMinMax, KeepsEveryPointWhenThereIsRoom) {
  const std::vector<double> x = {0, 1, 2, 3};
  const std::vector<double> y = {5, 6, 7, 8};
  EXPECT_EQ(decimateMinMax(x, y, 0, 3, 100, false), (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(DecimateMinMax, SinglePoint) {
  EXPECT_EQ(decimateMinMax({4.0}, {1.0}, 4.0, 4.0, 300, false), (std::vector<std::size_t>{0}));
}

TEST(DecimateMinMax, AtMostTwoPointsPerColumnAndSpikesSurvive) {
  const std::size_t count = 20000;
  std::vector<double> x(count), y(count);
  for (std::size_t i = 0; i < count; ++i) {
    x[i] = static_cast<double>(i);
    y[i] = std::sin(0.01 * static_cast<double>(i));
  }
  y[12345] = 50.0;  // a one-sample spike
  y[777] = -50.0;
  const int columns = 400;
  const std::vector<std::size_t> kept = decimateMinMax(x, y, 0.0, count - 1.0, columns, false);
  EXPECT_LE(kept.size(), 2u * columns);
  EXPECT_GE(kept.size(), static_cast<std::size_t>(columns));
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  EXPECT_NE(std::find(kept.begin(), kept.end(), 12345u), kept.end());
  EXPECT_NE(std::find(kept.begin(), kept.end(), 777u), kept.end());
  EXPECT_EQ(kept.front(), 0u);
}

TEST(DecimateMinMax, LogScaleSkipsNonPositiveAndNonFiniteValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {1, 2, 3, 4, 5};
  const std::vector<double> y = {1e-3, 0.0, -2.0, nan, 1e-5};
  EXPECT_EQ(decimateMinMax(x, y, 1, 5, 100, true), (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(decimateMinMax(x, y, 1, 5, 100, false), (std::vector<std::size_t>{0, 1, 2, 4}));
}

TEST(NearestPoint, PicksTheClosestX) {
  const std::vector<double> x = {0.0, 1.0, 2.0, 4.0};
  const std::vector<double> y = {1, 1, 1, 1};
  EXPECT_EQ(nearestPoint(x, y, 2.9, false), 2u);
  EXPECT_EQ(nearestPoint(x, y, 3.1, false), 3u);
  EXPECT_EQ(nearestPoint(x, y, -5.0, false), 0u);
  EXPECT_EQ(nearestPoint(x, y, 99.0, false), 3u);
}

TEST(NearestPoint, SkipsPointsALogAxisCannotShow) {
  const std::vector<double> x = {0.0, 1.0, 2.0};
  const std::vector<double> y = {1e-3, 0.0, 1e-4};
  EXPECT_EQ(nearestPoint(x, y, 1.1, true), 2u);
  EXPECT_EQ(nearestPoint(x, y, 1.1, false), 1u);
  EXPECT_EQ(nearestPoint({}, {}, 1.0, false), std::nullopt);
  EXPECT_EQ(nearestPoint({1.0}, {-1.0}, 1.0, true), std::nullopt);
}

}  // namespace
}  // namespace contactlab::app
