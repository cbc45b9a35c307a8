#pragma once
// A small SVG chart writer for the figures of `contactlab-cli study`: line series, filled bands
// between two series (quartile bands), grouped bars, linear or base-10 logarithmic y axis, ticks,
// axis labels and a legend. Self-contained text, so the files open in any browser and can be inlined
// into an HTML page. (ImPlot and friends are not packaged; a static figure needs no more than this.)
#include <string>
#include <vector>

namespace contactlab::cli {

class SvgChart {
 public:
  SvgChart(std::string title, std::string xLabel, std::string yLabel);

  void setLogY(bool logY) { logY_ = logY; }
  // A polyline through (x[i], y[i]); points with a non-finite y (or y <= 0 on a log axis) break it.
  void addLine(const std::vector<double>& x, const std::vector<double>& y, const std::string& color,
               const std::string& label, double width = 1.5, bool dashed = false);
  // The area between low[i] and high[i] over x[i], filled with `color` at `opacity`.
  void addBand(const std::vector<double>& x, const std::vector<double>& low, const std::vector<double>& high,
               const std::string& color, double opacity, const std::string& label);
  // One group of bars per category (the x axis is then categorical): values[s][c] is series s in
  // category c.
  void setBars(const std::vector<std::string>& categories, const std::vector<std::string>& seriesLabels,
               const std::vector<std::vector<double>>& values, const std::vector<std::string>& colors);

  // The whole <svg> element, `width` x `height` pixels.
  std::string render(int width = 640, int height = 400) const;

 private:
  struct Series {
    std::vector<double> x, y, yHigh;  // yHigh non-empty for a band
    std::string color, label;
    double width = 1.5, opacity = 1.0;
    bool dashed = false;
  };
  std::string title_, xLabel_, yLabel_;
  bool logY_ = false;
  std::vector<Series> series_;
  std::vector<std::string> categories_;
  std::vector<std::string> barLabels_, barColors_;
  std::vector<std::vector<double>> barValues_;
};

// Text escaped for SVG/HTML.
std::string escapeXml(const std::string& text);

// A palette of distinguishable colours, cycled by index.
const std::string& chartColor(int index);

}  // namespace contactlab::cli
