// BundleGatherer: batch prompting. Groups JudgeBundle calls that arrive
// together (the service judges a cycle's bundles on many threads at once)
// into one batch of at most max_bundles tasks, and runs each batch with one
// call of a BatchFn (for the LLM judge: one prompt holding every bundle).
//
// The first caller of a group leads it: it waits until the group is full or
// `window` has passed since the group opened, closes it, runs the BatchFn on
// its own thread and hands every member its own output. Only tasks with the
// same analyzed_at share a group (one prompt has one "now"). A group of one
// is a valid batch; the BatchFn decides how to run it.
//
// Thread-safety: Submit() is called from many threads at once; it blocks
// until the caller's batch has run. The BatchFn runs on the leader's thread,
// never under the gatherer's lock, and must return one JudgeOutput per task
// (a missing or wrongly sized one fails that task with kInternal, and so
// does an exception, for every task of the batch).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "judges/judge.h"

namespace nunchi::judges {

class BundleGatherer {
 public:
  using BatchFn = std::function<std::vector<JudgeOutput>(const std::vector<const JudgeTask*>&)>;

  BundleGatherer(size_t max_bundles, std::chrono::milliseconds window, BatchFn run);

  // The caller's output (one result per task.targets entry).
  JudgeOutput Submit(const JudgeTask& task);

  size_t max_bundles() const { return max_bundles_; }
  // Batches run so far, and the tasks they held (for metrics and tests).
  uint64_t batches() const;
  uint64_t tasks() const;

 private:
  struct Group;

  const size_t max_bundles_;
  const std::chrono::milliseconds window_;
  const BatchFn run_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<Group>> open_;  // groups still taking members
  uint64_t batches_ = 0;
  uint64_t tasks_ = 0;
};

}  // namespace nunchi::judges
