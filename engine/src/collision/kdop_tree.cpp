#include "collision/kdop_tree.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace contactlab {

KdopTree::KdopTree(int k, std::span<const Kdop> primitiveBounds) : k_(k), axes_(kdopAxes(k)) {
  if (primitiveBounds.empty()) throw std::invalid_argument("a kDOP tree needs at least one primitive");
  order_.resize(primitiveBounds.size());
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.emplace_back();
  build(0, order_, primitiveBounds);
}

// Fills node `index` with `primitives` (a range of order_, which the splits reorder in place), then
// its subtree: both children are appended side by side before either is filled.
void KdopTree::build(int index, std::span<int> primitives, std::span<const Kdop> primitiveBounds) {
  const int axisCount = static_cast<int>(axes_.size());
  Kdop bounds = Kdop::empty();
  Kdop centres = Kdop::empty();
  for (int p : primitives) {
    bounds.merge(primitiveBounds[p], axisCount);
    centres.add(axes_.first(3), primitiveBounds[p].boxCentre());
  }
  nodes_[index].bounds = bounds;
  nodes_[index].boxCentre = bounds.boxCentre();
  nodes_[index].boxHalfExtents = bounds.boxHalfExtents();
  nodes_[index].squaredSize = nodes_[index].boxHalfExtents.squaredNorm();
  if (primitives.size() <= static_cast<size_t>(kLeafSize)) {
    nodes_[index].firstPrimitive = static_cast<int>(primitives.data() - order_.data());
    nodes_[index].primitiveCount = static_cast<int>(primitives.size());
    return;
  }

  int axis = 0;
  centres.boxHalfExtents().maxCoeff(&axis);
  auto before = [&](int l, int r) {
    return std::tuple(primitiveBounds[l].boxCentre()[axis], l) < std::tuple(primitiveBounds[r].boxCentre()[axis], r);
  };
  const size_t half = primitives.size() / 2;
  std::nth_element(primitives.begin(), primitives.begin() + half, primitives.end(), before);

  const int firstChild = static_cast<int>(nodes_.size());
  nodes_[index].firstChild = firstChild;
  nodes_.emplace_back();
  nodes_.emplace_back();
  build(firstChild, primitives.first(half), primitiveBounds);
  build(firstChild + 1, primitives.subspan(half), primitiveBounds);
}

}  // namespace contactlab
