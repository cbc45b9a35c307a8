#include "collision/kdop_tree.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

namespace contactlab {

KdopTree::KdopTree(int k, std::span<const Kdop> primitiveBounds, int leafSize)
    : k_(k), axes_(kdopAxes(k)), axisComponents_(axes_), leafSize_(leafSize) {
  if (primitiveBounds.empty()) throw std::invalid_argument("a kDOP tree needs at least one primitive");
  if (leafSize < 1) throw std::invalid_argument("a kDOP tree's leaves need room for at least one primitive");
  order_.resize(primitiveBounds.size());
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.emplace_back();
  build(0, order_, primitiveBounds, 0);
}

// Fills node `index` with `primitives` (a range of order_, which the splits reorder in place), then
// its subtree: both children are appended side by side before either is filled.
void KdopTree::build(int index, std::span<int> primitives, std::span<const Kdop> primitiveBounds, int depth) {
  const int axisCount = static_cast<int>(axes_.size());
  Kdop bounds = Kdop::empty();
  for (int p : primitives) bounds.merge(primitiveBounds[p], axisCount);
  setBounds(nodes_[index], bounds);
  if (primitives.size() <= static_cast<size_t>(leafSize_)) {
    depth_ = std::max(depth_, depth);
    nodes_[index].firstPrimitive = static_cast<int>(primitives.data() - order_.data());
    nodes_[index].primitiveCount = static_cast<int>(primitives.size());
    return;
  }

  const size_t leftCount = chooseSplit(primitives, primitiveBounds, depth);

  const int firstChild = static_cast<int>(nodes_.size());
  nodes_[index].firstChild = firstChild;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(firstChild, primitives.first(leftCount), primitiveBounds, depth + 1);
  build(firstChild + 1, primitives.subspan(leftCount), primitiveBounds, depth + 1);
}

void KdopTree::setBounds(Node& node, const Kdop& bounds) {
  node.bounds = bounds;
  node.boxCentre = bounds.boxCentre();
  node.boxHalfExtents = bounds.boxHalfExtents();
  node.squaredSize = node.boxHalfExtents.squaredNorm();
}

void KdopTree::refit(std::span<const Kdop> primitiveBounds) {
  if (primitiveBounds.size() != order_.size())
    throw std::invalid_argument("a kDOP tree of " + std::to_string(order_.size()) + " primitives refitted to " +
                                std::to_string(primitiveBounds.size()));
  const int axisCount = static_cast<int>(axes_.size());
  // build() appends a node's children after it, so a pass from the last node back to the root
  // meets both children of a node before the node itself.
  for (size_t i = nodes_.size(); i-- > 0;) {
    Node& node = nodes_[i];
    Kdop bounds = Kdop::empty();
    if (node.isLeaf()) {
      for (int p : leafPrimitives(node)) bounds.merge(primitiveBounds[p], axisCount);
    } else {
      bounds = nodes_[node.firstChild].bounds;
      bounds.merge(nodes_[node.firstChild + 1].bounds, axisCount);
    }
    setBounds(node, bounds);
  }
}

namespace {

// The bounding box of the primitive boxes added so far (a kDOP's first three slabs).
struct GrowingBox {
  Vec3 lower = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 upper = Vec3::Constant(-std::numeric_limits<double>::infinity());
  void add(const Kdop& kdop) {
    lower = lower.cwiseMin(Vec3(kdop.lower[0], kdop.lower[1], kdop.lower[2]));
    upper = upper.cwiseMax(Vec3(kdop.upper[0], kdop.upper[1], kdop.upper[2]));
  }
  double surfaceArea() const {
    const Vec3 size = upper - lower;
    return 2.0 * (size.x() * size.y() + size.y() * size.z() + size.z() * size.x());
  }
};

// Primitives ordered by their box centres along one axis, ties by index.
void sortAlong(int axis, std::span<int> primitives, std::span<const Kdop> primitiveBounds) {
  std::sort(primitives.begin(), primitives.end(), [&](int l, int r) {
    return std::tuple(primitiveBounds[l].boxCentre()[axis], l) < std::tuple(primitiveBounds[r].boxCentre()[axis], r);
  });
}

}  // namespace

// Surface area heuristic (Goldsmith and Salmon 1987; MacDonald and Booth 1990): along each box
// axis, primitives sorted by box centre (ties by index), the split that minimises
// area(left) n_left + area(right) n_right, areas of the children's bounding boxes. A randomly
// placed box meets a node with a probability that grows with the node's surface, so this is the
// expected number of primitive tests below the node. Median splits cut a jack's cross into halves
// that still span two arms each. Both children hold at most leafSize 2^(kMaxDepth - depth - 1)
// primitives, so median splits could still finish below them within kMaxDepth levels.
size_t KdopTree::chooseSplit(std::span<int> primitives, std::span<const Kdop> primitiveBounds, int depth) const {
  const size_t count = primitives.size();
  const size_t largestChild = std::min(count - 1, static_cast<size_t>(leafSize_) << (kMaxDepth - depth - 1));
  const size_t smallestLeft = count - largestChild;
  std::vector<int> sorted(primitives.begin(), primitives.end());
  std::vector<double> rightArea(count);  // rightArea[i]: of the boxes of sorted[i..count)
  double bestCost = std::numeric_limits<double>::infinity();
  int bestAxis = 0;
  size_t bestLeft = count / 2;
  auto imbalance = [&](size_t left) { return std::max(left, count - left) - std::min(left, count - left); };
  for (int axis = 0; axis < 3; ++axis) {
    sortAlong(axis, sorted, primitiveBounds);
    GrowingBox right;
    for (size_t i = count; i-- > 0;) {
      right.add(primitiveBounds[sorted[i]]);
      rightArea[i] = right.surfaceArea();
    }
    GrowingBox left;
    for (size_t leftCount = 1; leftCount < count; ++leftCount) {
      left.add(primitiveBounds[sorted[leftCount - 1]]);
      if (leftCount < smallestLeft || leftCount > largestChild) continue;
      const double cost = left.surfaceArea() * leftCount + rightArea[leftCount] * (count - leftCount);
      // Equal costs (flat or coincident primitives): the more even split.
      const bool evener = cost == bestCost && imbalance(leftCount) < imbalance(bestLeft);
      if (cost < bestCost || evener) bestCost = cost, bestAxis = axis, bestLeft = leftCount;
    }
  }
  sortAlong(bestAxis, primitives, primitiveBounds);
  return bestLeft;
}

}  // namespace contactlab
