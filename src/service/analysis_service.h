// AnalysisService: one POST /v1/congestion-analyses from parsed request to
// response, without JSON. It validates, checks the state epoch, decides per
// signal whether to reuse a stored judgment, wait for one in flight, or judge
// it, runs the judge on a worker pool, stores every judgment durably before it
// counts, answers FAILED for spots whose judgments miss the deadline, and
// aggregates each spot from the store.
//
// Threading: Analyze() may be called from many HTTP threads at once. Planning
// (what to judge) is serialised by one mutex so a signal is never judged twice
// at once; judging runs on the pool; late judgments are stored when they
// finish. The destructor waits for the work in flight.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "domain/contract.h"
#include "domain/status.h"
#include "judges/judge.h"
#include "ops/decision_log.h"
#include "ops/metrics.h"
#include "service/validate.h"
#include "service/worker_pool.h"
#include "store/judgment_store.h"

namespace nunchi {

struct ServiceOptions {
  // Bundles judged at once (an LLM engine batches across them).
  size_t judge_threads = 16;
  // Stored judgments older than this are pruned.
  TimeMs retention_ms = 24 * 60 * kMinuteMs;
  // Time kept back from the deadline to aggregate and answer.
  std::chrono::milliseconds answer_margin{250};
  // Judges are told to finish this much earlier still, so that a fallback
  // judge (the router's last, fast one) can answer what a model missed.
  std::chrono::milliseconds fallback_reserve{500};
  RequestLimits limits;
  // Keep each judged signal's text with its judgment (serve --keep-texts),
  // so `nunchi export-labels` can turn the LLM's verdicts into training data.
  bool keep_texts = false;
  // Admission: bundles waiting for a judge thread at most; a request that
  // would queue more is refused (kUnavailable -> 503 OVERLOADED) before it
  // changes any state.
  size_t max_judge_queue = 8192;
};

class AnalysisService {
 public:
  AnalysisService(JudgmentStore& store, Judge& judge, MetricsRegistry& metrics, DecisionLog* log,
                  ServiceOptions options);
  ~AnalysisService();

  // Errors: kInvalidArgument (field_errors filled), kStateReset, kUnavailable
  // (over an admission bound), kIo (the store failed: the request is refused
  // while storage is down, but for one probe a second).
  // traceparent (W3C, may be empty) goes to the judge tasks, so that remote
  // model calls join the caller's trace.
  Result<AnalysisResponse> Analyze(const AnalysisRequest& req, const std::string& request_id,
                                   Deadline deadline, std::vector<FieldError>* field_errors,
                                   const std::string& traceparent = {});

  std::string Epoch() const { return store_.Epoch(); }
  // The judge makes progress, has not failed for good (Judge::Failed: its
  // engine died, even if a fallback answers) and the store takes writes. While storage is
  // down, a call probes it with a write at most once a second, so that
  // readiness comes back by itself when space does.
  bool Ready();
  bool storage_ok() const { return storage_ok_.load(); }
  uint64_t judge_calls() const { return judge_calls_.load(); }
  size_t signals_in_flight() const;

 private:
  struct TaskState;
  struct LateSink;
  struct Wait {
    std::shared_ptr<TaskState> state;
    size_t index;
  };
  void RunTask(std::shared_ptr<TaskState> state);
  void MaybePrune(TimeMs now_ms);
  // Records the outcome of a store call: a kIo failure turns storage_ok_ off
  // (logged once as an event), a success of a write turns it back on.
  void NoteStorage(const Status& s, const char* op, bool write);
  bool ProbeDue();

  JudgmentStore& store_;
  Judge& judge_;
  MetricsRegistry& metrics_;
  DecisionLog* log_;
  ServiceOptions options_;

  std::mutex plan_mu_;  // serialises planning
  mutable std::mutex inflight_mu_;
  std::unordered_map<std::string, Wait> inflight_;  // signal_id -> task judging it
  std::atomic<uint64_t> judge_calls_{0};
  // This replica's name in the store's claims (host, pid, a random part):
  // replicas sharing one store judge each signal once (JudgmentStore::Claim).
  std::string owner_;
  std::atomic<TimeMs> last_prune_ms_{0};
  std::shared_ptr<LateSink> late_;  // late judgments (JudgeTask::on_late) go here
  std::atomic<bool> storage_ok_{true};
  std::atomic<int64_t> last_probe_ms_{0};
  std::unique_ptr<WorkerPool> pool_;  // last member: destroyed (joined) first
};

}  // namespace nunchi
