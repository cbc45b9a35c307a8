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
  for (int r = 0; r < blockRows; ++r) entries.push_back({r, r, Mat3::Zero()});
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.column < b.column; });
  rowStart_.assign(blockRows + 1, 0);
  blockColumn_.clear();
  blocks_.clear();
  diagonalIndex_.assign(blockRows, -1);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const bool sameAsLast = i > 0 && entries[i - 1].row == e.row && entries[i - 1].column == e.column;
    if (sameAsLast) {
      blocks_.back() += e.block;
      continue;
    }
    blockColumn_.push_back(e.column);
    blocks_.push_back(e.block);
    ++rowStart_[e.row + 1];
    if (e.row == e.column) diagonalIndex_[e.row] = static_cast<int>(blocks_.size()) - 1;
  }
  for (int r = 0; r < blockRows; ++r) rowStart_[r + 1] += rowStart_[r];
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
