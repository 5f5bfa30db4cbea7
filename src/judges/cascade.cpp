#include "judges/cascade.h"

#include <algorithm>
#include <condition_variable>
#include <numeric>

#include "domain/labels.h"
#include "judges/cause_text.h"

namespace nunchi::judges {

namespace {

// How far the estimate may move from its prior on one observation: a call
// of one target may be a few seconds off the prior per target; one of 100
// uncached code points as far off per 100.
constexpr double kPriorTargetVariance = 4.0;   // s^2
constexpr double kPriorCharVariance = 4.0e-4;  // (s per code point)^2

}  // namespace

double CascadeConfidence(const Judgment& j) {
  double rel = j.relevance_confidence < 0 ? 0 : j.relevance_confidence;
  if (j.relevance == Relevance::kIrrelevant) return rel;
  double lvl = j.level_confidence < 0 ? 0 : j.level_confidence;
  return rel * lvl;
}

// One escalated call, shared by the caller (until the deadline) and its thread.
struct Cascade::Call {
  JudgeTask sub;                  // the escalated targets only
  std::vector<size_t> positions;  // their positions in the caller's task.targets
  std::vector<Judgment> cheap;    // the cheap judgments, same order
  std::function<void(size_t, const Judgment&)> on_late;  // the caller's late sink
  size_t in_flight_at_start = 0;
  uint64_t calls_started_at_start = 0;  // Cascade::calls_started_ once it started
  double predicted_s = 0;
  size_t context_chars = 0;
  size_t chars = 0;  // what the plan counted for it: its targets' text and context_chars
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  bool abandoned = false;  // the caller returned before the answer
  JudgeOutput out;
};

namespace {

CascadeRecord CheapRecord(const Judgment& cheap, const CascadeOptions& o,
                          CascadeRecord::Outcome outcome) {
  CascadeRecord r;
  r.outcome = outcome;
  r.calibration_version = o.calibration_version;
  r.threshold = o.threshold;
  r.cheap_judge = cheap.judge;
  r.cheap_relevance = cheap.relevance;
  r.cheap_level = cheap.level;
  r.cheap_cause = cheap.cause;
  r.cheap_confidence = CascadeConfidence(cheap);
  return r;
}

}  // namespace

void FillCauseText(Judgment& llm, const Judgment& cheap) {
  if (llm.relevance != Relevance::kRelevant || !llm.cause_text.empty()) return;
  if (cheap.relevance == Relevance::kRelevant && cheap.cause == llm.cause &&
      !cheap.cause_text.empty()) {
    llm.cause_text = cheap.cause_text;
    return;
  }
  llm.cause_text =
      MakeCauseText(llm.relevance, llm.level, llm.cause, DefaultCauseKey(llm.cause), std::nullopt);
}

namespace {

bool Agrees(const Judgment& a, const Judgment& b) {
  return a.relevance == b.relevance && a.level == b.level;
}

}  // namespace

size_t Cascade::TargetChars(const JudgeTask& task, size_t position) {
  const size_t index = task.targets[position];
  // Code points, not bytes: a Hangul syllable is three bytes and about one token.
  return index < task.bundle.size() ? Utf8Length(task.bundle.at(index).text) : 0;
}

size_t Cascade::ContextChars(const JudgeTask& task, const std::vector<size_t>& unsure) const {
  // Bundle indexes of the unsure targets: their texts count as theirs.
  std::set<size_t> targets;
  for (size_t pos : unsure)
    if (pos < task.targets.size()) targets.insert(task.targets[pos]);
  size_t chars = 0;
  bool post_cached;
  {
    std::lock_guard lock(mu_);
    post_cached = escalated_posts_.count(task.bundle.post_id) > 0;
  }
  if (!post_cached && !targets.count(0)) chars += Utf8Length(task.bundle.post.text);
  const size_t n = task.bundle.size();
  const size_t first = n - 1 > options_.shown_comments ? n - options_.shown_comments : 1;
  for (size_t i = first; i < n; ++i)
    if (!targets.count(i)) chars += Utf8Length(task.bundle.at(i).text);
  return chars;
}

Cascade::Cascade(Judge* cheap, Judge* llm, CascadeOptions options, std::string name)
    : cheap_(cheap),
      llm_(llm),
      options_(std::move(options)),
      name_(std::move(name)),
      theta_{options_.target_seconds, options_.char_seconds},
      p_{{kPriorTargetVariance, 0}, {0, kPriorCharVariance}} {}

Cascade::~Cascade() {
  std::vector<std::future<void>> running;
  {
    std::lock_guard lock(mu_);
    running.swap(running_);
  }
  for (auto& f : running) f.wait();
}

double Cascade::target_seconds() const {
  std::lock_guard lock(mu_);
  return std::max(theta_[0], 0.0);
}

double Cascade::char_seconds() const {
  std::lock_guard lock(mu_);
  return std::max(theta_[1], 0.0);
}

std::vector<Cascade::Plan> Cascade::Reserve(const std::vector<size_t>& chars, size_t context,
                                            Deadline wait_plan, Deadline deadline, bool defer,
                                            double* waited_s, double* sent_s) {
  std::vector<Plan> plan(chars.size(), Plan::kKept);
  *waited_s = *sent_s = 0;
  std::lock_guard lock(mu_);
  if (running_.size() >= options_.max_inflight_calls) return plan;
  const auto now = Clock::now();
  const double wait_left = std::chrono::duration<double>(wait_plan - now).count();
  const double deadline_left = std::chrono::duration<double>(deadline - now).count();
  // The estimate is unconstrained (clamping it inside the recursion stalls
  // it: a 2-core run held 36 s a target with the text term clamped at 0);
  // a negative coefficient counts as 0 here.
  const double per = std::max(theta_[0], 1e-6), per_char = std::max(theta_[1], 0.0);
  // Deferred calls start after the waited ones, so only the waited targets
  // count against the wait; all of them count against the deadline.
  const double busy = options_.call_seconds + per * double(targets_in_flight_) +
                      per_char * double(chars_in_flight_);
  double waited = busy, sent = busy;
  bool any_waited = false, any_deferred = false;
  for (size_t k = 0; k < chars.size(); ++k) {
    // The shown context goes in with the first target of each call.
    const size_t as_waited_chars = chars[k] + (any_waited ? 0 : context);
    const size_t as_deferred_chars = chars[k] + (any_deferred ? 0 : context);
    const double as_waited = per + per_char * double(as_waited_chars);
    const double as_deferred = per + per_char * double(as_deferred_chars);
    size_t reserved_chars;
    if (waited + as_waited <= wait_left && sent + as_waited <= deadline_left) {
      plan[k] = Plan::kWaited;
      waited += as_waited;
      sent += as_waited;
      any_waited = true;
      ++waited_in_flight_;
      reserved_chars = as_waited_chars;
    } else if (defer && sent + as_deferred <= deadline_left) {
      plan[k] = Plan::kDeferred;
      sent += as_deferred;
      any_deferred = true;
      reserved_chars = as_deferred_chars;
    } else {
      continue;
    }
    // Held from now: a bundle judged at the same moment sees it.
    ++targets_in_flight_;
    chars_in_flight_ += reserved_chars;
  }
  *waited_s = waited;
  *sent_s = sent;
  return plan;
}

void Cascade::Observe(double seconds, size_t targets, size_t chars) {
  // Recursive least squares on seconds - call_seconds = theta . x, with
  // x = (targets, chars); the char term stays off when its prior is 0.
  const double x[2] = {double(targets), options_.char_seconds > 0 ? double(chars) : 0.0};
  const double y = std::max(seconds - options_.call_seconds, 0.0);
  const double lambda = std::clamp(options_.forgetting, 0.05, 1.0);
  std::lock_guard lock(mu_);
  const double px[2] = {p_[0][0] * x[0] + p_[0][1] * x[1], p_[1][0] * x[0] + p_[1][1] * x[1]};
  const double gain_den = lambda + x[0] * px[0] + x[1] * px[1];
  const double gain[2] = {px[0] / gain_den, px[1] / gain_den};
  const double err = y - (theta_[0] * x[0] + theta_[1] * x[1]);
  theta_[0] += gain[0] * err;
  theta_[1] += gain[1] * err;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) p_[i][j] = (p_[i][j] - gain[i] * px[j]) / lambda;
  // A feature that stops varying lets its variance grow without bound
  // (windup); keep it within the prior's, scaling the whole matrix so that
  // it stays positive definite.
  const double scale = std::min({1.0, kPriorTargetVariance / std::max(p_[0][0], 1e-300),
                                 kPriorCharVariance / std::max(p_[1][1], 1e-300)});
  for (auto& row : p_)
    for (double& v : row) v *= scale;
}

