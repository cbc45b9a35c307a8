#include "core/plot_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace contactlab::app {
namespace {

// Tick positions within this fraction of a step of a bound count as on it (rounding of i*step).
constexpr double kBoundSlack = 1e-9;

std::string printfString(const char* format, int precision, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, precision, value);
  return buffer;
}

}  // namespace

double linearTickStep(double lower, double upper, int maxTicks, double minStep) {
  const double span = upper - lower;
  if (!std::isfinite(span) || span <= 0.0) return 0.0;
  const double rough = span / std::max(maxTicks, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  const double fraction = rough / magnitude;
  const double nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;
  return std::max(nice * magnitude, minStep);
}

std::vector<double> linearTicks(double lower, double upper, int maxTicks, double minStep) {
  const double step = linearTickStep(lower, upper, maxTicks, minStep);
  if (step <= 0.0 || !std::isfinite(step)) {
    if (std::isfinite(lower) && lower == upper) return {lower};
    return {};
  }
  std::vector<double> ticks;
  const auto first = static_cast<long long>(std::ceil(lower / step - kBoundSlack));
  const auto last = static_cast<long long>(std::floor(upper / step + kBoundSlack));
  for (long long i = first; i <= last; ++i) {
    // i * step instead of accumulating, so 0.1 * 3 does not drift; exact zero for i == 0.
    ticks.push_back(static_cast<double>(i) * step);
  }
  return ticks;
}

std::vector<double> logTicks(double lower, double upper, int maxTicks) {
  if (!(lower > 0.0) || !(upper >= lower) || !std::isfinite(upper)) return {};
  const int firstDecade = static_cast<int>(std::ceil(std::log10(lower) - kBoundSlack));
  const int lastDecade = static_cast<int>(std::floor(std::log10(upper) + kBoundSlack));
  if (lastDecade < firstDecade) return linearTicks(lower, upper, maxTicks);
  const int decades = lastDecade - firstDecade + 1;
  const int stride = (decades + std::max(maxTicks, 1) - 1) / std::max(maxTicks, 1);
  std::vector<double> ticks;
  for (int e = firstDecade; e <= lastDecade; ++e) {
    // Multiples of the stride, so that the labelled decades do not shift as the range grows.
    if (e % stride == 0) ticks.push_back(std::pow(10.0, e));
  }
  return ticks;
}

AxisRange niceLinearRange(double lower, double upper, int maxTicks) {
  if (!std::isfinite(lower) || !std::isfinite(upper)) return {0.0, 1.0};
  if (upper < lower) std::swap(lower, upper);
  if (upper == lower) {
    const double pad = lower == 0.0 ? 1.0 : 0.1 * std::abs(lower);
    lower -= pad;
    upper += pad;
  }
  const double step = linearTickStep(lower, upper, maxTicks);
  if (!(step > 0.0)) return {lower, upper};
  return {std::floor(lower / step + kBoundSlack) * step, std::ceil(upper / step - kBoundSlack) * step};
}

AxisRange decadeRange(double lower, double upper) {
  if (!(lower > 0.0) || !std::isfinite(upper) || upper < lower) return {1.0, 10.0};
  const double lowerDecade = std::floor(std::log10(lower) + kBoundSlack);
  double upperDecade = std::ceil(std::log10(upper) - kBoundSlack);
  if (upperDecade <= lowerDecade) upperDecade = lowerDecade + 1.0;
  return {std::pow(10.0, lowerDecade), std::pow(10.0, upperDecade)};
}

std::string formatLinearTick(double value, double step) {
  if (value == 0.0 || std::abs(value) < 1e-12 * step) return "0";
  const double magnitude = std::abs(value);
  if (magnitude >= 1e6 || magnitude < 1e-4) return printfString("%.*g", 3, value);
  const int decimals = step > 0.0 && step < 1.0 ? static_cast<int>(std::ceil(-std::log10(step) - kBoundSlack)) : 0;
  return printfString("%.*f", std::min(decimals, 8), value);
}

std::string formatLogTick(double value) {
  if (value >= 1e-3 && value < 1e4) return printfString("%.*g", 4, value);
  return printfString("%.*e", 0, value);
}

std::string formatValue(double value) { return printfString("%.*g", 4, value); }

}  // namespace contactlab::app
