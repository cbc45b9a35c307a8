#include "ui/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/plot_axes.h"
#include "core/plot_sampling.h"

namespace contactlab::app {
namespace {

constexpr float kMinimumWidth = 60.0f;
constexpr float kPadding = 4.0f;
constexpr float kTickLength = 4.0f;
constexpr float kDataInset = 3.0f;
constexpr float kPixelsPerXTick = 55.0f;  // at most: labels that would touch are left out
constexpr float kLineWidth = 1.5f;
// Fewer drawn points than one per this many pixels: mark each point, so a short curve (a solve
// that converged in 3 sweeps) does not look like a bare line.
constexpr float kPixelsPerMarkedPoint = 8.0f;

bool drawable(double x, double y, bool logY) { return std::isfinite(x) && std::isfinite(y) && (!logY || y > 0.0); }

// Maps data values onto the plot rectangle, linear in x and linear or log10 in y.
struct Mapping {
  AxisRange x, y;
  bool logY = false;
  ImVec2 min, max;  // plot area in screen pixels

  double yCoordinate(double value) const { return logY ? std::log10(value) : value; }
  float pixelX(double value) const {
    const double span = x.upper - x.lower;
    const double t = span > 0.0 ? (value - x.lower) / span : 0.5;
    return min.x + static_cast<float>(t) * (max.x - min.x);
  }
  float pixelY(double value) const {
    const double lower = yCoordinate(y.lower), upper = yCoordinate(y.upper);
    const double t = upper > lower ? (yCoordinate(value) - lower) / (upper - lower) : 0.5;
    return max.y - static_cast<float>(t) * (max.y - min.y);
  }
  double valueAtPixelX(float pixel) const {
    const float width = max.x - min.x;
    return x.lower + (width > 0.0f ? (pixel - min.x) / width : 0.0) * (x.upper - x.lower);
  }
};

struct DataBounds {
  double xMin = std::numeric_limits<double>::infinity(), xMax = -std::numeric_limits<double>::infinity();
  double yMin = std::numeric_limits<double>::infinity(), yMax = -std::numeric_limits<double>::infinity();
  bool empty() const { return !(xMin <= xMax); }
};

// The y range over the drawable points; the x range over every point with a finite y, so that
// plots over the same steps share their x axis even where a log scale leaves zeros out (steps
// without a solve).
DataBounds boundsOf(const std::vector<PlotSeries>& series, bool logY) {
  DataBounds bounds, xOfAll;
  for (const PlotSeries& s : series) {
    const std::size_t count = std::min(s.x.size(), s.y.size());
    for (std::size_t i = 0; i < count; ++i) {
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        xOfAll.xMin = std::min(xOfAll.xMin, s.x[i]);
        xOfAll.xMax = std::max(xOfAll.xMax, s.x[i]);
      }
      if (!drawable(s.x[i], s.y[i], logY)) continue;
      bounds.yMin = std::min(bounds.yMin, s.y[i]);
      bounds.yMax = std::max(bounds.yMax, s.y[i]);
    }
  }
  if (bounds.yMin <= bounds.yMax) {
    bounds.xMin = xOfAll.xMin;
    bounds.xMax = xOfAll.xMax;
  }
  return bounds;
}

std::vector<std::string> yTickLabels(const std::vector<double>& ticks, const AxisRange& range, bool logY, int maxTicks) {
  std::vector<std::string> labels;
  const double step = linearTickStep(range.lower, range.upper, maxTicks);
  for (const double tick : ticks) labels.push_back(logY ? formatLogTick(tick) : formatLinearTick(tick, step));
  return labels;
}

float legendEntryWidth(const PlotSeries& s, float swatch) { return swatch + kPadding + ImGui::CalcTextSize(s.label.c_str()).x; }

// The legend's entries in order, in rows no wider than `width` each, for the header above the plot;
// nothing when one entry alone is wider.
std::vector<std::vector<std::size_t>> legendRows(const std::vector<PlotSeries>& series, float width) {
  const float swatch = ImGui::GetTextLineHeight() * 0.8f, gap = 3 * kPadding;
  std::vector<std::vector<std::size_t>> rows;
  float rowWidth = 0.0f;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const float entry = legendEntryWidth(series[i], swatch);
    if (entry > width) return {};
    if (rows.empty() || rowWidth + gap + entry > width) {
      rows.emplace_back();
      rowWidth = entry;
    } else {
      rowWidth += gap + entry;
    }
    rows.back().push_back(i);
  }
  return rows;
}

