#include "core/plot_axes.h"

#include <gtest/gtest.h>

#include <vector>

namespace contactlab::app {
namespace {

TEST(LinearTicks, UnitStepsForZeroToSevenPointThree) {
  EXPECT_EQ(linearTicks(0.0, 7.3, 8), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_DOUBLE_EQ(linearTickStep(0.0, 7.3, 8), 1.0);
}

TEST(LinearTicks, FewerTicksUseTwos) { EXPECT_EQ(linearTicks(0.0, 7.3, 4), (std::vector<double>{0, 2, 4, 6})); }

TEST(LinearTicks, FivesAndNegativeRanges) {
  EXPECT_EQ(linearTicks(-12.0, 12.0, 5), (std::vector<double>{-10, -5, 0, 5, 10}));
}

TEST(LinearTicks, DecimalStepsAreExactMultiples) {
  const std::vector<double> ticks = linearTicks(0.0, 0.3, 3);
  ASSERT_EQ(ticks.size(), 4u);
  EXPECT_DOUBLE_EQ(ticks[1], 0.1);
  EXPECT_DOUBLE_EQ(ticks[3], 0.3);  // the upper bound itself, despite 3 * 0.1 > 0.3
}

// An axis of iterations: one solve that took 2 sweeps, or a single sweep drawn over [0.5, 1.5],
// is labelled with whole numbers only.
TEST(LinearTicks, MinimumStepKeepsWholeNumbers) {
  EXPECT_EQ(linearTicks(1.0, 2.0, 6, 1.0), (std::vector<double>{1, 2}));
  EXPECT_EQ(linearTicks(0.5, 1.5, 6, 1.0), (std::vector<double>{1}));
  EXPECT_DOUBLE_EQ(linearTickStep(1.0, 2.0, 6, 1.0), 1.0);
  EXPECT_EQ(linearTicks(1.0, 21.0, 6, 1.0), (std::vector<double>{5, 10, 15, 20}));  // larger steps unchanged
  EXPECT_EQ(linearTicks(1.0, 2.0, 5).size(), 6u);  // without a minimum: 1, 1.2, ..., 2
}

TEST(LinearTicks, DegenerateRanges) {
  EXPECT_EQ(linearTicks(2.5, 2.5, 5), (std::vector<double>{2.5}));
  EXPECT_TRUE(linearTicks(1.0, 0.0, 5).empty());
  EXPECT_TRUE(linearTicks(0.0, std::numeric_limits<double>::infinity(), 5).empty());
  EXPECT_TRUE(linearTicks(std::numeric_limits<double>::quiet_NaN(), 1.0, 5).empty());
}

TEST(LogTicks, DecadesOfAResidualRange) {
  EXPECT_EQ(logTicks(1e-7, 3e-2, 10), (std::vector<double>{1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}));
}

TEST(LogTicks, EveryOtherDecadeWhenCrowded) {
  EXPECT_EQ(logTicks(1e-9, 1e1, 6), (std::vector<double>{1e-8, 1e-6, 1e-4, 1e-2, 1.0}));
  EXPECT_EQ(logTicks(1e-9, 1e1, 5), (std::vector<double>{1e-9, 1e-6, 1e-3, 1.0}));
}

TEST(LogTicks, NoDecadeInsideFallsBackToLinear) { EXPECT_EQ(logTicks(2.0, 8.0, 3), (std::vector<double>{2, 4, 6, 8})); }

TEST(LogTicks, NonPositiveLowerBoundGivesNoTicks) {
  EXPECT_TRUE(logTicks(0.0, 10.0, 5).empty());
  EXPECT_TRUE(logTicks(-1.0, 10.0, 5).empty());
}

TEST(NiceLinearRange, WidensToWholeSteps) {
  const AxisRange range = niceLinearRange(0.3, 7.3, 8);
  EXPECT_DOUBLE_EQ(range.lower, 0.0);
  EXPECT_DOUBLE_EQ(range.upper, 8.0);
}

TEST(NiceLinearRange, FlatSeriesGetsARangeAroundItsValue) {
  const AxisRange range = niceLinearRange(5.0, 5.0, 5);
  EXPECT_LT(range.lower, 5.0);
  EXPECT_GT(range.upper, 5.0);
  const AxisRange zero = niceLinearRange(0.0, 0.0, 5);
  EXPECT_DOUBLE_EQ(zero.lower, -1.0);
  EXPECT_DOUBLE_EQ(zero.upper, 1.0);
}

TEST(DecadeRange, WidensToWholeDecades) {
  const AxisRange range = decadeRange(3e-7, 2e-2);
  EXPECT_DOUBLE_EQ(range.lower, 1e-7);
  EXPECT_DOUBLE_EQ(range.upper, 1e-1);
  const AxisRange single = decadeRange(1e-3, 1e-3);
  EXPECT_DOUBLE_EQ(single.lower, 1e-3);
  EXPECT_DOUBLE_EQ(single.upper, 1e-2);
}

TEST(TickLabels, LinearPrecisionFollowsTheStep) {
  EXPECT_EQ(formatLinearTick(0.0, 0.5), "0");
  EXPECT_EQ(formatLinearTick(2.0, 1.0), "2");
  EXPECT_EQ(formatLinearTick(1.5, 0.5), "1.5");
  EXPECT_EQ(formatLinearTick(0.25, 0.05), "0.25");
  EXPECT_EQ(formatLinearTick(-40.0, 20.0), "-40");
  EXPECT_EQ(formatLinearTick(2.0e6, 1.0e6), "2e+06");
  EXPECT_EQ(formatLinearTick(1e-17, 0.1), "0");  // rounding noise at zero
}

TEST(TickLabels, LogDecades) {
  EXPECT_EQ(formatLogTick(1e-7), "1e-07");
  EXPECT_EQ(formatLogTick(1e-3), "0.001");
  EXPECT_EQ(formatLogTick(1.0), "1");
  EXPECT_EQ(formatLogTick(100.0), "100");
  EXPECT_EQ(formatLogTick(1e4), "1e+04");
}

TEST(TickLabels, ReadOutValues) {
  EXPECT_EQ(formatValue(42.0), "42");
  EXPECT_EQ(formatValue(0.012345), "0.01235");
  EXPECT_EQ(formatValue(1.23456e-5), "1.235e-05");
}

}  // namespace
}  // namespace contactlab::app
