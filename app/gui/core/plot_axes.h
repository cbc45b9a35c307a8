#pragma once
// Axis ranges, "nice" tick positions and tick labels for the plot widget; pure functions so that
// they are tested without a window.
#include <string>
#include <vector>

namespace contactlab::app {

struct AxisRange {
  double lower = 0.0;
  double upper = 1.0;
};

// Ticks at multiples of 1, 2 or 5 times a power of ten inside [lower, upper], at most maxTicks + 1
// of them; e.g. [0, 7.3] gives 0..7 (maxTicks 8) or 0, 2, 4, 6 (maxTicks 4). The step is at least
// minStep (1 for an axis of whole numbers such as iterations, so that it never shows 1.5).
std::vector<double> linearTicks(double lower, double upper, int maxTicks, double minStep = 0.0);
// The step linearTicks uses for the same arguments (for label precision).
double linearTickStep(double lower, double upper, int maxTicks, double minStep = 0.0);

// Powers of ten inside [lower, upper] (both > 0), every k-th decade when there are more than
// maxTicks; falls back to linearTicks when the range holds no power of ten.
std::vector<double> logTicks(double lower, double upper, int maxTicks);

// A linear range widened to whole tick steps, so the outermost ticks sit on the frame; a flat
// range (one point, constant series) is widened around its value.
AxisRange niceLinearRange(double lower, double upper, int maxTicks);
// A log range widened to whole decades, at least one decade wide; needs 0 < lower <= upper.
AxisRange decadeRange(double lower, double upper);

// "0", "0.5", "-2.25", "1.5e+06": enough decimals to tell ticks `step` apart, no more.
std::string formatLinearTick(double value, double step);
// "1e-07", "0.01", "1", "100", "1e+04": plain below 1e4 and down to 1e-3, exponent form otherwise.
std::string formatLogTick(double value);
// A read-out value with 4 significant digits ("0.0123", "1.235e-05", "42").
std::string formatValue(double value);

}  // namespace contactlab::app
