#include "judges/router.h"

#include <optional>

namespace nunchi::judges {

Router::Router(std::vector<std::shared_ptr<Judge>> judges, std::string name)
    : judges_(std::move(judges)),
      name_(std::move(name)),
      answered_(new std::atomic<uint64_t>[judges_.size() + 1]) {
  for (size_t k = 0; k <= judges_.size(); ++k) answered_[k] = 0;
}

namespace {
std::vector<std::shared_ptr<Judge>> Borrow(const std::vector<Judge*>& judges) {
  std::vector<std::shared_ptr<Judge>> out;
  for (Judge* j : judges) out.emplace_back(std::shared_ptr<Judge>(), j);  // aliasing, no ownership
  return out;
}
}  // namespace

Router::Router(const std::vector<Judge*>& judges, std::string name)
    : Router(Borrow(judges), std::move(name)) {}

bool Router::Ready() const {
  for (const auto& j : judges_)
    if (j && j->Ready()) return true;
  return false;
}

bool Router::Failed() const {
  for (const auto& j : judges_)
    if (j && j->Failed()) return true;
  return false;
}

JudgeOutput Router::JudgeBundle(const JudgeTask& task) {
  const size_t n = task.targets.size();
  std::vector<std::optional<Judgment>> done(n);
  std::vector<Status> last_error(n, Status(ErrorCode::kUnavailable, "no judge is ready"));
  std::vector<size_t> pending(n);  // positions in task.targets still unanswered
  for (size_t k = 0; k < n; ++k) pending[k] = k;

  for (size_t ji = 0; ji < judges_.size() && !pending.empty(); ++ji) {
    Judge* judge = judges_[ji].get();
    if (!judge || !judge->Ready()) continue;
    JudgeOutput got;
    if (pending.size() == n) {
      got = judge->JudgeBundle(task);
    } else {
      JudgeTask sub = task;
      sub.targets.clear();
      for (size_t k : pending) sub.targets.push_back(task.targets[k]);
      got = judge->JudgeBundle(sub);
    }
    std::vector<size_t> still;
    for (size_t k = 0; k < pending.size(); ++k) {
      size_t pos = pending[k];
      if (k < got.size() && got[k].ok()) {
        Judgment j = got[k].value();
        if (j.judge.empty()) j.judge = std::string(judge->name());
        done[pos] = std::move(j);
        answered_[ji].fetch_add(1, std::memory_order_relaxed);
      } else {
        if (k < got.size())
          last_error[pos] = got[k].status();
        else
          last_error[pos] = Status(ErrorCode::kInternal, "judge returned too few results");
        still.push_back(pos);
      }
    }
    pending = std::move(still);
  }

  JudgeOutput out;
  out.reserve(n);
  for (size_t k = 0; k < n; ++k) {
    if (done[k]) {
      out.emplace_back(std::move(*done[k]));
    } else {
      unanswered_.fetch_add(1, std::memory_order_relaxed);
      out.emplace_back(last_error[k]);
    }
  }
  return out;
}

}  // namespace nunchi::judges
