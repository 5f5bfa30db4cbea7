// Cascade: a Judge that asks the LLM only where the cheap judge is unsure.
// The cheap judge (the default judge: prefilter, rules, classifier) answers
// every target first. Targets whose confidence (CascadeConfidence below) is
// under the calibrated threshold are escalated, least confident first and
// only as many as the deadline budget says can finish, in one LLM request per
// bundle holding only those targets. The LLM's answer replaces the cheap one;
// when the LLM fails, loops or misses the deadline the cheap judgment stands
// (the spot stays OK), and an LLM answer that arrives after the deadline (but
// within late_grace) still replaces the stored one through task.on_late.
// Every judgment carries a CascadeRecord: the cheap answer, its confidence,
// the outcome and the calibration version. An LLM answer without a cause
// text (the escalation prompt asks the words only for the last target, the
// likeliest representative) gets one from FillCauseText.
//
// Deadline budget: an escalation of k targets, submitted while m escalated
// targets are still in flight, is predicted to take
//   call_seconds + target_seconds * (k + m) + char_seconds * (c + n),
// c being the code points of the text its prompt shows that the engine has
// likely not cached (every target's text, the latest shown_comments
// comments, the post until this cascade has escalated the bundle once) and
// n those of the calls in flight. The prompt tokens an engine computes grow
// with c (about one per Hangul syllable) and were what made a call slow on
// the 2-core box, not the count of targets (docs/benchmarks.md).
// target_seconds and char_seconds are learnt together from finished calls
// that had the engine to themselves (no other escalation active when they
// started or started while they ran; a call that shared it took the
// other's time too), by recursive least squares with forgetting (the
// priors until then).
// The unsure targets are taken least confident first, each one that fits:
// with a wait cap (max_wait, before the task deadline) a target predicted to
// finish within wait_headroom of the wait is escalated and waited for; one
// that does not is kept cheap (kept_time) and, if it can still finish before
// the task deadline, deferred: sent in a second call nobody waits for, which
// starts once no waited call is on the engine, runs at kDeferredPriority (so
// that a waited call arriving later holds it back on the engine) and whose
// answers replace the cheap ones in the store through task.on_late (so the
// estimate keeps learning from those that run alone even when nothing fits
// in the wait). Without a cap the budget is the task deadline.
//
// Threading: JudgeBundle may be called from many threads at once. Each
// escalation runs on its own thread so that the caller can return at the
// deadline; at most max_inflight_calls run at once (more are kept cheap).
// The destructor waits for the escalations still running (each is bounded by
// its deadline + late_grace). Both judges must outlive the cascade.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "judges/judge.h"

namespace nunchi::judges {

// One escalated call as it ended, for the server log: enough to tell why an
// escalation missed its wait (queued behind others, a slow engine, a plan
// that was wrong, a long text).
struct CascadeCallReport {
  size_t targets = 0;             // targets in the call
  bool deferred = false;          // nobody waited for it
  bool late = false;              // waited for, and the wait ended before the answer
  size_t failed = 0;              // targets the LLM did not answer
  size_t in_flight_at_start = 0;  // other escalated targets on the engine when it started
  size_t max_text_chars = 0;      // the longest target text, code points
  size_t context_chars = 0;       // other text the prompt shows, likely uncached (below)
  size_t chars = 0;               // what the plan counted: the targets' text and context_chars
  double predicted_s = 0;         // the budget's plan: submission to the last target's answer
  double queued_s = 0;            // submission to start (a deferred call waits for the waited ones)
  double llm_s = 0;               // start to answer
};

struct CascadeOptions {
  // Escalate a target whose cheap confidence is below this (from the
  // calibration file, see calibration.h). 0 never escalates; above 1 always.
  double threshold = 0.9;
  std::string calibration_version;
  // Budget priors, used until observed calls replace them (see the top).
  double call_seconds = 0.5;    // fixed cost of one escalated call (not learnt)
  double target_seconds = 0.5;  // per target in flight: its answer's tokens
  // Per code point of uncached prompt text: the in-process engine's prefill
  // on the 2-core box, ~80 prompt tokens a second at the serve loads, about
  // a token per Hangul syllable (docs/benchmarks.md). 0: the text is not
  // planned for and not learnt (the budget counts targets only).
  double char_seconds = 0.0125;
  // Recursive least squares: an observation's weight decays by this factor
  // per later one (0.9: about the last ten calls count).
  double forgetting = 0.9;
  // The other text an escalation prompt shows: the post (cached by the
  // engine once this cascade has escalated the bundle before) and the latest
  // shown_comments comments (llm::kDefaultEscalationComments; never cached,
  // they follow the post), counted with the first target of each call.
  size_t shown_comments = 4;
  // An escalation may still finish this long after the task deadline; its
  // answers then replace the cheap ones through JudgeTask::on_late.
  std::chrono::milliseconds late_grace{60'000};
  // The longest the cascade waits for the LLM in one call, when that ends
  // before the task deadline; 0: the task deadline. The budget still sends
  // what can finish before the task deadline: what finishes after max_wait
  // replaces the cheap answers through on_late (a budget bounded by max_wait
  // starved: with an engine slower than max_wait per target nothing was sent,
  // so the estimate never learnt and no unsure signal ever reached the LLM).
  std::chrono::milliseconds max_wait{0};
  // With max_wait: what is waited for is planned to finish within this share
  // of the wait (the estimate is a mean; a call over it is a late answer).
  double wait_headroom = 0.8;
  // With max_wait: send the unsure targets that miss the wait but can finish
  // before the deadline anyway, for the store (deferred).
  bool defer_beyond_wait = true;
  size_t max_inflight_calls = 64;
  // Called once per escalated call when the LLM has answered (or failed), on
  // that call's thread; may be empty. Must not call back into the cascade.
  std::function<void(const CascadeCallReport&)> on_call;
};

// The engine priority (JudgeTask::priority) of a deferred call: under every
// call somebody waits for, which keeps the task's (default 0).
inline constexpr int kDeferredPriority = -1;

// Lock-free counters; read them for /metrics.
struct CascadeStats {
  std::atomic<uint64_t> targets{0};         // targets judged
  std::atomic<uint64_t> escalated{0};       // targets sent to the LLM and waited for
  std::atomic<uint64_t> unsure{0};          // targets under the threshold
  std::atomic<uint64_t> llm_in_time{0};     // escalated targets the LLM answered in time
  std::atomic<uint64_t> kept_for_time{0};   // unsure targets the budget kept cheap
  std::atomic<uint64_t> deferred{0};        // of those, sent anyway for the store
  std::atomic<uint64_t> kept_for_error{0};  // escalated, LLM failed or was late
  std::atomic<uint64_t> late_replaced{0};   // late LLM answers handed to on_late
  std::atomic<uint64_t> agreed{0};          // LLM agreed with the cheap judge (relevance and level)
  std::atomic<uint64_t> overturned{0};      // LLM disagreed
  std::atomic<uint64_t> calls{0};           // escalated calls
  std::atomic<uint64_t> shared{0};          // calls that shared the engine (not learnt from)
};

// What the escalation decides on: the joint confidence of docs/quality.md,
// the probability that the whole judgment is right: relevance_confidence for
// an IRRELEVANT judgment, relevance_confidence × level_confidence for a
// RELEVANT one; an unmeasured field (-1) counts as 0.
double CascadeConfidence(const Judgment& j);

// The cause text of an LLM judgment that came without one (the escalation
// prompt asks the words for the likeliest representative only, llm/prompt.h):
// the cheap judge's text when it found the same cause, else one written from
// the cause code (cause_text.h). Leaves a judgment with a text, or an
// IRRELEVANT one, as it is.
void FillCauseText(Judgment& llm, const Judgment& cheap);

class Cascade : public Judge {
 public:
  // cheap and llm are borrowed and must outlive the cascade.
  Cascade(Judge* cheap, Judge* llm, CascadeOptions options, std::string name = "cascade");
  ~Cascade() override;

