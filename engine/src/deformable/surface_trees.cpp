#include "deformable/surface_trees.h"

namespace contactlab {
namespace surface_trees_impl {

Vec3 node(const Eigen::VectorXd& positions, int n) { return positions.segment<3>(3 * n); }

// The kDOP of a primitive's nodes at `positions` and, with a non-empty `move`, at positions + move.
template <size_t N>
Kdop sweptKdop(std::span<const Vec3> axes, const std::array<int, N>& nodes, const Eigen::VectorXd& positions,
               const Eigen::VectorXd& move) {
  Kdop kdop = Kdop::empty();
  for (const int n : nodes) {
    kdop.add(axes, node(positions, n));
    if (move.size() > 0) kdop.add(axes, node(positions, n) + node(move, n));
  }
  return kdop;
}

template <size_t N>
std::vector<Kdop> sweptKdops(std::span<const Vec3> axes, const std::vector<std::array<int, N>>& primitives,
                             const Eigen::VectorXd& positions) {
  std::vector<Kdop> kdops;
  for (const auto& nodes : primitives) kdops.push_back(sweptKdop(axes, nodes, positions, Eigen::VectorXd()));
  return kdops;
}

std::vector<Kdop> pointKdops(std::span<const Vec3> axes, std::span<const int> nodes, const Eigen::VectorXd& positions) {
  std::vector<Kdop> kdops;
  for (const int n : nodes) kdops.push_back(sweptKdop(axes, std::array<int, 1>{n}, positions, Eigen::VectorXd()));
  return kdops;
}

}  // namespace surface_trees_impl

SurfaceTrees::SurfaceTrees(int k, std::span<const int> vertexNodes, std::span<const std::array<int, 2>> edges,
                           std::span<const std::array<int, 3>> faces, const Eigen::VectorXd& positions)
    : axes_(kdopAxes(k)),
      vertexNodes_(vertexNodes.begin(), vertexNodes.end()),
      edgeNodes_(edges.begin(), edges.end()),
      faceNodes_(faces.begin(), faces.end()),
      vertices_(k, surface_trees_impl::pointKdops(axes_, vertexNodes_, positions)),
      edges_(k, surface_trees_impl::sweptKdops(axes_, edgeNodes_, positions)),
      faces_(k, surface_trees_impl::sweptKdops(axes_, faceNodes_, positions)) {}

void SurfaceTrees::refitVertices(const Eigen::VectorXd& positions, std::span<const double> inflation) {
  const int axisCount = static_cast<int>(axes_.size());
  bounds_.clear();
  for (std::size_t i = 0; i < vertexNodes_.size(); ++i) {
    const Vec3 x = surface_trees_impl::node(positions, vertexNodes_[i]);
    bounds_.push_back(kdopOfPoints(axes_, std::span(&x, 1)).inflated(inflation[i], axisCount));
  }
  vertices_.refit(bounds_);
}

void SurfaceTrees::refitEdgesAndFaces(const Eigen::VectorXd& positions, const Eigen::VectorXd& move) {
  using surface_trees_impl::sweptKdop;
  bounds_.clear();
  for (const auto& edge : edgeNodes_) bounds_.push_back(sweptKdop(axes_, edge, positions, move));
  edges_.refit(bounds_);
  bounds_.clear();
  for (const auto& face : faceNodes_) bounds_.push_back(sweptKdop(axes_, face, positions, move));
  faces_.refit(bounds_);
}

}  // namespace contactlab
