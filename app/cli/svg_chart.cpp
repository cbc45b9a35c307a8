#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace contactlab::cli {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double value, const char* format = "%.6g") {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// Tick values for [low, high]: about `count` round steps (1, 2 or 5 times a power of ten).
std::vector<double> linearTicks(double low, double high, int count) {
  const double raw = (high - low) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double factor : {2.0, 5.0, 10.0})
    if (step < raw) step = factor * magnitude;
  std::vector<double> ticks;
  for (double t = std::ceil(low / step) * step; t <= high + 1e-9 * step; t += step) ticks.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

struct Range {
  double low = kInf, high = -kInf;
  void include(double v) {
    if (!std::isfinite(v)) return;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  bool empty() const { return !(low <= high); }
};

}  // namespace

std::string escapeXml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

const std::string& chartColor(int index) {
  static const std::vector<std::string> palette = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                   "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return palette[static_cast<std::size_t>(index) % palette.size()];
}

SvgChart::SvgChart(std::string title, std::string xLabel, std::string yLabel)
    : title_(std::move(title)), xLabel_(std::move(xLabel)), yLabel_(std::move(yLabel)) {}

void SvgChart::addLine(const std::vector<double>& x, const std::vector<double>& y, const std::string& color,
                       const std::string& label, double width, bool dashed) {
  series_.push_back({x, y, {}, color, label, width, 1.0, dashed});
}

void SvgChart::addBand(const std::vector<double>& x, const std::vector<double>& low, const std::vector<double>& high,
                       const std::string& color, double opacity, const std::string& label) {
  series_.push_back({x, low, high, color, label, 0.0, opacity, false});
}

void SvgChart::setBars(const std::vector<std::string>& categories, const std::vector<std::string>& seriesLabels,
                       const std::vector<std::vector<double>>& values, const std::vector<std::string>& colors) {
  categories_ = categories;
  barLabels_ = seriesLabels;
  barValues_ = values;
  barColors_ = colors;
}

