// The judge interface: every judge (prefilter, Korean rules, classifier, the
// in-process LLM engine, remote model servers) answers a JudgeTask with one
// Result<Judgment> per target signal, in target order. The router composes
// judges behind this same interface.
//
// Threading: Judge() may be called from many threads at once and must be
// thread-safe; it blocks until every target is answered or the deadline has
// passed. A judge that cannot answer a target returns a non-ok Result for it
// (kDeadlineExceeded, kUnavailable, kInvalidOutput, kDegenerated, ...); the
// router decides what answers instead. A task owns copies of everything it
// needs, so it may outlive the HTTP request that made it (late judgments are
// still stored).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract.h"
#include "domain/status.h"

namespace nunchi {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

struct JudgeTask {
  SpotInfo spot;
  Bundle bundle;                // context: the post and its comments in written order
  std::vector<size_t> targets;  // indices into bundle (0 = post, i = comments[i-1]), ascending
  TimeMs analyzed_at = 0;
  Deadline deadline = Deadline::max();
  std::string request_id;
  // Engine priority of the LLM work for this task (llm::EngineRequest::
  // priority): the cascade sends what nobody waits for (deferred) below the
  // default, so that a call somebody waits for is never slowed down by it.
  int priority = 0;
  // W3C traceparent of the HTTP request (domain/trace_context.h): remote
  // model calls send a child of it. "" when there is none.
  std::string traceparent;
  // Optional: where a judge hands a judgment that finished after JudgeBundle
  // returned (the cascade's LLM answer replacing a cheap one), by position in
  // `targets`. May be called from any thread, after the caller has gone; it
  // owns what it needs. Unset: late judgments are dropped.
  std::function<void(size_t target_position, const Judgment& judgment)> on_late;
};

using JudgeOutput = std::vector<Result<Judgment>>;

class Judge {
 public:
  virtual ~Judge() = default;
  // Stable name recorded on every judgment it makes ("rules", "llama", ...).
  virtual std::string_view name() const = 0;
  // One result per task.targets entry, same order. Never throws.
  virtual JudgeOutput JudgeBundle(const JudgeTask& task) = 0;
  // Readiness: false when the judge cannot currently make progress.
  virtual bool Ready() const { return true; }
  // True once the judge (or one it is built from) has failed for good, e.g.
  // its engine hit a failure it cannot survive. A router still answers
  // through its other judges; /readyz reports the failure.
  virtual bool Failed() const { return false; }
};

}  // namespace nunchi