  std::string_view name() const override { return name_; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  // Ready when the cheap judge is (the LLM is optional).
  bool Ready() const override { return cheap_->Ready(); }
  // Failed when either judge has failed for good (the cheap one still
  // answers every target when the LLM has).
  bool Failed() const override { return cheap_->Failed() || (llm_ != nullptr && llm_->Failed()); }

  const CascadeStats& stats() const { return stats_; }
  const CascadeOptions& options() const { return options_; }
  // The budget's current estimates: seconds per target, per uncached code point.
  double target_seconds() const;
  double char_seconds() const;

 private:
  struct Call;
  enum class Plan { kKept, kWaited, kDeferred };
  // What becomes of each unsure target (least confident first; `chars`:
  // the code points of each one's text): waited for if it fits before
  // wait_plan, else deferred if `defer` and it fits before the deadline,
  // else kept cheap. What is sent counts in flight from here on (Launch's
  // call takes it off when it ends). *waited_s and *sent_s: the seconds
  // from now the plan expects the waited targets, and all sent ones, done.
  // `context`: the shown text's code points, with the first target of each call.
  std::vector<Plan> Reserve(const std::vector<size_t>& chars, size_t context, Deadline wait_plan,
                            Deadline deadline, bool defer, double* waited_s, double* sent_s);
  // Code points of the text an escalation of `task` shows besides the
  // `unsure` targets that the engine has likely not cached (CascadeOptions).
  size_t ContextChars(const JudgeTask& task, const std::vector<size_t>& unsure) const;
  // Code points of the text of task.targets[position].
  static size_t TargetChars(const JudgeTask& task, size_t position);
  // Sends the targets at `positions` of `task` (cheap answers in `out`) in
  // one call on its own thread; a deferred call is abandoned from the start.
  // predicted_s and context_chars: the plan's, for on_call.
  std::shared_ptr<Call> Launch(const JudgeTask& task, const std::vector<size_t>& positions,
                               const JudgeOutput& out, bool deferred, double predicted_s,
                               size_t context_chars);
  void Report(const Call& call, bool deferred, bool late, double queued_s, double llm_s) const;
  // A call that took `seconds` alone on the engine with these targets and
  // uncached code points.
  void Observe(double seconds, size_t targets, size_t chars);
  void Reap();
  void FinishLate(Call& call);

  Judge* cheap_;
  Judge* llm_;
  CascadeOptions options_;
  std::string name_;
  CascadeStats stats_;

  mutable std::mutex mu_;  // guards the estimate and the running list
  double theta_[2];        // the estimate: seconds per target, per code point
  double p_[2][2];         // its recursive least squares covariance
  size_t targets_in_flight_ = 0;
  size_t chars_in_flight_ = 0;             // the uncached code points of those calls
  size_t waited_in_flight_ = 0;            // of those, in calls somebody waits for
  size_t active_targets_ = 0;              // of those, in calls that have started
  uint64_t calls_started_ = 0;             // escalated calls started so far
  std::condition_variable idle_cv_;        // waited_in_flight_ fell to 0
  std::set<std::string> escalated_posts_;  // post ids sent before (bounded: cleared when full)
  std::vector<std::future<void>> running_;
};

}  // namespace nunchi::judges
