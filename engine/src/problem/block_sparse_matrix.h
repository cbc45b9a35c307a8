#pragma once
// A square sparse matrix of 3x3 blocks, one block row and column per FEM node: the generalized mass
// matrix A = M + dt C + dt^2 K of the deformable MLCP (Verschoor & Jalba eq. 4) and the like.
// Block CSR with both triangles stored: a product reads each block row once and writes only its own
// three entries, so rows can be cut among threads without reductions, and the result does not depend
// on the cut.
#include <utility>
#include <vector>

#include "contactlab/math.h"

namespace contactlab {

class ThreadPool;

class BlockSparseMatrix3 {
 public:
  BlockSparseMatrix3() = default;
  explicit BlockSparseMatrix3(int blockRows) { resize(blockRows); }

  // An empty pattern with `blockRows` block rows (and as many block columns).
  void resize(int blockRows);
  int blockRows() const { return static_cast<int>(rowStart_.size()) - 1; }
  int rows() const { return 3 * blockRows(); }
  int nonzeroBlocks() const { return static_cast<int>(blocks_.size()); }

  // Builds the pattern and values from (row, column, block) entries; entries at the same position are
  // added, in the order given. Every block row gets a diagonal block (zero if none was given). Throws
  // std::invalid_argument for an index outside [0, blockRows). Entries at the same positions in the
  // same order as the last call's (an FEM assembly, step after step) keep the pattern and only move
  // the values in: the same sums in the same order, without sorting.
  struct Entry {
    int row = 0;
    int column = 0;
    Mat3 block = Mat3::Zero();
  };
  void assign(int blockRows, std::vector<Entry> entries);

  // Values only, the pattern kept: every block zero, then blocks added at positions of the pattern.
  // addToBlock throws std::invalid_argument for a position outside the pattern.
  void setZeroValues();
  void addToBlock(int row, int column, const Mat3& block);

  const Mat3& diagonalBlock(int row) const { return blocks_[diagonalIndex_[row]]; }
  Mat3& diagonalBlock(int row) { return blocks_[diagonalIndex_[row]]; }
  // Index of block (row, column) in the value array, -1 outside the pattern (binary search).
  int find(int row, int column) const;

  // Row `row`'s blocks: blocks()[rowStart()[row] .. rowStart()[row + 1]), columns sorted ascending.
  const std::vector<int>& rowStart() const { return rowStart_; }
  const std::vector<int>& blockColumn() const { return blockColumn_; }
  const std::vector<Mat3>& blocks() const { return blocks_; }
  std::vector<Mat3>& blocks() { return blocks_; }

  // y = A x (x, y of rows() entries; y resized). With a pool, block rows are cut into fixed chunks;
  // the result is bit-identical for any thread count (each row sums its blocks in column order).
  void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& y, ThreadPool* pool = nullptr) const;
  Vec3 multiplyRow(int row, const Eigen::VectorXd& x) const;

  // The dense matrix (tests, small problems).
  Eigen::MatrixXd dense() const;

 private:
  std::vector<int> rowStart_{0};
  std::vector<int> blockColumn_;
  std::vector<Mat3> blocks_;
  std::vector<int> diagonalIndex_;
  // The last assign's entry positions, and per entry the index of the block it was added to (~index
  // for the entry that started its block).
  std::vector<std::pair<int, int>> lastPositions_;
  std::vector<int> lastTarget_;
  bool samePositionsAsLast(int blockRows, const std::vector<Entry>& entries) const;
};

}  // namespace contactlab
