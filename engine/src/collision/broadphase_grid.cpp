#include "collision/broadphase_grid.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>

#include "core/thread_pool.h"

namespace contactlab {

namespace {

// Boxes covering more cells than this along some axis are "large": inserting them would cost up
// to its cube in cells, so they are tested against every other box directly instead.
constexpr double kMaxCellsPerAxis = 4.0;
// Boxes this many cells from the origin would overflow the integer cell coordinates; they too
// are treated as large (this only happens for absurd scenes or a tiny cell size).
constexpr double kMaxCellCoordinate = 1e15;

std::uint64_t hashCell(const std::int64_t (&cell)[3]) {
  // Multiplying by large odd constants spreads neighbouring cells over the table; unsigned
  // arithmetic wraps by definition.
  const std::uint64_t h = static_cast<std::uint64_t>(cell[0]) * 0x9E3779B97F4A7C15ull +
                          static_cast<std::uint64_t>(cell[1]) * 0xC2B2AE3D27D4EB4Full +
                          static_cast<std::uint64_t>(cell[2]) * 0x165667B19E3779F9ull;
  return h ^ (h >> 29);
}

bool sameCell(const std::int64_t (&a)[3], const std::int64_t (&b)[3]) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

}  // namespace

BroadphaseGrid::CellSlot& BroadphaseGrid::slotOf(const std::int64_t (&cell)[3]) {
  const std::size_t mask = slots_.size() - 1;  // the size is a power of two
  for (std::size_t i = hashCell(cell) & mask;; i = (i + 1) & mask) {
    CellSlot& slot = slots_[i];
    if (slot.count == 0) {  // claimed now: the caller counts the body in at once
      std::copy(cell, cell + 3, slot.cell);
      usedSlots_.push_back(static_cast<int>(i));
      return slot;
    }
    if (sameCell(slot.cell, cell)) return slot;
  }
}

template <class Visit>
void BroadphaseGrid::forEachCell(const CellRange& range, Visit&& visit) {
  std::int64_t cell[3];
  for (cell[0] = range.lower[0]; cell[0] <= range.upper[0]; ++cell[0])
    for (cell[1] = range.lower[1]; cell[1] <= range.upper[1]; ++cell[1])
      for (cell[2] = range.lower[2]; cell[2] <= range.upper[2]; ++cell[2]) visit(slotOf(cell));
}

void BroadphaseGrid::findPairs(const std::vector<Aabb>& boxes, const std::vector<std::uint8_t>& movable,
                               std::vector<BodyPair>& pairs, ThreadPool* pool) {
  assert(boxes.size() == movable.size());
  const int n = static_cast<int>(boxes.size());
  pairs.clear();

  // Cell size: the median largest side of the movable boxes, so a typical box covers 1 to 2
  // cells per axis. Static boxes do not count: a few huge static boxes would coarsen the grid.
  extents_.clear();
  for (int i = 0; i < n; ++i)
    if (movable[i]) extents_.push_back((boxes[i].upper - boxes[i].lower).maxCoeff());
  clearSlots();
  if (extents_.empty()) return;  // every pair needs a movable body
  const auto median = extents_.begin() + extents_.size() / 2;
  std::nth_element(extents_.begin(), median, extents_.end());
  const double cellSize = std::isfinite(*median) && *median > 0.0 ? *median : 1.0;
  cellSize_ = cellSize;

  // Cell ranges, and which boxes are too large (or not finite) for the grid.
  ranges_.resize(n);
  largeBodies_.clear();
  std::size_t entries = 0;
  for (int i = 0; i < n; ++i) {
    const Vec3 lower = (boxes[i].lower / cellSize).array().floor();
    const Vec3 upper = (boxes[i].upper / cellSize).array().floor();
    const Vec3 span = upper - lower;
    CellRange& range = ranges_[i];
    range.large = !span.allFinite() || span.maxCoeff() >= kMaxCellsPerAxis ||
                  std::max(lower.cwiseAbs().maxCoeff(), upper.cwiseAbs().maxCoeff()) > kMaxCellCoordinate;
    if (range.large) {
      largeBodies_.push_back(i);
      continue;
    }
    for (int axis = 0; axis < 3; ++axis) {
      range.lower[axis] = static_cast<std::int64_t>(lower[axis]);
      range.upper[axis] = static_cast<std::int64_t>(upper[axis]);
    }
    entries += static_cast<std::size_t>((span.array() + 1.0).prod());
  }

  // Counting sort of the (cell, body) entries into buckets: count per cell, lay the buckets out one
  // after another, then fill them. Bodies enter in increasing order, so each bucket is sorted.
  // The table keeps its size while the entry count fits (clearSlots emptied it).
  const std::size_t tableSize = std::bit_ceil(2 * entries + 1);
  if (slots_.size() < tableSize || slots_.size() > 4 * tableSize) slots_.assign(tableSize, CellSlot{});
  cellBodies_.resize(entries);
  entries_.clear();
  for (int i = 0; i < n; ++i)
    if (!ranges_[i].large)
      forEachCell(ranges_[i], [&](CellSlot& slot) {
        ++slot.count;
        entries_.push_back({static_cast<int>(&slot - slots_.data()), i});
      });
  int start = 0;
  for (const int used : usedSlots_) slots_[used].start = start, start += slots_[used].count;
  for (const CellEntry& entry : entries_) {
    CellSlot& slot = slots_[entry.slot];
    cellBodies_[slot.start + slot.filled++] = entry.body;
  }

  // Pairs sharing a cell. Two boxes share every cell of their overlap, so a pair is reported only
  // from the cell holding the lower corner of that overlap, once. Cells are searched in parallel,
  // each chunk of cells into a list of its own; the order the pairs are found in does not matter,
  // the sort below puts them in the one order (a, b).
  constexpr int kCellsPerChunk = 256;
  const int cellChunks = ThreadPool::chunkCount(static_cast<int>(usedSlots_.size()), kCellsPerChunk);
  // Then large boxes against every box, chunks of the other boxes per large box; two large ones
  // meet once, from the smaller index.
  constexpr int kOthersPerChunk = 1024;
  const int otherChunks = ThreadPool::chunkCount(n, kOthersPerChunk);
  const int largeChunks = static_cast<int>(largeBodies_.size()) * otherChunks;
  if (static_cast<int>(chunkPairs_.size()) < cellChunks + largeChunks) chunkPairs_.resize(cellChunks + largeChunks);
  parallelFor(pool, cellChunks + largeChunks, 1, [&](int chunk, int, int) {
    std::vector<BodyPair>& found = chunkPairs_[chunk];
    found.clear();
    if (chunk < cellChunks) {
      const int lastSlot = std::min(static_cast<int>(usedSlots_.size()), (chunk + 1) * kCellsPerChunk);
      for (int s = chunk * kCellsPerChunk; s < lastSlot; ++s) {
        const CellSlot& slot = slots_[usedSlots_[s]];
        const int* bucket = cellBodies_.data() + slot.start;
        for (int i = 0; i < slot.count; ++i)
          for (int j = i + 1; j < slot.count; ++j) {
            const int a = bucket[i], b = bucket[j];
            if (!movable[a] && !movable[b]) continue;
            bool ownedHere = true;
            for (int axis = 0; axis < 3; ++axis)
              ownedHere &= std::max(ranges_[a].lower[axis], ranges_[b].lower[axis]) == slot.cell[axis];
            if (ownedHere && boxes[a].overlaps(boxes[b])) found.push_back({a, b});
          }
      }
      return;
    }
    const int large = largeBodies_[(chunk - cellChunks) / otherChunks];
    const int otherChunk = (chunk - cellChunks) % otherChunks;
    const int lastOther = std::min(n, (otherChunk + 1) * kOthersPerChunk);
    for (int other = otherChunk * kOthersPerChunk; other < lastOther; ++other) {
      if (other == large || (ranges_[other].large && other < large)) continue;
      if ((movable[large] || movable[other]) && boxes[large].overlaps(boxes[other]))
        found.push_back({std::min(large, other), std::max(large, other)});
    }
  });
  for (int chunk = 0; chunk < cellChunks + largeChunks; ++chunk)
    pairs.insert(pairs.end(), chunkPairs_[chunk].begin(), chunkPairs_[chunk].end());

  // Sorted by (a, b): a counting sort by a (each pair was found once, so the order is total), then
  // each body's few pairs by b. A comparison sort of the whole list cost more than the grid.
  pairStart_.assign(n + 1, 0);
  for (const BodyPair& pair : pairs) ++pairStart_[pair.a + 1];
  for (int i = 0; i < n; ++i) pairStart_[i + 1] += pairStart_[i];
  sortedPairs_.resize(pairs.size());
  for (const BodyPair& pair : pairs) sortedPairs_[pairStart_[pair.a]++] = pair;  // start moves to the end
  for (int i = n; i > 0; --i) pairStart_[i] = pairStart_[i - 1];
  pairStart_[0] = 0;
  for (int i = 0; i < n; ++i)
    std::sort(sortedPairs_.begin() + pairStart_[i], sortedPairs_.begin() + pairStart_[i + 1]);
  pairs.swap(sortedPairs_);
}

void BroadphaseGrid::clearSlots() {
  for (const int used : usedSlots_) slots_[used] = CellSlot{};
  usedSlots_.clear();
}

void BroadphaseGrid::occupiedCells(std::vector<Aabb>& cells) const {
  cells.clear();
  for (const CellSlot& slot : slots_) {
    if (slot.count == 0) continue;
    const Vec3 lower(static_cast<double>(slot.cell[0]), static_cast<double>(slot.cell[1]),
                     static_cast<double>(slot.cell[2]));
    cells.push_back({lower * cellSize_, (lower.array() + 1.0).matrix() * cellSize_});
  }
}

}  // namespace contactlab
