#include "core/thread_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace contactlab {
namespace {

// Set on a thread while it runs chunks, so that a parallelFor from inside a body runs serially
// instead of waiting for workers that are all busy (or for itself).
thread_local bool insideParallelFor = false;

void checkGrain(int grain) {
  if (grain < 1) throw std::invalid_argument("parallelFor grain must be at least 1, got " + std::to_string(grain));
}

void runSerially(int count, int grain, const ThreadPool::ChunkBody& body) {
  const int chunks = ThreadPool::chunkCount(count, grain);
  for (int chunk = 0; chunk < chunks; ++chunk)
    body(chunk * grain, std::min(count, (chunk + 1) * grain), chunk);
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads < 1) throw std::invalid_argument("thread count must be at least 1, got " + std::to_string(threads));
  workers_.reserve(threads - 1);
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  jobReady_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::workerLoop() {
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    jobReady_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    // A job is open while body_ is set. A worker that wakes after the caller closed it (every
    // chunk taken) skips it: the caller never waits for a worker the scheduler has not run yet.
    if (!body_) continue;
    const ChunkBody& body = *body_;
    ++pendingWorkers_;
    lock.unlock();
    runChunks(body);
    lock.lock();
    if (--pendingWorkers_ == 0) jobDone_.notify_all();
  }
}

void ThreadPool::runChunks(const ChunkBody& body) {
  insideParallelFor = true;
  for (;;) {
    const int chunk = nextChunk_.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= chunks_ || failed_.load(std::memory_order_relaxed)) break;
    try {
      body(chunk * grain_, std::min(count_, (chunk + 1) * grain_), chunk);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      failed_.store(true, std::memory_order_relaxed);
      if (failedChunk_ < 0 || chunk < failedChunk_) {
        failedChunk_ = chunk;
        failure_ = std::current_exception();
      }
    }
  }
  insideParallelFor = false;
}

void ThreadPool::parallelFor(int count, int grain, const ChunkBody& body) {
  checkGrain(grain);
  const int chunks = chunkCount(count, grain);
  if (workers_.empty() || chunks <= 1 || insideParallelFor) {
    runSerially(count, grain, body);
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    body_ = &body;
    count_ = count;
    grain_ = grain;
    chunks_ = chunks;
    nextChunk_.store(0, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    failedChunk_ = -1;
    failure_ = nullptr;
    ++generation_;
  }
  jobReady_.notify_all();
  runChunks(body);
  std::exception_ptr failure;
  {
    // Every chunk is taken: close the job, then wait for the workers that joined it to finish
    // their last chunks. The job's parameters stay unchanged until then, and no worker joins a
    // closed job, so none can run this job's chunks with the next job's counters.
    std::unique_lock lock(mutex_);
    body_ = nullptr;
    jobDone_.wait(lock, [&] { return pendingWorkers_ == 0; });
    failure = failure_;
    failure_ = nullptr;
  }
  if (failure) std::rethrow_exception(failure);
}

void parallelFor(ThreadPool* pool, int count, int grain, const ThreadPool::ChunkBody& body) {
  checkGrain(grain);
  if (pool) pool->parallelFor(count, grain, body);
  else runSerially(count, grain, body);
}

}  // namespace contactlab