// The legend's rows, each ending at `right`, the first at `top`.
void drawLegendRows(ImDrawList* draw, const std::vector<PlotSeries>& series,
                    const std::vector<std::vector<std::size_t>>& rows, float right, float top) {
  const float line = ImGui::GetTextLineHeight();
  const float swatch = line * 0.8f, gap = 3 * kPadding;
  for (const std::vector<std::size_t>& row : rows) {
    float width = 0.0f;
    for (std::size_t i : row) width += legendEntryWidth(series[i], swatch) + (width > 0.0f ? gap : 0.0f);
    float x = right - width;
    const float middle = top + line * 0.5f;
    for (std::size_t i : row) {
      draw->AddRectFilled(ImVec2(x, middle - swatch * 0.15f), ImVec2(x + swatch, middle + swatch * 0.15f), series[i].color);
      draw->AddText(ImVec2(x + swatch + kPadding, top), ImGui::GetColorU32(ImGuiCol_Text), series[i].label.c_str());
      x += legendEntryWidth(series[i], swatch) + gap;
    }
    top += line;
  }
}

// The legend as a box in the plot's top right corner (over the data: only when the rows above the
// plot have no room for it).
void drawLegendBox(ImDrawList* draw, const std::vector<PlotSeries>& series, const Mapping& map) {
  const float line = ImGui::GetTextLineHeight();
  float width = 0.0f;
  for (const PlotSeries& s : series) width = std::max(width, ImGui::CalcTextSize(s.label.c_str()).x);
  const float swatch = line * 0.8f;
  const ImVec2 size(kPadding * 3 + swatch + width, kPadding * 2 + line * static_cast<float>(series.size()));
  const ImVec2 corner(map.max.x - size.x - kPadding, map.min.y + kPadding);
  ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  background.w = 0.8f;
  draw->AddRectFilled(corner, ImVec2(corner.x + size.x, corner.y + size.y), ImGui::ColorConvertFloat4ToU32(background));
  for (std::size_t i = 0; i < series.size(); ++i) {
    const float top = corner.y + kPadding + line * static_cast<float>(i);
    const float middle = top + line * 0.5f;
    draw->AddRectFilled(ImVec2(corner.x + kPadding, middle - swatch * 0.15f),
                        ImVec2(corner.x + kPadding + swatch, middle + swatch * 0.15f), series[i].color);
    draw->AddText(ImVec2(corner.x + kPadding * 2 + swatch, top), ImGui::GetColorU32(ImGuiCol_Text), series[i].label.c_str());
  }
}

// Vertical line at the x nearest the mouse and a tooltip with every series' value there.
void drawHoverReadOut(ImDrawList* draw, const std::vector<PlotSeries>& series, const Mapping& map, const PlotOptions& options) {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (mouse.x < map.min.x || mouse.x > map.max.x || mouse.y < map.min.y || mouse.y > map.max.y) return;
  const double target = map.valueAtPixelX(mouse.x);

  std::vector<std::optional<std::size_t>> nearest;
  std::optional<double> readOutX;
  for (const PlotSeries& s : series) {
    nearest.push_back(nearestPoint(s.x, s.y, target, options.logY));
    if (nearest.back() && (!readOutX || std::abs(s.x[*nearest.back()] - target) < std::abs(*readOutX - target)))
      readOutX = s.x[*nearest.back()];
  }
  if (!readOutX) return;

  const float lineX = map.pixelX(*readOutX);
  draw->AddLine(ImVec2(lineX, map.min.y), ImVec2(lineX, map.max.y), ImGui::GetColorU32(ImGuiCol_Text, 0.5f));
  ImGui::BeginTooltip();
  ImGui::Text("%s %s", options.xLabel && *options.xLabel ? options.xLabel : "x", formatValue(*readOutX).c_str());
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (!nearest[i]) continue;
    const PlotSeries& s = series[i];
    const double x = s.x[*nearest[i]], y = s.y[*nearest[i]];
    draw->AddCircleFilled(ImVec2(map.pixelX(x), map.pixelY(y)), 3.5f, s.color);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(s.color), "%s", s.label.c_str());
    ImGui::SameLine();
    // A series whose nearest point lies elsewhere (it ended earlier) says at which x.
    if (x == *readOutX) ImGui::Text("%s", formatValue(y).c_str());
    else ImGui::Text("%s (at %s)", formatValue(y).c_str(), formatValue(x).c_str());
  }
  ImGui::EndTooltip();
}

}  // namespace

