// The thread pool's deterministic parallel for: every index once, chunks that do not depend on the
// thread count, exceptions from workers arriving as one clean error, and clean shutdown.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/thread_pool.h"

namespace contactlab {
namespace {

TEST(ThreadPool, ParallelForCoversEveryIndexExactlyOnce) {
  for (const int threads : {1, 2, 3, 4})
    for (const int count : {0, 1, 7, 64, 1000, 4099})
      for (const int grain : {1, 3, 64, 5000}) {
        SCOPED_TRACE(::testing::Message() << threads << " threads, count " << count << ", grain " << grain);
        ThreadPool pool(threads);
        std::vector<std::atomic<int>> visits(count);
        pool.parallelFor(count, grain, [&](int begin, int end, int chunk) {
          EXPECT_EQ(begin, chunk * grain);
          EXPECT_LE(end - begin, grain);
          for (int i = begin; i < end; ++i) visits[i].fetch_add(1);
        });
        for (int i = 0; i < count; ++i) ASSERT_EQ(visits[i].load(), 1) << "index " << i;
      }
}

TEST(ThreadPool, ChunksDependOnCountAndGrainOnly) {
  using Chunk = std::tuple<int, int, int>;  // begin, end, chunk
  auto chunksWith = [](int threads) {
    ThreadPool pool(threads);
    std::vector<Chunk> chunks(ThreadPool::chunkCount(1000, 64));
    pool.parallelFor(1000, 64, [&](int begin, int end, int chunk) { chunks[chunk] = {begin, end, chunk}; });
    return chunks;
  };
  const std::vector<Chunk> serial = chunksWith(1);
  ASSERT_EQ(serial.size(), 16u);
  EXPECT_EQ(serial.back(), Chunk(960, 1000, 15));
  for (const int threads : {2, 3, 4}) EXPECT_EQ(chunksWith(threads), serial) << threads << " threads";
}

TEST(ThreadPool, AWorkersExceptionArrivesAsOneErrorAndThePoolStaysUsable) {
  for (const int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    for (int repeat = 0; repeat < 20; ++repeat) {
      try {
        pool.parallelFor(100, 1, [](int begin, int, int) {
          if (begin == 37) throw std::runtime_error("chunk 37 failed");
        });
        ADD_FAILURE() << "no exception with " << threads << " threads";
      } catch (const std::runtime_error& error) {
        EXPECT_STREQ(error.what(), "chunk 37 failed");
      }
    }
    std::atomic<int> sum{0};
    pool.parallelFor(100, 7, [&](int begin, int end, int) {
      for (int i = begin; i < end; ++i) sum += i;
    });
    EXPECT_EQ(sum.load(), 4950) << threads << " threads";
  }
}

TEST(ThreadPool, NestedParallelForRunsOnTheCallingThread) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> visits(40 * 40);
  pool.parallelFor(40, 1, [&](int outer, int, int) {
    pool.parallelFor(40, 4, [&](int begin, int end, int) {
      for (int inner = begin; inner < end; ++inner) visits[40 * outer + inner].fetch_add(1);
    });
  });
  for (const std::atomic<int>& v : visits) ASSERT_EQ(v.load(), 1);
}

TEST(ThreadPool, ShutsDownCleanlyIdleOrRightAfterWork) {
  for (int repeat = 0; repeat < 50; ++repeat) {
    ThreadPool idle(4);
    ThreadPool worked(4);
    std::atomic<int> chunks{0};
    worked.parallelFor(64, 1, [&](int, int, int) { ++chunks; });
    EXPECT_EQ(chunks.load(), 64);
  }  // both destructors join their workers; a hang here fails by the test's timeout
}

TEST(ThreadPool, RejectsAThreadCountBelowOne) {
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
  EXPECT_THROW(ThreadPool(-2), std::invalid_argument);
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallelFor(10, 0, [](int, int, int) {}), std::invalid_argument);
}

TEST(ThreadPool, WithoutAPoolTheSameChunksRunInOrder) {
  std::vector<int> order;
  parallelFor(nullptr, 10, 4, [&](int begin, int end, int chunk) {
    order.insert(order.end(), {begin, end, chunk});
  });
  EXPECT_EQ(order, (std::vector<int>{0, 4, 0, 4, 8, 1, 8, 10, 2}));
}

}  // namespace
}  // namespace contactlab
