#include "problem/block_sparse_matrix.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/thread_pool.h"

namespace contactlab {

void BlockSparseMatrix3::resize(int blockRows) {
  if (blockRows < 0) throw std::invalid_argument("BlockSparseMatrix3: negative size");
  assign(blockRows, {});
}

void BlockSparseMatrix3::assign(int blockRows, std::vector<Entry> entries) {
  if (blockRows < 0) throw std::invalid_argument("BlockSparseMatrix3: negative size");
  for (const Entry& e : entries)
    if (e.row < 0 || e.row >= blockRows || e.column < 0 || e.column >= blockRows)
      throw std::invalid_argument("BlockSparseMatrix3: block (" + std::to_string(e.row) + ", " +
                                  std::to_string(e.column) + ") outside a " + std::to_string(blockRows) +
                                  "-block matrix");
  if (samePositionsAsLast(blockRows, entries)) {
    setZeroValues();  // the diagonal blocks no entry reaches stay zero
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const int target = lastTarget_[i];
      if (target < 0) blocks_[~target] = entries[i].block;
      else blocks_[target] += entries[i].block;
    }
    return;
  }
  lastPositions_.resize(entries.size());
  lastTarget_.resize(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) lastPositions_[i] = {entries[i].row, entries[i].column};
  // Entries ordered by row, then column, equal positions in the order given (their blocks are summed
  // in that order): a counting sort of the entries' indices by row, then each row's by column. An
  // FEM assembly gives 16 entries per tetrahedron; sorting the indices moves 4 bytes where the
  // entries are 80.
  std::vector<int> rowCount(blockRows + 1, 0);
  for (const Entry& e : entries) ++rowCount[e.row + 1];
  for (int r = 0; r < blockRows; ++r) rowCount[r + 1] += rowCount[r];
  std::vector<int> order(entries.size());
  {
    std::vector<int> next(rowCount.begin(), rowCount.end() - 1);
    for (std::size_t i = 0; i < entries.size(); ++i) order[next[entries[i].row]++] = static_cast<int>(i);
  }
  rowStart_.assign(blockRows + 1, 0);
  blockColumn_.clear();
  blocks_.clear();
  diagonalIndex_.assign(blockRows, -1);
  for (int r = 0; r < blockRows; ++r) {
    const auto begin = order.begin() + rowCount[r], end = order.begin() + rowCount[r + 1];
    std::stable_sort(begin, end, [&](int a, int b) { return entries[a].column < entries[b].column; });
    bool diagonalDone = false;
    const auto addDiagonalBefore = [&](int column) {
      // Every block row gets a diagonal block, zero if none was given.
      if (diagonalDone || column < r) return;
      if (column > r) {
        blockColumn_.push_back(r);
        blocks_.push_back(Mat3::Zero());
        diagonalIndex_[r] = static_cast<int>(blocks_.size()) - 1;
      }
      diagonalDone = true;
    };
    for (auto it = begin; it != end; ++it) {
      const Entry& e = entries[*it];
      if (it != begin && entries[*(it - 1)].column == e.column) {
        blocks_.back() += e.block;
        lastTarget_[*it] = static_cast<int>(blocks_.size()) - 1;
        continue;
      }
      addDiagonalBefore(e.column);
      blockColumn_.push_back(e.column);
      blocks_.push_back(e.block);
      lastTarget_[*it] = ~(static_cast<int>(blocks_.size()) - 1);
      if (e.column == r) diagonalIndex_[r] = static_cast<int>(blocks_.size()) - 1;
    }
    addDiagonalBefore(blockRows);
    rowStart_[r + 1] = static_cast<int>(blocks_.size());
  }
}

bool BlockSparseMatrix3::samePositionsAsLast(int blockRows, const std::vector<Entry>& entries) const {
  if (blockRows != this->blockRows() || entries.size() != lastPositions_.size()) return false;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].row != lastPositions_[i].first || entries[i].column != lastPositions_[i].second) return false;
  return true;
}

void BlockSparseMatrix3::setZeroValues() {
  for (Mat3& b : blocks_) b.setZero();
}

int BlockSparseMatrix3::find(int row, int column) const {
  if (row < 0 || row >= blockRows()) return -1;
  const auto begin = blockColumn_.begin() + rowStart_[row], end = blockColumn_.begin() + rowStart_[row + 1];
  const auto it = std::lower_bound(begin, end, column);
  return it != end && *it == column ? static_cast<int>(it - blockColumn_.begin()) : -1;
}

void BlockSparseMatrix3::addToBlock(int row, int column, const Mat3& block) {
  const int index = find(row, column);
  if (index < 0)
    throw std::invalid_argument("BlockSparseMatrix3: block (" + std::to_string(row) + ", " + std::to_string(column) +
                                ") is not in the pattern");
  blocks_[index] += block;
}

Vec3 BlockSparseMatrix3::multiplyRow(int row, const Eigen::VectorXd& x) const {
  Vec3 sum = Vec3::Zero();
  for (int b = rowStart_[row]; b < rowStart_[row + 1]; ++b) sum += blocks_[b] * x.segment<3>(3 * blockColumn_[b]);
  return sum;
}

void BlockSparseMatrix3::multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y, ThreadPool* pool) const {
  y.resize(rows());
  const auto rowsIn = [&](int begin, int end, int) {
    for (int r = begin; r < end; ++r) y.segment<3>(3 * r) = multiplyRow(r, x);
  };
  constexpr int kGrain = 512;  // block rows per chunk: a few tens of microseconds of work
  if (pool && blockRows() > kGrain) pool->parallelFor(blockRows(), kGrain, rowsIn);
  else rowsIn(0, blockRows(), 0);
}

Eigen::MatrixXd BlockSparseMatrix3::dense() const {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(rows(), rows());
  for (int r = 0; r < blockRows(); ++r)
    for (int b = rowStart_[r]; b < rowStart_[r + 1]; ++b) d.block<3, 3>(3 * r, 3 * blockColumn_[b]) = blocks_[b];
  return d;
}

}  // namespace contactlab
