// RemotePool: several RemoteJudges serving one model behind the Judge
// interface (judge name "remote-pool:<name>"). Judgments keep the member's
// own name ("remote:<member>") so provenance is exact. This is load
// spreading across equal backends, not the fallback between kinds of judges
// (that is the Router of judges/router.h).
//
// Routing, with affinity on (the default of PoolOptions): the same bundle
// (spot id + post id) goes to the same member, so that member's prefix cache
// (vLLM automatic prefix caching, llama-server's slots and --cache-ram) still
// holds the bundle's prompt from the last cycle. Members sit on a consistent
// hash ring (hash_ring.h) with bounded loads: a member over
// ceil((1 + epsilon) x its share) of the pool's in-flight calls lets the call
// spill to the next member on the ring. With affinity off: round-robin or
// least-busy (PoolPolicy) among the ready members.
//
// A member is ready when its circuit breaker lets calls through and, when
// health probing is on (HealthOptions::interval > 0), its last inference
// probes answered (inference_health.h). Unready members are out of the ring:
// their keys go to the next member and come back when they are ready again.
// When a member cannot be reached at all (every target kUnavailable) and
// time remains, the call fails over to the next ready member.
//
// Thread-safety: JudgeBundle, Ready and the stats may be called from many
// threads; the probe threads stop in the destructor.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engines/remote/hash_ring.h"
#include "engines/remote/inference_health.h"
#include "engines/remote/remote_judge.h"

namespace nunchi::remote {

enum class PoolPolicy { kRoundRobin, kLeastBusy };

struct PoolOptions {
  // Bundle affinity by bounded-load consistent hashing; off: `policy`.
  bool affinity = true;
  // Load bound: a member takes a call while its in-flight count + 1 is at
  // most ceil((1 + epsilon) * (pool in flight + 1) / ready members).
  double epsilon = 0.25;
  // Points per member on the ring.
  int vnodes = 160;
  PoolPolicy policy = PoolPolicy::kLeastBusy;
  // Health by inference; interval 0: no probes (breakers only).
  HealthOptions health{std::chrono::milliseconds(0)};
};

// Counters of the pool's routing; lock-free.
struct PoolStats {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> home{0};         // affinity: sent to the key's home member
  std::atomic<uint64_t> spilled{0};      // affinity: home ready but over its load bound
  std::atomic<uint64_t> moved{0};        // affinity: home unready (breaker open or probe failed)
  std::atomic<uint64_t> failed_over{0};  // a member was unreachable; the next was tried
};

class RemotePool : public Judge {
 public:
  RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
             PoolOptions options);
  // Affinity off, no probes: `policy` alone (the pool before issue 17).
  RemotePool(std::string name, std::vector<std::shared_ptr<RemoteJudge>> members,
             PoolPolicy policy = PoolPolicy::kLeastBusy);

  std::string_view name() const override { return name_; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  bool Ready() const override;

  const std::vector<std::shared_ptr<RemoteJudge>>& members() const { return members_; }
  // Member i is in the ring now (breaker and probes).
  bool MemberReady(size_t i) const;
  // The key of a task (spot id and post id) and the member it would go to
  // now, with the current loads; kNoMember when none is ready.
  static std::string AffinityKey(const JudgeTask& task);
  size_t HomeOf(const std::string& key) const;
  const PoolStats& stats() const { return stats_; }
  const PoolOptions& options() const { return options_; }
  const InferenceHealth* health() const { return health_.get(); }

 private:
  // Chooses the member for the next attempt and counts it in flight.
  size_t Acquire(uint64_t key_hash, const std::vector<bool>& tried);
  void Release(size_t member);
  std::vector<size_t> PolicyOrder();

  const std::string name_;
  const std::vector<std::shared_ptr<RemoteJudge>> members_;
  const PoolOptions options_;
  const HashRing ring_;
  std::unique_ptr<InferenceHealth> health_;
  mutable std::mutex mu_;
  std::vector<int> in_flight_;  // guarded by mu_
  std::atomic<size_t> next_{0};
  PoolStats stats_;
};

}  // namespace nunchi::remote
