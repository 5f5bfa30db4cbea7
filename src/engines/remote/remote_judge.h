// RemoteJudge: a Judge backed by one OpenAI-compatible model server (judge
// name "remote:<name>"). One JudgeBundle call is one chat completion for all
// of the task's targets: the prompt of llm/prompt.h, structured output per
// llm/schema.h, the answer checked by llm/output.h.
//
// Per call: a deadline of min(task.deadline - deadline_margin, now + timeout);
// attempts only while it has not passed; a retryable failure (connection
// error, 429, 5xx, a 2xx that is not a completion) is retried after a
// jittered exponential backoff, or after Retry-After on 429/503 when that
// fits before the deadline. A looping generation (cut by the guard while
// streaming) or an answer at the token cap or one failing every target is
// retried once, differently (retry_temperature, another seed); after that
// its targets fail with kDegenerated / kInvalidOutput and the router's
// fallback answers. A circuit breaker (failing fast with kUnavailable while
// open) and a concurrency limit guard the backend.
//
// Thread-safety: JudgeBundle, Ready and the stats may be used from many
// threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "engines/remote/chat_client.h"
#include "engines/remote/circuit_breaker.h"
#include "judges/judge.h"
#include "llm/output.h"
#include "llm/prompt.h"

namespace nunchi::remote {

// Counters of one remote judge; read them for /metrics. Lock-free.
struct RemoteStats {
  std::atomic<uint64_t> calls{0};               // JudgeBundle calls
  std::atomic<uint64_t> attempts{0};            // HTTP exchanges started
  std::atomic<uint64_t> retries{0};             // attempts after the first
  std::atomic<uint64_t> answered{0};            // calls with at least one target judged
  std::atomic<uint64_t> http_errors{0};         // non-2xx answers
  std::atomic<uint64_t> rate_limited{0};        // 429 / 503 answers
  std::atomic<uint64_t> transport_errors{0};    // no HTTP answer at all
  std::atomic<uint64_t> timeouts{0};            // the call deadline passed
  std::atomic<uint64_t> bad_responses{0};       // 2xx that is not a chat completion
  std::atomic<uint64_t> degenerations{0};       // streams cut by the guard
  std::atomic<uint64_t> length_stops{0};        // finish_reason "length"
  std::atomic<uint64_t> cap_degenerations{0};   // ... with a repeating tail
  std::atomic<uint64_t> invalid_answers{0};     // answers failing every target
  std::atomic<uint64_t> breaker_rejections{0};  // calls refused while the breaker was open
  std::atomic<uint64_t> slot_timeouts{0};       // deadline passed waiting for a slot
};

class RemoteJudge : public Judge {
 public:
  // Fails with kInvalidArgument on a bad option (unknown prompt version, no
  // model, API key source configured but missing). http may be shared by
  // several judges; null makes one.
  static Result<std::unique_ptr<RemoteJudge>> Create(RemoteOptions options,
                                                     std::shared_ptr<HttpClient> http = nullptr);

  std::string_view name() const override { return name_; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  // False while the circuit breaker refuses calls.
  bool Ready() const override { return breaker_.WouldAllow(); }

  // Calls inside JudgeBundle right now (waiting for a slot included).
  int busy() const { return busy_.load(std::memory_order_relaxed); }
  const RemoteStats& stats() const { return stats_; }
  const llm::OutputCounters& output_counters() const { return output_counters_; }
  const CircuitBreaker& breaker() const { return breaker_; }
  const RemoteOptions& options() const { return client_.options(); }

 private:
  RemoteJudge(RemoteOptions options, llm::PromptTemplate prompt, std::optional<std::string> key,
              std::shared_ptr<HttpClient> http);
  std::chrono::milliseconds Backoff(int retry) const;

  const std::string name_;
  const llm::PromptTemplate prompt_;
  const llm::JudgmentStamp stamp_;
  ChatClient client_;
  CircuitBreaker breaker_;
  ConcurrencyLimiter limiter_;
  std::atomic<int> busy_{0};
  RemoteStats stats_;
  llm::OutputCounters output_counters_;
};

}  // namespace nunchi::remote
