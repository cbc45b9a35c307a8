#pragma once
// Which points of a series the plot widget draws and reads out; pure functions, tested without a window.
#include <cstddef>
#include <optional>
#include <vector>

namespace contactlab::app {

// Indices (ascending) of the points to draw for a series whose x is non-decreasing, at most two per
// pixel column: the lowest and the highest y of the column, so that spikes survive decimation.
// Points with a non-finite x or y, or y <= 0 when logY, are skipped (a log axis cannot show them).
// [xLower, xUpper] maps onto `columns` columns; points outside it are skipped.
std::vector<std::size_t> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y,
                                        double xLower, double xUpper, int columns, bool logY);

// Index of the drawable point (finite, and y > 0 when logY) whose x is closest to `target`;
// x must be non-decreasing. nullopt when the series has no drawable point.
std::optional<std::size_t> nearestPoint(const std::vector<double>& x, const std::vector<double>& y, double target,
                                        bool logY);

}  // namespace contactlab::app