void drawPlot(const char* id, const std::vector<PlotSeries>& series, const PlotOptions& options) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, kMinimumWidth), std::max(options.height, 4.0f * ImGui::GetTextLineHeight()));
  ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImU32 textColor = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 dimTextColor = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 gridColor = ImGui::GetColorU32(ImGuiCol_Border, 0.6f);
  const ImVec2 end(origin.x + size.x, origin.y + size.y);
  draw->AddRectFilled(origin, end, ImGui::GetColorU32(ImGuiCol_FrameBg), ImGui::GetStyle().FrameRounding);

  // A header above the plot area holds the y label and, when it fits, the legend, in as many rows
  // as the legend needs.
  const bool hasYLabel = options.yLabel && *options.yLabel;
  const bool hasHeader = hasYLabel || !series.empty();
  const float headerTop = origin.y + kPadding;
  const float bottom = end.y - kPadding - line - kTickLength;  // room for the x tick labels
  const auto topBelow = [&](std::size_t headerRows) {
    return origin.y + kPadding + (hasHeader ? static_cast<float>(headerRows) * line + kPadding : 0.0f);
  };

  const DataBounds bounds = boundsOf(series, options.logY);
  if (bounds.empty() || bottom - topBelow(1) < line) {
    if (hasYLabel) draw->AddText(ImVec2(origin.x + kPadding, headerTop), dimTextColor, options.yLabel);
    const bool anyData = std::any_of(series.begin(), series.end(), [](const PlotSeries& s) { return !s.y.empty(); });
    const char* message = options.emptyMessage             ? options.emptyMessage
                          : anyData && options.logY ? "no positive values to plot"
                                                    : "no data yet";
    const ImVec2 textSize = ImGui::CalcTextSize(message);
    draw->AddText(ImVec2(origin.x + (size.x - textSize.x) * 0.5f, origin.y + (size.y - textSize.y) * 0.5f), dimTextColor, message);
    return;
  }

  // The y axis first: its labels decide how much room the plot area leaves on the left. The y label
  // starts above the plot frame, right of the tick labels' column, so that the top tick label
  // (centred on the frame's top edge) does not run into it; the legend's rows end at the right.
  struct YAxis {
    float top = 0.0f;
    AxisRange range;
    std::vector<double> ticks;
    std::vector<std::string> labels;
    float plotLeft = 0.0f, headerLeft = 0.0f;
  };
  const float plotRight = end.x - kPadding * 2;
  const auto yAxisBelow = [&](std::size_t headerRows) {
    YAxis axis;
    axis.top = topBelow(headerRows);
    const int maxYTicks = std::max(2, static_cast<int>((bottom - axis.top) / (line * 1.8f)));
    axis.range = options.logY ? decadeRange(bounds.yMin, bounds.yMax) : niceLinearRange(bounds.yMin, bounds.yMax, maxYTicks);
    axis.ticks = options.logY ? logTicks(axis.range.lower, axis.range.upper, maxYTicks)
                              : linearTicks(axis.range.lower, axis.range.upper, maxYTicks);
    axis.labels = yTickLabels(axis.ticks, axis.range, options.logY, maxYTicks);
    float labelWidth = 0.0f;
    for (const std::string& label : axis.labels) labelWidth = std::max(labelWidth, ImGui::CalcTextSize(label.c_str()).x);
    axis.plotLeft = origin.x + kPadding * 2 + labelWidth + kTickLength;
    axis.headerLeft = axis.plotLeft + (hasYLabel ? ImGui::CalcTextSize(options.yLabel).x + 4 * kPadding : 0.0f);
    return axis;
  };
  YAxis axis = yAxisBelow(1);
  std::vector<std::vector<std::size_t>> legend = legendRows(series, plotRight - axis.headerLeft);
  if (legend.size() > 1) {
    // More header rows leave fewer y ticks, whose labels may be narrower or wider: lay the legend
    // out again below them, and fall back to the box (and one header row) if it no longer fits.
    const YAxis lower = yAxisBelow(legend.size());
    std::vector<std::vector<std::size_t>> again = legendRows(series, plotRight - lower.headerLeft);
    if (bottom - lower.top >= line && !again.empty() && again.size() <= legend.size()) {
      axis = again.size() == legend.size() ? lower : yAxisBelow(again.size());
      legend = std::move(again);
    } else {
      legend.clear();
    }
  }
  const float top = axis.top;
  const AxisRange yRange = axis.range;
  const std::vector<double>& yTicks = axis.ticks;
  const std::vector<std::string>& yLabels = axis.labels;

  Mapping map;
  map.logY = options.logY;
  map.y = yRange;
  // A single x (one sample) still needs a range to be drawn in.
  map.x = bounds.xMax > bounds.xMin ? AxisRange{bounds.xMin, bounds.xMax} : AxisRange{bounds.xMin - 0.5, bounds.xMax + 0.5};
  map.min = ImVec2(axis.plotLeft, top);
  map.max = ImVec2(plotRight, bottom);
  if (map.max.x - map.min.x < 2.0f) return;
  const ImVec2 frameMin = map.min, frameMax = map.max;
  // The y range maps a few pixels inside the frame: a series at the range's top or bottom (a
  // constant 1 contact, the largest iteration count) is drawn beside the frame's edge, not on it.
  map.min.y += kDataInset;
  map.max.y -= kDataInset;

  if (hasYLabel) draw->AddText(ImVec2(map.min.x, headerTop), dimTextColor, options.yLabel);
  const bool legendInHeader = hasHeader && !legend.empty();
  if (legendInHeader) drawLegendRows(draw, series, legend, map.max.x, headerTop);

  for (std::size_t i = 0; i < yTicks.size(); ++i) {
    const float y = map.pixelY(yTicks[i]);
    draw->AddLine(ImVec2(map.min.x - kTickLength, y), ImVec2(map.max.x, y), gridColor);
    const ImVec2 labelSize = ImGui::CalcTextSize(yLabels[i].c_str());
    draw->AddText(ImVec2(map.min.x - kTickLength - kPadding - labelSize.x, y - labelSize.y * 0.5f), textColor, yLabels[i].c_str());
  }

  // The x label sits at the right end of the tick label row; tick labels that would overlap it are left out.
  const bool hasXLabel = options.xLabel && *options.xLabel;
  const float xLabelLeft = hasXLabel ? map.max.x - ImGui::CalcTextSize(options.xLabel).x : map.max.x + 1e6f;
  const float labelTop = frameMax.y + kTickLength;
  if (hasXLabel) draw->AddText(ImVec2(xLabelLeft, labelTop), dimTextColor, options.xLabel);
  const int maxXTicks = std::max(2, static_cast<int>((map.max.x - map.min.x) / kPixelsPerXTick));
  const double minXStep = options.integerX ? 1.0 : 0.0;
  const double xStep = linearTickStep(map.x.lower, map.x.upper, maxXTicks, minXStep);
  float previousLabelRight = -1e6f;
  for (const double tick : linearTicks(map.x.lower, map.x.upper, maxXTicks, minXStep)) {
    const float x = map.pixelX(tick);
    draw->AddLine(ImVec2(x, frameMin.y), ImVec2(x, frameMax.y + kTickLength), gridColor);
    const std::string label = formatLinearTick(tick, xStep);
    const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
    const float left = std::clamp(x - labelWidth * 0.5f, map.min.x - kTickLength, map.max.x - labelWidth);
    if (left < previousLabelRight + kPadding || left + labelWidth > xLabelLeft - kPadding) continue;
    draw->AddText(ImVec2(left, labelTop), textColor, label.c_str());
    previousLabelRight = left + labelWidth;
  }
  draw->AddRect(frameMin, frameMax, ImGui::GetColorU32(ImGuiCol_Border));

  draw->PushClipRect(frameMin, frameMax, true);
  const int columns = std::max(1, static_cast<int>(map.max.x - map.min.x));
  std::vector<ImVec2> points;
  for (const PlotSeries& s : series) {
    const std::vector<std::size_t> kept = decimateMinMax(s.x, s.y, map.x.lower, map.x.upper, columns, options.logY);
    points.clear();
    for (const std::size_t i : kept) points.emplace_back(map.pixelX(s.x[i]), map.pixelY(s.y[i]));
    if (points.size() >= 2) draw->AddPolyline(points.data(), static_cast<int>(points.size()), s.color, ImDrawFlags_None, kLineWidth);
    if (static_cast<float>(points.size()) * kPixelsPerMarkedPoint < static_cast<float>(columns)) {
      for (const ImVec2& point : points) draw->AddCircleFilled(point, 2.5f, s.color);
    }
  }
  draw->PopClipRect();

  if (!legendInHeader && !series.empty()) drawLegendBox(draw, series, map);
  if (hovered) drawHoverReadOut(draw, series, map, options);
}

}  // namespace contactlab::app