std::string SvgChart::render(int width, int height) const {
  const double left = 70, right = 20, top = 34, bottom = 50;
  const double plotW = width - left - right, plotH = height - top - bottom;
  const bool bars = !categories_.empty();
  auto usable = [&](double y) { return std::isfinite(y) && (!logY_ || y > 0.0); };

  Range xr, yr;
  for (const Series& s : series_) {
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      xr.include(s.x[i]);
      if (usable(s.y[i])) yr.include(s.y[i]);
      if (!s.yHigh.empty() && usable(s.yHigh[i])) yr.include(s.yHigh[i]);
    }
  }
  if (bars) {
    xr = {0.0, static_cast<double>(categories_.size())};
    yr.include(0.0);
    for (const auto& row : barValues_)
      for (double v : row) yr.include(v);
  }
  if (xr.empty()) xr = {0.0, 1.0};
  if (yr.empty()) yr = {logY_ ? 1.0 : 0.0, logY_ ? 10.0 : 1.0};
  if (xr.high == xr.low) xr.high = xr.low + 1.0;
  double yLow = logY_ ? std::floor(std::log10(yr.low)) : yr.low;
  double yHigh = logY_ ? std::ceil(std::log10(yr.high)) : yr.high;
  if (yHigh == yLow) yHigh = yLow + 1.0;
  if (!logY_ && !bars) {  // a little air above and below the data
    const double pad = 0.05 * (yHigh - yLow);
    yLow = yr.low >= 0.0 && yr.low - pad < 0.0 ? 0.0 : yLow - pad;
    yHigh += pad;
  }
  if (bars) yHigh *= 1.1;

  auto px = [&](double x) { return left + (x - xr.low) / (xr.high - xr.low) * plotW; };
  auto py = [&](double y) {
    const double v = logY_ ? std::log10(y) : y;
    return top + plotH - (v - yLow) / (yHigh - yLow) * plotH;
  };

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + number(width / 2.0) + "\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" +
         escapeXml(title_) + "</text>\n";

  // Grid and ticks.
  std::vector<double> yTicks;
  if (logY_) {
    for (double e = yLow; e <= yHigh + 1e-9; e += std::max(1.0, std::round((yHigh - yLow) / 8.0))) yTicks.push_back(std::pow(10.0, e));
  } else {
    yTicks = linearTicks(yLow, yHigh, 6);
  }
  for (double t : yTicks) {
    const double y = py(t);
    svg += "<line x1=\"" + number(left) + "\" x2=\"" + number(left + plotW) + "\" y1=\"" + number(y) + "\" y2=\"" + number(y) +
           "\" stroke=\"#e4e4e4\"/>\n";
    svg += "<text x=\"" + number(left - 5) + "\" y=\"" + number(y + 4) + "\" text-anchor=\"end\">" +
           (logY_ ? "1e" + number(std::log10(t), "%.0f") : number(t)) + "</text>\n";
  }
  if (bars) {
    // Many categories: every other label one line lower, so neighbours do not run together.
    const bool stagger = categories_.size() > 8;
    for (std::size_t c = 0; c < categories_.size(); ++c)
      svg += "<text x=\"" + number(px(c + 0.5)) + "\" y=\"" + number(top + plotH + 15 + (stagger && c % 2 ? 11 : 0)) +
             "\" text-anchor=\"middle\">" + escapeXml(categories_[c]) + "</text>\n";
  } else {
    for (double t : linearTicks(xr.low, xr.high, 8)) {
      const double x = px(t);
      svg += "<line x1=\"" + number(x) + "\" x2=\"" + number(x) + "\" y1=\"" + number(top) + "\" y2=\"" + number(top + plotH) +
             "\" stroke=\"#f0f0f0\"/>\n";
      svg += "<text x=\"" + number(x) + "\" y=\"" + number(top + plotH + 15) + "\" text-anchor=\"middle\">" + number(t) + "</text>\n";
    }
  }
  svg += "<rect x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" + number(plotW) + "\" height=\"" + number(plotH) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  svg += "<text x=\"" + number(left + plotW / 2) + "\" y=\"" + number(height - 12.0) + "\" text-anchor=\"middle\">" +
         escapeXml(xLabel_) + "</text>\n";
  svg += "<text transform=\"translate(16," + number(top + plotH / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escapeXml(yLabel_) + "</text>\n";

  // Data, clipped to the plot area.
  svg += "<clipPath id=\"plot\"><rect x=\"" + number(left) + "\" y=\"" + number(top) + "\" width=\"" + number(plotW) +
         "\" height=\"" + number(plotH) + "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n";
  for (const Series& s : series_) {
    if (!s.yHigh.empty()) {
      std::string upper, lower;
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (!usable(s.y[i]) || !usable(s.yHigh[i])) continue;
        upper += number(px(s.x[i])) + "," + number(py(s.yHigh[i])) + " ";
        lower = number(px(s.x[i])) + "," + number(py(s.y[i])) + " " + lower;
      }
      svg += "<polygon points=\"" + upper + lower + "\" fill=\"" + s.color + "\" fill-opacity=\"" + number(s.opacity) +
             "\" stroke=\"none\"/>\n";
      continue;
    }
    std::string points;
    auto flush = [&] {
      if (!points.empty())
        svg += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"" + number(s.width) +
               "\"" + (s.dashed ? " stroke-dasharray=\"5,3\"" : "") + "/>\n";
      points.clear();
    };
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!usable(s.y[i])) {
        flush();
        continue;
      }
      points += number(px(s.x[i])) + "," + number(py(s.y[i])) + " ";
    }
    flush();
  }
  if (bars) {
    const double groupW = plotW / categories_.size(), barW = 0.8 * groupW / std::max<std::size_t>(1, barValues_.size());
    for (std::size_t s = 0; s < barValues_.size(); ++s)
      for (std::size_t c = 0; c < barValues_[s].size(); ++c) {
        const double v = barValues_[s][c], x = px(c) + 0.1 * groupW + s * barW, y = py(v);
        svg += "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(barW) + "\" height=\"" +
               number(py(0.0) - y) + "\" fill=\"" + barColors_[s % barColors_.size()] + "\"><title>" +
               escapeXml(barLabels_[s] + ", " + categories_[c] + ": " + number(v, "%.6g")) + "</title></rect>\n";
      }
  }
  svg += "</g>\n";

  // Legend, top right inside the plot.
  struct LegendEntry {
    std::string label, color;
    double opacity;
  };
  std::vector<LegendEntry> entries;
  for (const Series& s : series_)
    if (!s.label.empty()) entries.push_back({s.label, s.color, s.opacity});
  for (std::size_t s = 0; s < barLabels_.size(); ++s) entries.push_back({barLabels_[s], barColors_[s % barColors_.size()], 1.0});
  double y = top + 14;
  for (const auto& [label, color, opacity] : entries) {
    const double x = left + plotW - 8;
    svg += "<rect x=\"" + number(x - 12) + "\" y=\"" + number(y - 8) + "\" width=\"10\" height=\"10\" fill=\"" + color +
           "\" fill-opacity=\"" + number(opacity) + "\"/>\n";
    svg += "<text x=\"" + number(x - 16) + "\" y=\"" + number(y + 1) + "\" text-anchor=\"end\">" + escapeXml(label) + "</text>\n";
    y += 14;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace contactlab::cli
