#pragma once
// A small pool of worker threads with one operation, a deterministic parallel for (docs/threads.md).
//
// Determinism is the contract: the range [0, count) is cut into chunks of `grain` indices, a cut
// that depends on count and grain only, never on the number of threads. Callers write each
// index's (or chunk's) result into a slot of its own and combine the slots in index order after
// the loop, so a result is bit-identical whichever thread ran which chunk and with any thread
// count. Which thread takes which chunk is dynamic (an atomic counter), for load balance only.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace contactlab {

class ThreadPool {
 public:
  // `threads` >= 1 threads take part in a parallel for: the caller and threads - 1 workers.
  // Throws std::invalid_argument for threads < 1.
  explicit ThreadPool(int threads);
  // Joins the workers; must not be called while a parallelFor runs (the pool is not shared).
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threadCount() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls body(begin, end, chunk) once for every chunk [begin, end) = [chunk * grain,
  // min(count, (chunk + 1) * grain)), chunk = 0 .. chunkCount(count, grain) - 1, and returns when
  // all have run. If a body throws, chunks not yet started are skipped and, once every running
  // chunk has finished, the exception of the lowest-numbered chunk that threw is rethrown here
  // (the pool stays usable). Called from inside a body (nested), it runs serially on the calling
  // thread. Throws std::invalid_argument for grain < 1.
  using ChunkBody = std::function<void(int begin, int end, int chunk)>;
  void parallelFor(int count, int grain, const ChunkBody& body);

  static int chunkCount(int count, int grain) { return count <= 0 ? 0 : (count - 1) / grain + 1; }

 private:
  void workerLoop();
  void runChunks(const ChunkBody& body);  // takes chunks of the current job until none is left

  std::vector<std::thread> workers_;

  // The current job, published under mutex_ by bumping generation_.
  std::mutex mutex_;
  std::condition_variable jobReady_;
  std::condition_variable jobDone_;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  const ChunkBody* body_ = nullptr;  // set while the current job is open to workers
  int count_ = 0;
  int grain_ = 1;
  int chunks_ = 0;
  std::atomic<int> nextChunk_{0};
  std::atomic<bool> failed_{false};
  int pendingWorkers_ = 0;     // workers that joined the current job and are still in it (under mutex_)
  int failedChunk_ = -1;       // lowest chunk that threw (under mutex_)
  std::exception_ptr failure_;  // its exception
};

// A parallel for on `pool`, or on the calling thread alone when pool is null: the same chunks in
// order, so callers need not branch on whether they were given a pool.
void parallelFor(ThreadPool* pool, int count, int grain, const ThreadPool::ChunkBody& body);

}  // namespace contactlab
