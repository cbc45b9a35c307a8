#include "contactlab/render/stress_colors.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace contactlab::render {
namespace stress_colors {

// Evenly spaced stops of the scale, sRGB; the colours between them are linear blends.
constexpr std::array<std::array<float, 3>, 5> kStops = {{
    {0.17f, 0.20f, 0.62f},  // dark blue
    {0.13f, 0.56f, 0.92f},  // blue
    {0.22f, 0.80f, 0.42f},  // green
    {0.98f, 0.80f, 0.18f},  // yellow
    {0.86f, 0.14f, 0.10f},  // red
}};

}  // namespace stress_colors

bool averageAroundNodes(const DeformableMeshView& mesh, std::span<const double> elementValues,
                        std::vector<double>& nodeValues) {
  nodeValues.clear();
  if (elementValues.size() != mesh.tetrahedra.size()) return false;
  const std::size_t nodes = mesh.positions.size();
  nodeValues.assign(nodes, 0.0);
  std::vector<int> count(nodes, 0);
  for (std::size_t e = 0; e < mesh.tetrahedra.size(); ++e) {
    for (const int node : mesh.tetrahedra[e]) {
      if (node < 0 || static_cast<std::size_t>(node) >= nodes) continue;
      nodeValues[node] += elementValues[e];
      ++count[node];
    }
  }
  for (std::size_t i = 0; i < nodes; ++i)
    if (count[i] > 0) nodeValues[i] /= count[i];
  return true;
}

double StressRange::position(double value) const {
  const double span = upper - lower;
  if (!(span > 0.0) || !std::isfinite(value)) return 0.0;
  return std::clamp((value - lower) / span, 0.0, 1.0);
}

Color stressScaleColor(double t) {
  using stress_colors::kStops;
  const double scaled = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (kStops.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(scaled), kStops.size() - 2);
  const float f = static_cast<float>(scaled - static_cast<double>(i));
  const auto& a = kStops[i];
  const auto& b = kStops[i + 1];
  return Color{a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]), 1.0f};
}

}  // namespace contactlab::render
