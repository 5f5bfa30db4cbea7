#include "judges/bundle_gatherer.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace nunchi::judges {

struct BundleGatherer::Group {
  TimeMs analyzed_at = 0;
  Clock::time_point opened;
  std::vector<const JudgeTask*> tasks;
  std::vector<JudgeOutput> outputs;
  bool full = false;  // closed to new members (full or its window passed)
  bool done = false;  // outputs are set
  std::condition_variable cv;
};

BundleGatherer::BundleGatherer(size_t max_bundles, std::chrono::milliseconds window, BatchFn run)
    : max_bundles_(std::max<size_t>(1, max_bundles)), window_(window), run_(std::move(run)) {}

JudgeOutput BundleGatherer::Submit(const JudgeTask& task) {
  std::unique_lock lock(mu_);
  std::shared_ptr<Group> group;
  size_t slot = 0;
  for (const auto& g : open_) {
    if (g->analyzed_at == task.analyzed_at && !g->full) {
      group = g;
      break;
    }
  }
  const bool leader = group == nullptr;
  if (leader) {
    group = std::make_shared<Group>();
    group->analyzed_at = task.analyzed_at;
    group->opened = Clock::now();
    open_.push_back(group);
  }
  slot = group->tasks.size();
  group->tasks.push_back(&task);
  if (group->tasks.size() >= max_bundles_) {
    group->full = true;
    group->cv.notify_all();
  }

  if (!leader) {
    group->cv.wait(lock, [&] { return group->done; });
    return std::move(group->outputs[slot]);
  }

  group->cv.wait_until(lock, group->opened + window_, [&] { return group->full; });
  group->full = true;
  open_.erase(std::find(open_.begin(), open_.end(), group));
  ++batches_;
  tasks_ += group->tasks.size();
  std::vector<const JudgeTask*> tasks = group->tasks;  // members wait: the pointers stay valid
  lock.unlock();

  std::vector<JudgeOutput> outputs;
  try {
    outputs = run_(tasks);
  } catch (const std::exception& e) {  // the members must not wait forever
    outputs.clear();
    for (const JudgeTask* t : tasks)
      outputs.emplace_back(t->targets.size(),
                           Result<Judgment>(Status(ErrorCode::kInternal, e.what())));
  }
  outputs.resize(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (outputs[i].size() != tasks[i]->targets.size())
      outputs[i] =
          JudgeOutput(tasks[i]->targets.size(),
                      Result<Judgment>(Status(ErrorCode::kInternal,
                                              "batch returned no output for this bundle")));
  }

  lock.lock();
  group->outputs = std::move(outputs);
  group->done = true;
  group->cv.notify_all();
  return std::move(group->outputs[slot]);
}

uint64_t BundleGatherer::batches() const {
  std::lock_guard lock(mu_);
  return batches_;
}

uint64_t BundleGatherer::tasks() const {
  std::lock_guard lock(mu_);
  return tasks_;
}

}  // namespace nunchi::judges
