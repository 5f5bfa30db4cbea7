// Router: a Judge that asks an ordered list of judges (e.g. the LLM first,
// DefaultJudge last). Per target the first judge's ok result wins; targets a
// judge fails (deadline, unavailable, invalid output ...) go to the next one;
// judges that are not Ready() are skipped. Each judgment keeps the name of the
// judge that made it (set from Judge::name() when the judge left it empty).
// The judge list is fixed at construction; JudgeBundle() is safe from any
// thread when the judges are; counters are atomics.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "judges/judge.h"

namespace nunchi::judges {

class Router : public Judge {
 public:
  explicit Router(std::vector<std::shared_ptr<Judge>> judges, std::string name = "router");
  // Non-owning: the caller keeps the judges alive as long as the router.
  explicit Router(const std::vector<Judge*>& judges, std::string name = "router");

  std::string_view name() const override { return name_; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  // Ready when any judge is ready.
  bool Ready() const override;
  // Failed when any judge has failed for good (the others still answer).
  bool Failed() const override;

  // How many targets judge k answered, and how many targets no judge answered.
  uint64_t answered_by(size_t k) const { return answered_[k].load(); }
  uint64_t unanswered() const { return unanswered_.load(); }
  size_t judge_count() const { return judges_.size(); }

 private:
  std::vector<std::shared_ptr<Judge>> judges_;
  std::string name_;
  std::unique_ptr<std::atomic<uint64_t>[]> answered_;
  std::atomic<uint64_t> unanswered_{0};
};

}  // namespace nunchi::judges
