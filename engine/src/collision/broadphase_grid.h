#pragma once
// Broadphase: a uniform grid over the bodies' boxes; candidate pairs in a deterministic order.
#include <cstdint>
#include <utility>
#include <vector>

#include "geometry/shape_geometry.h"

namespace contactlab {

struct BodyPair {
  int a = 0, b = 0;  // a < b
  bool operator==(const BodyPair&) const = default;
  auto operator<=>(const BodyPair&) const = default;
};

class BroadphaseGrid {
 public:
  // Every pair (a < b) whose boxes overlap and at least one of which `movable`, sorted by (a, b).
  // Expected O(n) for bodies of similar size: the cell size follows the median box extent, and
  // boxes spanning many cells (ground, planes, containers) are tested against all others directly.
  void findPairs(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& movable,
                 std::vector<BodyPair>& pairs);
};

}  // namespace contactlab
