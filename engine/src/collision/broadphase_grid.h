#pragma once
// Broadphase: a uniform grid over the bodies' boxes; candidate pairs in a deterministic order.
#include <cstdint>
#include <utility>
#include <vector>

#include "geometry/shape_geometry.h"

namespace contactlab {

class ThreadPool;

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
  // The grid is filled serially; the pair search runs on `pool` (serially when null), with the
  // same result for any thread count.
  void findPairs(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& movable,
                 std::vector<BodyPair>& pairs, ThreadPool* pool = nullptr);

  // The occupied cells of the last findPairs, as boxes, for drawing the grid in the viewer.
  void occupiedCells(std::vector<Aabb>& cells) const;

 private:
  // Working buffers, kept between calls so that a step in steady state allocates nothing.
  struct CellRange {
    std::int64_t lower[3], upper[3];  // inclusive cell coordinates the body's box covers
    bool large;                        // too many cells: tested against every body instead
  };
  struct CellSlot {  // one slot of the open-addressing table from cell coordinates to a bucket
    std::int64_t cell[3];
    int count = 0;   // bodies in the cell; 0 marks a free slot
    int start = 0;   // where the cell's bodies begin in cellBodies_
    int filled = 0;  // how many of them are in place so far
  };
  CellSlot& slotOf(const std::int64_t (&cell)[3]);  // finds the cell's slot, claiming a free one if new
  void clearSlots();                                 // frees the slots claimed since the last clear
  template <class Visit>
  void forEachCell(const CellRange& range, Visit&& visit);

  double cellSize_ = 1.0;
  std::vector<double> extents_;    // largest side of each movable box, for the median
  std::vector<CellRange> ranges_;  // per body
  std::vector<int> largeBodies_;
  std::vector<CellSlot> slots_;
  std::vector<int> usedSlots_;  // the claimed slots of slots_, in claiming order: all a step visits or clears
  std::vector<int> cellBodies_;  // the buckets, each in increasing body order
  struct CellEntry {
    int slot, body;
  };
  std::vector<CellEntry> entries_;  // (cell's slot, body) in counting order, so filling need not hash again
  std::vector<int> pairStart_;          // where each body's pairs (as the lower index) begin, sorted
  std::vector<BodyPair> sortedPairs_;
  std::vector<std::vector<BodyPair>> chunkPairs_;  // pairs found per chunk of the parallel search
};

}  // namespace contactlab