void Cascade::Reap() {
  std::lock_guard lock(mu_);
  std::erase_if(running_, [](std::future<void>& f) {
    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  });
}

void Cascade::FinishLate(Call& call) {
  for (size_t k = 0; k < call.out.size() && k < call.positions.size(); ++k) {
    if (!call.out[k].ok()) continue;
    Judgment j = call.out[k].value();
    if (j.judge.empty()) j.judge = std::string(llm_->name());
    FillCauseText(j, call.cheap[k]);
    j.cascade = CheapRecord(call.cheap[k], options_, CascadeRecord::Outcome::kLlm);
    (Agrees(j, call.cheap[k]) ? stats_.agreed : stats_.overturned).fetch_add(1);
    if (call.on_late) {
      stats_.late_replaced.fetch_add(1);
      call.on_late(call.positions[k], j);
    }
  }
}

std::shared_ptr<Cascade::Call> Cascade::Launch(const JudgeTask& task,
                                               const std::vector<size_t>& positions,
                                               const JudgeOutput& out, bool deferred,
                                               double predicted_s, size_t context_chars) {
  auto call = std::make_shared<Call>();
  call->predicted_s = predicted_s;
  call->context_chars = context_chars;
  call->chars = context_chars;
  for (size_t pos : positions) call->chars += TargetChars(task, pos);
  call->sub = task;
  call->sub.on_late = nullptr;
  call->sub.targets.clear();
  for (size_t pos : positions) {
    call->sub.targets.push_back(task.targets[pos]);
    call->positions.push_back(pos);
    call->cheap.push_back(out[pos].ok() ? out[pos].value() : Judgment{});
  }
  call->sub.deadline = task.deadline >= Deadline::max() - options_.late_grace
                           ? Deadline::max()
                           : task.deadline + options_.late_grace;
  call->on_late = task.on_late;
  call->abandoned = deferred;  // nobody waits: the answers go to on_late
  // On the engine a deferred call yields to every call somebody waits for,
  // also to one that arrives while it runs.
  call->sub.priority = deferred ? kDeferredPriority : task.priority;
  stats_.calls.fetch_add(1);
  {
    std::lock_guard lock(mu_);
    const auto submitted = Clock::now();
    running_.push_back(std::async(std::launch::async, [this, call, deferred, submitted] {
      {
        // A deferred call starts when no waited call is on the engine, so
        // that it does not slow down an answer somebody waits for.
        std::unique_lock lock(mu_);
        if (deferred)
          idle_cv_.wait_until(lock, call->sub.deadline, [&] { return waited_in_flight_ == 0; });
        call->calls_started_at_start = ++calls_started_;
        call->in_flight_at_start = active_targets_;
        active_targets_ += call->positions.size();
      }
      const auto start = Clock::now();
      JudgeOutput got;
      try {
        got = llm_->JudgeBundle(call->sub);
      } catch (const std::exception& e) {
        got.assign(call->positions.size(), Status(ErrorCode::kInternal, e.what()));
      }
      if (got.size() != call->positions.size())
        got.assign(call->positions.size(), Status(ErrorCode::kInternal, "llm: wrong count"));
      const double secs = std::chrono::duration<double>(Clock::now() - start).count();
      // Learnt only from a call that had the engine to itself: none active
      // when it started, none started while it ran. A call that shared it
      // took the other's time too (in a 2-core run deferred calls that
      // waited ones overtook took 10 to 47 s, and the warm-up's 16 deferred
      // calls at once taught 0.045 s a code point, 3.5 times the prefill
      // rate, so that nothing fitted the wait). Without waited calls (nothing
      // fits) the deferred ones run alone and keep the estimate learning.
      bool shared;
      {
        std::lock_guard lock(mu_);
        shared = call->in_flight_at_start > 0 || calls_started_ != call->calls_started_at_start;
      }
      if (shared)
        stats_.shared.fetch_add(1);
      else
        Observe(secs, call->positions.size(), call->chars);
      {
        std::lock_guard lock(mu_);
        targets_in_flight_ -= call->positions.size();
        chars_in_flight_ -= call->chars;
        active_targets_ -= call->positions.size();
        if (!deferred) waited_in_flight_ -= call->positions.size();
      }
      if (!deferred) idle_cv_.notify_all();
      bool late;
      {
        std::lock_guard lock(call->mu);
        call->out = std::move(got);
        call->done = true;
        late = call->abandoned;
      }
      call->cv.notify_all();
      Report(*call, deferred, late && !deferred,
             std::chrono::duration<double>(start - submitted).count(), secs);
      if (late) FinishLate(*call);
    }));
  }
  return call;
}

