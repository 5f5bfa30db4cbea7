#include "engines/remote/remote_judge.h"

#include <algorithm>
#include <random>
#include <thread>

namespace nunchi::remote {
namespace {

using Outcome = ChatAttempt::Outcome;
using std::chrono::milliseconds;

bool Retryable(long status) {
  return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 ||
         status == 504;
}

double Jitter() {
  thread_local std::mt19937 rng(std::random_device{}());
  return std::uniform_real_distribution<double>(0.5, 1.5)(rng);
}

milliseconds Remaining(Deadline deadline) {
  return std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
}

// Counts a call as busy for the least-busy pool policy.
class BusyScope {
 public:
  explicit BusyScope(std::atomic<int>& n) : n_(n) { n_.fetch_add(1, std::memory_order_relaxed); }
  ~BusyScope() { n_.fetch_sub(1, std::memory_order_relaxed); }

 private:
  std::atomic<int>& n_;
};

}  // namespace

Result<std::unique_ptr<RemoteJudge>> RemoteJudge::Create(RemoteOptions options,
                                                         std::shared_ptr<HttpClient> http) {
  auto prompt = llm::FindPrompt(options.prompt_version);
  if (!prompt) {
    return Status(ErrorCode::kInvalidArgument, "unknown prompt version " + options.prompt_version);
  }
  if (options.model.empty()) return Status(ErrorCode::kInvalidArgument, "remote: no model name");
  if (options.base_url.empty()) return Status(ErrorCode::kInvalidArgument, "remote: no base URL");
  auto key = LoadApiKey(options);
  if (!key.ok()) return key.status();
  if (!http) http = std::make_shared<HttpClient>();
  return std::unique_ptr<RemoteJudge>(
      new RemoteJudge(std::move(options), *prompt, *key, std::move(http)));
}

RemoteJudge::RemoteJudge(RemoteOptions options, llm::PromptTemplate prompt,
                         std::optional<std::string> key, std::shared_ptr<HttpClient> http)
    : name_("remote:" + options.name),
      prompt_(prompt),
      stamp_{name_, options.model, std::string(prompt.version)},
      client_(options, std::move(key), std::move(http)),
      breaker_(CircuitBreaker::Options{options.breaker_failure_threshold, options.breaker_open_for,
                                       options.breaker_half_open_probes}),
      limiter_(options.max_concurrency) {}

milliseconds RemoteJudge::Backoff(int retry) const {
  const auto& o = client_.options();
  double base = static_cast<double>(o.backoff_base.count()) * (1 << std::min(retry - 1, 16));
  double capped = std::min(base, static_cast<double>(o.backoff_max.count()));
  return milliseconds(static_cast<int64_t>(capped * Jitter()));
}

JudgeOutput RemoteJudge::JudgeBundle(const JudgeTask& task) {
  BusyScope busy(busy_);
  stats_.calls.fetch_add(1, std::memory_order_relaxed);
  const size_t n = task.targets.size();
  auto fail_all = [n](Status s) { return JudgeOutput(n, Result<Judgment>(std::move(s))); };

  const RemoteOptions& o = client_.options();
  auto prompt = prompt_.version == llm::kEscalationPromptVersion
                    ? llm::RenderEscalationPrompt(task, prompt_, o.escalation)
                    : llm::RenderJudgePrompt(task, prompt_);
  if (!prompt.ok()) return fail_all(prompt.status());
  Deadline deadline = Clock::now() + o.timeout;
  if (task.deadline != Deadline::max())
    deadline = std::min(deadline, task.deadline - o.deadline_margin);

  ChatRequest request{prompt->system,
                      prompt->user(),
                      prompt->target_ids,
                      prompt->with_text,
                      o.max_tokens_base + o.max_tokens_per_target * static_cast<int>(n),
                      o.temperature,
                      o.seed,
                      task.traceparent};
  Status last(ErrorCode::kDeadlineExceeded, "no time left for a remote call");
  bool retried_differently = false;
  for (int attempt = 0; attempt <= o.retries; ++attempt) {
    if (Clock::now() >= deadline) {
      if (attempt > 0) stats_.timeouts.fetch_add(1, std::memory_order_relaxed);
      last = Status(ErrorCode::kDeadlineExceeded,
                    name_ + ": deadline passed; last: " + last.message());
      break;
    }
    if (!breaker_.Allow()) {
      stats_.breaker_rejections.fetch_add(1, std::memory_order_relaxed);
      last = Status(ErrorCode::kUnavailable, name_ + ": circuit breaker open");
      break;
    }
    ChatAttempt a;
    {
      ConcurrencyLimiter::Slot slot(limiter_, deadline);
      if (!slot.acquired()) {
        breaker_.RecordNeutral();
        stats_.slot_timeouts.fetch_add(1, std::memory_order_relaxed);
        last = Status(ErrorCode::kDeadlineExceeded, name_ + ": no free slot before the deadline");
        break;
      }
      stats_.attempts.fetch_add(1, std::memory_order_relaxed);
      if (attempt > 0) stats_.retries.fetch_add(1, std::memory_order_relaxed);
      a = client_.Complete(request, deadline);
    }

    // What the attempt says about the answer, and whether to wait before the next.
    std::optional<milliseconds> wait;
    bool retry_differently = false;
    switch (a.outcome) {
      case Outcome::kOk: {
        breaker_.RecordSuccess();
        JudgeOutput out =
            llm::ParseJudgeOutput(a.content, prompt->target_ids, stamp_, &output_counters_,
                                  {.with_text = prompt->with_text});
        bool any_ok = std::any_of(out.begin(), out.end(), [](const auto& r) { return r.ok(); });
        if (any_ok) {
          stats_.answered.fetch_add(1, std::memory_order_relaxed);
          return out;
        }
        stats_.invalid_answers.fetch_add(1, std::memory_order_relaxed);
        last = out.front().status();
        retry_differently = true;
        break;
      }
      case Outcome::kDegenerated:
        breaker_.RecordSuccess();  // the server works; the model looped
        stats_.degenerations.fetch_add(1, std::memory_order_relaxed);
        last = Status(ErrorCode::kDegenerated, name_ + ": " + a.detail);
        retry_differently = true;
        break;
      case Outcome::kLength:
        breaker_.RecordSuccess();
        stats_.length_stops.fetch_add(1, std::memory_order_relaxed);
        if (a.loop) {
          stats_.cap_degenerations.fetch_add(1, std::memory_order_relaxed);
          last = Status(ErrorCode::kDegenerated, name_ + ": " + a.detail);
        } else {
          last = Status(ErrorCode::kInvalidOutput, name_ + ": " + a.detail);
        }
        retry_differently = true;
        break;
      case Outcome::kBadResponse:
        breaker_.RecordFailure();
        stats_.bad_responses.fetch_add(1, std::memory_order_relaxed);
        last = Status(ErrorCode::kInvalidOutput, name_ + ": " + a.detail);
        wait = Backoff(attempt + 1);
        break;
      case Outcome::kHttpError:
        stats_.http_errors.fetch_add(1, std::memory_order_relaxed);
        if (a.http_status >= 500) {
          breaker_.RecordFailure();
        } else {
          breaker_.RecordNeutral();
        }
        last = Status(ErrorCode::kUnavailable, name_ + ": " + a.detail);
        if (!Retryable(a.http_status)) return fail_all(last);
        if (a.http_status == 429 || a.http_status == 503) {
          stats_.rate_limited.fetch_add(1, std::memory_order_relaxed);
          if (a.retry_after) {
            if (*a.retry_after >= Remaining(deadline)) {
              last = Status(ErrorCode::kUnavailable,
                            name_ + ": Retry-After goes past the deadline; " + a.detail);
              return fail_all(last);
            }
            wait = *a.retry_after;
          }
        }
        if (!wait) wait = Backoff(attempt + 1);
        break;
      case Outcome::kTransport:
        breaker_.RecordFailure();
        stats_.transport_errors.fetch_add(1, std::memory_order_relaxed);
        last = Status(ErrorCode::kUnavailable, name_ + ": " + a.detail);
        wait = Backoff(attempt + 1);
        break;
      case Outcome::kTimeout:
        breaker_.RecordFailure();
        stats_.timeouts.fetch_add(1, std::memory_order_relaxed);
        return fail_all(Status(ErrorCode::kDeadlineExceeded, name_ + ": " + a.detail));
    }
    if (retry_differently) {
      if (retried_differently) break;  // once, then the fallback judge answers
      retried_differently = true;
      request.temperature = o.retry_temperature;
      request.seed = o.seed + 1 + attempt;
    }
    if (wait) {
      if (*wait >= Remaining(deadline)) break;  // no time to wait and try again
      std::this_thread::sleep_for(*wait);
    }
  }
  return fail_all(last);
}

}  // namespace nunchi::remote
