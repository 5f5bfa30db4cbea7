// WorkerPool: a fixed set of threads running submitted closures in FIFO
// order. Judges block (an LLM call can take seconds), so the pool is how many
// bundles are judged at once. Submit() is thread-safe; the destructor drains
// the queue and joins, so work that outlives an HTTP request still finishes.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nunchi {

class WorkerPool {
 public:
  explicit WorkerPool(size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> fn);
  size_t QueueDepth() const;

 private:
  void Run();
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace nunchi
