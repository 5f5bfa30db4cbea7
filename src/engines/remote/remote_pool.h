// RemotePool: several RemoteJudges serving one model behind the Judge
// interface (judge name "remote-pool:<name>"). Each call goes to one member
// chosen round-robin or least-busy among the Ready ones (breaker closed or
// probing); when that member cannot be reached at all (every target
// kUnavailable) and time remains, the next ready member is tried. Judgments
// keep the member's own name ("remote:<member>") so provenance is exact.
// This is load spreading across equal backends, not the fallback between
// kinds of judges (that is the Router of judges/router.h).
//
// Thread-safety: JudgeBundle and Ready may be called from many threads.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engines/remote/remote_judge.h"

namespace nunchi::remote {

enum class PoolPolicy { kRoundRobin, kLeastBusy };

class RemotePool : public Judge {
 public:
  RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
             PoolPolicy policy = PoolPolicy::kLeastBusy);

  std::string_view name() const override { return name_; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  bool Ready() const override;

  const std::vector<std::shared_ptr<RemoteJudge>>& members() const { return members_; }

 private:
  // Member indices in the order to try them for one call.
  std::vector<size_t> Order();

  const std::string name_;
  const std::vector<std::shared_ptr<RemoteJudge>> members_;
  const PoolPolicy policy_;
  std::atomic<size_t> next_{0};
};

}  // namespace nunchi::remote
