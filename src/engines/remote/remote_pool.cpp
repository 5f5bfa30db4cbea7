#include "engines/remote/remote_pool.h"

#include <algorithm>

namespace nunchi::remote {
namespace {

std::vector<std::string> MemberNames(const std::vector<std::shared_ptr<RemoteJudge>>& members) {
  std::vector<std::string> names;
  // The base URL places a member on the ring: renaming keeps its keys.
  for (const auto& m : members) names.push_back(m->options().base_url);
  return names;
}

std::unique_ptr<InferenceHealth> MakeHealth(
    const std::vector<std::shared_ptr<RemoteJudge>>& members, const HealthOptions& options) {
  if (options.interval.count() <= 0 || members.empty()) return nullptr;
  std::vector<RemoteOptions> servers;
  for (const auto& m : members) servers.push_back(m->options());
  return std::make_unique<InferenceHealth>(std::move(servers), options);
}

}  // namespace

RemotePool::RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
                       PoolOptions options)
    : name_("remote-pool:" + name),
      members_(std::move(members)),
      options_(options),
      ring_(MemberNames(members_), options.vnodes),
      health_(MakeHealth(members_, options.health)),
      in_flight_(members_.size(), 0) {}

RemotePool::RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
                       PoolPolicy policy)
    : RemotePool(std::move(name), std::move(members),
                 PoolOptions{.affinity = false, .policy = policy}) {}

bool RemotePool::MemberReady(size_t i) const {
  return members_[i]->Ready() && (!health_ || health_->ready(i));
}

bool RemotePool::Ready() const {
  for (size_t i = 0; i < members_.size(); ++i)
    if (MemberReady(i)) return true;
  return false;
}

std::string RemotePool::AffinityKey(const JudgeTask& task) {
  return task.spot.spot_id + '\x1f' + task.bundle.post_id;
}

size_t RemotePool::HomeOf(const std::string& key) const {
  std::vector<size_t> order = ring_.Walk(RingHash(key));
  std::vector<bool> ready(members_.size()), none(members_.size(), false);
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < members_.size(); ++i) ready[i] = MemberReady(i);
  return PickBounded(order, in_flight_, ready, none, options_.epsilon);
}

std::vector<size_t> RemotePool::PolicyOrder() {
  std::vector<size_t> order(members_.size());
  if (order.empty()) return order;
  // Rotate the start for both policies, so that ties are spread evenly.
  size_t start = next_.fetch_add(1, std::memory_order_relaxed) % members_.size();
  for (size_t i = 0; i < order.size(); ++i) order[i] = (start + i) % members_.size();
  if (options_.policy == PoolPolicy::kLeastBusy) {
    std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
      return members_[a]->busy() < members_[b]->busy();
    });
  }
  return order;
}

JudgeOutput RemotePool::JudgeBundle(const JudgeTask& task) {
  ++stats_.calls;
  const size_t n = task.targets.size();
  JudgeOutput last(n,
                   Result<Judgment>(Status(ErrorCode::kUnavailable, name_ + ": no backend ready")));
  const std::vector<size_t> order =
      options_.affinity ? ring_.Walk(RingHash(AffinityKey(task))) : PolicyOrder();
  std::vector<bool> tried(members_.size(), false);
  for (bool first = true;; first = false) {
    if (Clock::now() >= task.deadline) break;
    size_t m = kNoMember;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::vector<bool> ready(members_.size());
      for (size_t i = 0; i < members_.size(); ++i) ready[i] = MemberReady(i);
      if (options_.affinity) {
        m = PickBounded(order, in_flight_, ready, tried, options_.epsilon);
      } else {
        for (size_t i : order)
          if (ready[i] && !tried[i]) {
            m = i;
            break;
          }
      }
      if (m == kNoMember) break;
      ++in_flight_[m];
      if (!first) {
        ++stats_.failed_over;
      } else if (options_.affinity) {
        if (m == order.front())
          ++stats_.home;
        else if (!ready[order.front()])
          ++stats_.moved;
        else
          ++stats_.spilled;
      }
    }
    tried[m] = true;
    JudgeOutput out = members_[m]->JudgeBundle(task);
    {
      std::lock_guard<std::mutex> lock(mu_);
      --in_flight_[m];
    }
    bool any_ok = std::any_of(out.begin(), out.end(), [](const auto& r) { return r.ok(); });
    if (any_ok && health_) health_->RecordSuccess(m);
    bool unreachable = std::all_of(out.begin(), out.end(), [](const Result<Judgment>& r) {
      return !r.ok() && r.status().code() == ErrorCode::kUnavailable;
    });
    if (!unreachable || out.empty()) return out;
    last = std::move(out);
  }
  return last;
}

}  // namespace nunchi::remote