void Cascade::Report(const Call& call, bool deferred, bool late, double queued_s,
                     double llm_s) const {
  if (!options_.on_call) return;
  CascadeCallReport r;
  r.targets = call.positions.size();
  r.deferred = deferred;
  r.late = late;
  for (const auto& o : call.out)
    if (!o.ok()) ++r.failed;
  r.in_flight_at_start = call.in_flight_at_start;
  for (size_t index : call.sub.targets)
    if (index < call.sub.bundle.size())
      r.max_text_chars = std::max(r.max_text_chars, Utf8Length(call.sub.bundle.at(index).text));
  r.context_chars = call.context_chars;
  r.chars = call.chars;
  r.predicted_s = call.predicted_s;
  r.queued_s = queued_s;
  r.llm_s = llm_s;
  options_.on_call(r);
}

JudgeOutput Cascade::JudgeBundle(const JudgeTask& task) {
  // How long this call may wait for the LLM: the task deadline, or max_wait.
  Deadline wait_until = task.deadline;
  if (options_.max_wait.count() > 0 && Clock::now() < task.deadline - options_.max_wait)
    wait_until = Clock::now() + options_.max_wait;
  Reap();
  const size_t n = task.targets.size();
  stats_.targets.fetch_add(n);
  JudgeOutput out = cheap_->JudgeBundle(task);
  if (out.size() != n) out.assign(n, Status(ErrorCode::kInternal, "cheap judge: wrong count"));
  for (auto& r : out)
    if (r.ok() && r.value().judge.empty()) r.value().judge = std::string(cheap_->name());

  // The unsure targets, least confident first (a failed cheap answer is the least).
  std::vector<size_t> unsure;
  std::vector<double> conf(n, 0.0);
  for (size_t k = 0; k < n; ++k) {
    conf[k] = out[k].ok() ? CascadeConfidence(out[k].value()) : -1.0;
    if (conf[k] < options_.threshold) unsure.push_back(k);
  }
  std::stable_sort(unsure.begin(), unsure.end(),
                   [&](size_t a, size_t b) { return conf[a] < conf[b]; });
  stats_.unsure.fetch_add(unsure.size());

  const bool llm_ready = llm_ != nullptr && llm_->Ready();
  // Least confident first, each target that fits: waited for when it is
  // predicted to finish within the headroom of the wait (the deadline when
  // there is no cap), else deferred when it can finish before the deadline.
  const auto now = Clock::now();
  const bool capped = wait_until < task.deadline;
  const Deadline plan_until = capped ? now + std::chrono::duration_cast<Clock::duration>(
                                                 (wait_until - now) * options_.wait_headroom)
                                     : task.deadline;
  std::vector<size_t> chars;  // each one's text, least confident first
  for (size_t pos : unsure) chars.push_back(TargetChars(task, pos));
  double waited_s = 0, sent_s = 0;
  const size_t context_chars = llm_ready && !unsure.empty() ? ContextChars(task, unsure) : 0;
  const std::vector<Plan> plan =
      llm_ready ? Reserve(chars, context_chars, plan_until, task.deadline,
                          capped && options_.defer_beyond_wait, &waited_s, &sent_s)
                : std::vector<Plan>(unsure.size(), Plan::kKept);
  std::vector<size_t> chosen, deferred;
  for (size_t i = 0; i < unsure.size(); ++i) {
    if (plan[i] == Plan::kWaited) chosen.push_back(unsure[i]);
    if (plan[i] == Plan::kDeferred) deferred.push_back(unsure[i]);
  }
  std::sort(chosen.begin(), chosen.end());  // targets stay in bundle order
  std::sort(deferred.begin(), deferred.end());

  // Every answer starts as the cheap one, with its record.
  for (size_t pos = 0; pos < n; ++pos) {
    if (!out[pos].ok()) continue;
    bool is_unsure = std::find(unsure.begin(), unsure.end(), pos) != unsure.end();
    out[pos].value().cascade =
        CheapRecord(out[pos].value(), options_,
                    is_unsure ? CascadeRecord::Outcome::kKeptTime : CascadeRecord::Outcome::kCheap);
  }
  stats_.kept_for_time.fetch_add(unsure.size() - chosen.size());
  if (!chosen.empty() || !deferred.empty()) {
    std::lock_guard lock(mu_);
    if (escalated_posts_.size() >= 4096) escalated_posts_.clear();
    escalated_posts_.insert(task.bundle.post_id);
  }
  std::shared_ptr<Call> call;
  if (!chosen.empty()) {
    stats_.escalated.fetch_add(chosen.size());
    call = Launch(task, chosen, out, /*deferred=*/false, waited_s, context_chars);
  }
  if (!deferred.empty()) {
    stats_.deferred.fetch_add(deferred.size());
    Launch(task, deferred, out, /*deferred=*/true, sent_s, context_chars);
  }
  if (!call) return out;

  bool in_time;
  {
    std::unique_lock lock(call->mu);
    in_time = call->cv.wait_until(lock, wait_until, [&] { return call->done; });
    if (!in_time) call->abandoned = true;
  }
  if (!in_time) {
    stats_.kept_for_error.fetch_add(chosen.size());
    for (size_t pos : chosen)
      if (out[pos].ok()) out[pos].value().cascade->outcome = CascadeRecord::Outcome::kKeptError;
    return out;
  }
  for (size_t i = 0; i < chosen.size(); ++i) {
    const size_t pos = chosen[i];
    if (!call->out[i].ok()) {
      stats_.kept_for_error.fetch_add(1);
      if (out[pos].ok()) out[pos].value().cascade->outcome = CascadeRecord::Outcome::kKeptError;
      continue;
    }
    Judgment j = call->out[i].value();
    if (j.judge.empty()) j.judge = std::string(llm_->name());
    FillCauseText(j, call->cheap[i]);
    j.cascade = CheapRecord(call->cheap[i], options_, CascadeRecord::Outcome::kLlm);
    if (out[pos].ok())
      (Agrees(j, out[pos].value()) ? stats_.agreed : stats_.overturned).fetch_add(1);
    stats_.llm_in_time.fetch_add(1);
    out[pos] = std::move(j);
  }
  return out;
}

}  // namespace nunchi::judges
