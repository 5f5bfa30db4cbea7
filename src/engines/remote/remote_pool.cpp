#include "engines/remote/remote_pool.h"

#include <algorithm>
#include <numeric>

namespace nunchi::remote {

RemotePool::RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
                       PoolPolicy policy)
    : name_("remote-pool:" + name), members_(std::move(members)), policy_(policy) {}

bool RemotePool::Ready() const {
  return std::any_of(members_.begin(), members_.end(), [](const auto& m) { return m->Ready(); });
}

std::vector<size_t> RemotePool::Order() {
  std::vector<size_t> order(members_.size());
  if (order.empty()) return order;
  // Rotate the start for both policies, so that ties are spread evenly.
  size_t start = next_.fetch_add(1, std::memory_order_relaxed) % members_.size();
  for (size_t i = 0; i < order.size(); ++i) order[i] = (start + i) % members_.size();
  if (policy_ == PoolPolicy::kLeastBusy) {
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
      return members_[a]->busy() < members_[b]->busy();
    });
  }
  return order;
}

JudgeOutput RemotePool::JudgeBundle(const JudgeTask& task) {
  const size_t n = task.targets.size();
  JudgeOutput last(n,
                   Result<Judgment>(Status(ErrorCode::kUnavailable, name_ + ": no backend ready")));
  for (size_t index : Order()) {
    auto& member = members_[index];
    if (!member->Ready()) continue;
    if (Clock::now() >= task.deadline) break;
    JudgeOutput out = member->JudgeBundle(task);
    bool unreachable = std::all_of(out.begin(), out.end(), [](const Result<Judgment>& r) {
      return !r.ok() && r.status().code() == ErrorCode::kUnavailable;
    });
    if (!unreachable || out.empty()) return out;
    last = std::move(out);
  }
  return last;
}

}  // namespace nunchi::remote
