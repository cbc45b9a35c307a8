#pragma once
// A small line plot drawn with ImGui's draw list (ImPlot is not packaged): several series, axes with
// tick labels, a legend, an optional log y axis and a hover read-out of every series at the nearest x.
#include <imgui.h>

#include <string>
#include <vector>

namespace contactlab::app {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  // x non-decreasing (steps, times, iterations); y may hold NaN (skipped)
  ImU32 color = IM_COL32(255, 255, 255, 255);
};

struct PlotOptions {
  bool logY = false;    // values <= 0 are not drawn
  bool integerX = false;  // x holds whole numbers (iterations, steps): no ticks in between
  float height = 160;   // pixels, the whole widget; it takes the available width
  const char* xLabel = "";
  const char* yLabel = "";
  // Shown instead of the plot when there is nothing to draw (default: "no data yet", or "no
  // positive values to plot" on a log scale).
  const char* emptyMessage = nullptr;
};

// Draws the plot as one ImGui item with the given id (unique within the window).
void drawPlot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& options);

}  // namespace contactlab::app
