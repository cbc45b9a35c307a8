#include "problem/block_sparse_matrix.h"

#include <gtest/gtest.h>

#include <random>

#include "core/thread_pool.h"

namespace contactlab {
namespace {

TEST(BlockSparseMatrix3, RepeatedEntriesAddAndEveryRowHasItsDiagonal) {
  BlockSparseMatrix3 A;
  A.assign(3, {{0, 2, Mat3::Identity()}, {0, 2, 2.0 * Mat3::Identity()}, {1, 1, Mat3::Ones()}});
  EXPECT_EQ(A.nonzeroBlocks(), 4);  // (0,0) (0,2) (1,1) (2,2)
  EXPECT_TRUE(A.blocks()[A.find(0, 2)].isApprox(3.0 * Mat3::Identity()));
  EXPECT_TRUE(A.diagonalBlock(2).isZero());
  EXPECT_EQ(A.find(2, 0), -1);
}

TEST(BlockSparseMatrix3, ProductMatchesTheEntriesForAnyThreadCount) {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pick(0, 1999);
  std::vector<BlockSparseMatrix3::Entry> entries;
  for (int e = 0; e < 8000; ++e) entries.push_back({pick(rng), pick(rng), Mat3::NullaryExpr([&] { return normal(rng); })});
  BlockSparseMatrix3 A;
  A.assign(2000, entries);
  const Eigen::VectorXd x = Eigen::VectorXd::NullaryExpr(6000, [&] { return normal(rng); });
  Eigen::VectorXd serial, parallel;
  A.multiply(x, serial);
  ThreadPool pool(2);
  A.multiply(x, parallel, &pool);
  EXPECT_EQ(serial, parallel);  // bit for bit
  Eigen::VectorXd reference = Eigen::VectorXd::Zero(6000);
  for (const auto& e : entries) reference.segment<3>(3 * e.row) += e.block * x.segment<3>(3 * e.column);
  EXPECT_LT((serial - reference).norm(), 1e-10 * serial.norm());
}

// A second assign with the entries at the same positions (an FEM assembly's next step) keeps the
// pattern and refills the values: the result equals a fresh matrix's bit for bit, the unreached
// diagonal included; entries at other positions build a new pattern.
TEST(BlockSparseMatrix3, ReassigningTheSamePositionsEqualsAFreshBuild) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> pick(0, 299);
  const auto randomBlock = [&] { return Mat3(Mat3::NullaryExpr([&] { return normal(rng); })); };
  std::vector<BlockSparseMatrix3::Entry> first, second;
  for (int e = 0; e < 2000; ++e) first.push_back({pick(rng), pick(rng), randomBlock()});
  for (const auto& e : first) second.push_back({e.row, e.column, randomBlock()});
  BlockSparseMatrix3 reused, fresh;
  reused.assign(300, first);
  reused.blocks()[reused.find(second[0].row, second[0].column)] = Mat3::Constant(99.0);  // overwritten below
  reused.assign(300, second);
  fresh.assign(300, second);
  EXPECT_EQ(reused.rowStart(), fresh.rowStart());
  EXPECT_EQ(reused.blockColumn(), fresh.blockColumn());
  ASSERT_EQ(reused.nonzeroBlocks(), fresh.nonzeroBlocks());
  for (int i = 0; i < fresh.nonzeroBlocks(); ++i) EXPECT_EQ(reused.blocks()[i], fresh.blocks()[i]) << "block " << i;

  std::vector<BlockSparseMatrix3::Entry> moved = second;
  moved.back().column = (moved.back().column + 1) % 300;
  reused.assign(300, moved);
  fresh.assign(300, moved);
  EXPECT_EQ(reused.blockColumn(), fresh.blockColumn());
  for (int i = 0; i < fresh.nonzeroBlocks(); ++i) EXPECT_EQ(reused.blocks()[i], fresh.blocks()[i]) << "block " << i;
}

TEST(BlockSparseMatrix3, OutOfRangeAndOutOfPatternAreErrors) {
  BlockSparseMatrix3 A;
  EXPECT_THROW(A.assign(2, {{0, 2, Mat3::Identity()}}), std::invalid_argument);
  A.assign(2, {});
  EXPECT_THROW(A.addToBlock(0, 1, Mat3::Identity()), std::invalid_argument);
  A.addToBlock(1, 1, Mat3::Identity());
  EXPECT_TRUE(A.diagonalBlock(1).isIdentity());
  A.setZeroValues();
  EXPECT_TRUE(A.diagonalBlock(1).isZero());
}

}  // namespace
}  // namespace contactlab
