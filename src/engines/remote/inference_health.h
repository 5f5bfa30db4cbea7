// InferenceHealth: health by inference for the model servers of a remote
// pool. A server is ready when a one-token chat completion answers (2xx with
// a "choices" array) within `timeout`; its /health endpoint is not asked,
// because llama-server's /health has been seen to say ok while its slots
// hang. One background thread per server probes every `interval`; a probe is
// skipped while a real call to that server succeeded within the last
// interval (RecordSuccess), so a busy server is not loaded further.
// `failures_to_down` probes failing in a row mark a server unready; one
// answered probe (or real success) marks it ready again. Servers start
// ready (optimistic) and are probed at once.
//
// Thread-safety: ready(), RecordSuccess(), stats() from any thread; the
// destructor stops and joins the probe threads (at most one probe timeout).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "domain/status.h"
#include "engines/remote/http_client.h"
#include "engines/remote/remote_options.h"

namespace nunchi::remote {

struct HealthOptions {
  // Time between probes of one server; 0 turns probing off (always ready).
  std::chrono::milliseconds interval{5'000};
  // A probe that has not answered by then fails.
  std::chrono::milliseconds timeout{5'000};
  // Consecutive failed probes that mark a server unready.
  int failures_to_down = 2;
};

// The request body of a probe: one user message, one output token, no
// stream, dialect per options.kind (max_completion_tokens for OpenAI).
std::string ProbeBody(const RemoteOptions& options);

// One probe, synchronously: OK when a completion answered in time, else
// kUnavailable / kDeadlineExceeded with the reason.
Status ProbeOnce(const RemoteOptions& options, const std::optional<std::string>& api_key,
                 HttpClient& http, std::chrono::milliseconds timeout);

class InferenceHealth {
 public:
  struct Stats {
    std::atomic<uint64_t> probes{0};
    std::atomic<uint64_t> probe_failures{0};
    std::atomic<uint64_t> marked_down{0};  // ready -> unready transitions
  };

  InferenceHealth(std::vector<RemoteOptions> servers, HealthOptions options);
  ~InferenceHealth();
  InferenceHealth(const InferenceHealth&) = delete;
  InferenceHealth& operator=(const InferenceHealth&) = delete;

  bool ready(size_t i) const { return state_[i]->ready.load(std::memory_order_relaxed); }
  // A real call to server i answered: counts as a passed probe.
  void RecordSuccess(size_t i);
  const Stats& stats(size_t i) const { return state_[i]->stats; }
  size_t size() const { return state_.size(); }

 private:
  struct State {
    RemoteOptions options;
    std::optional<std::string> key;
    std::atomic<bool> ready{true};
    std::atomic<int64_t> last_success_ns{0};  // steady_clock, 0: never
    int failures = 0;                         // probe thread only
    Stats stats;
    std::thread thread;
  };
  void Loop(State* s);

  const HealthOptions options_;
  std::shared_ptr<HttpClient> http_;
  std::vector<std::unique_ptr<State>> state_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
};

}  // namespace nunchi::remote
