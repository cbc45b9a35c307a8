#include "core/plot_sampling.h"

#include <algorithm>
#include <cmath>

namespace contactlab::app {
namespace {

bool drawable(double x, double y, bool logY) { return std::isfinite(x) && std::isfinite(y) && (!logY || y > 0.0); }

}  // namespace

std::vector<std::size_t> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                                        double xLower, double xUpper, int columns, bool logY) {
  std::vector<std::size_t> kept;
  const std::size_t count = std::min(x.size(), y.size());
  if (count == 0 || columns <= 0 || !(xUpper >= xLower)) return kept;
  const double span = xUpper - xLower;
  const double columnsPerUnit = span > 0.0 ? columns / span : 0.0;

  long long currentColumn = -1;
  std::size_t lowest = 0, highest = 0;
  auto flush = [&] {
    if (currentColumn < 0) return;
    kept.push_back(std::min(lowest, highest));
    if (lowest != highest) kept.push_back(std::max(lowest, highest));
  };
  for (std::size_t i = 0; i < count; ++i) {
    if (!drawable(x[i], y[i], logY) || x[i] < xLower || x[i] > xUpper) continue;
    const long long column = std::min<long long>(static_cast<long long>((x[i] - xLower) * columnsPerUnit), columns - 1);
    if (column != currentColumn) {
      flush();
      currentColumn = column;
      lowest = highest = i;
    } else {
      if (y[i] < y[lowest]) lowest = i;
      if (y[i] > y[highest]) highest = i;
    }
  }
  flush();
  return kept;
}

std::optional<std::size_t> nearestPoint(const std::vector<double>& x, const std::vector<double>& y, double target,
                                        bool logY) {
  const std::size_t count = std::min(x.size(), y.size());
  // First point at or after the target, then walk outwards to the nearest drawable one on each side.
  const auto split = static_cast<std::size_t>(std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(count), target) - x.begin());
  std::optional<std::size_t> after, before;
  for (std::size_t i = split; i < count; ++i) {
    if (drawable(x[i], y[i], logY)) {
      after = i;
      break;
    }
  }
  for (std::size_t i = split; i > 0; --i) {
    if (drawable(x[i - 1], y[i - 1], logY)) {
      before = i - 1;
      break;
    }
  }
  if (!before) return after;
  if (!after) return before;
  return target - x[*before] <= x[*after] - target ? before : after;
}

}  // namespace contactlab::app
