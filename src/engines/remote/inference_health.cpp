#include "engines/remote/inference_health.h"

#include <nlohmann/json.hpp>

namespace nunchi::remote {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string ProbeBody(const RemoteOptions& options) {
  nlohmann::json body = {
      {"model", options.model},
      {"messages", {{{"role", "user"}, {"content", "Answer with one word: ready?"}}}},
      {"stream", false},
      {"temperature", 0.0}};
  if (options.kind == BackendKind::kOpenAi)
    body["max_completion_tokens"] = 1;
  else
    body["max_tokens"] = 1;
  return body.dump();
}

Status ProbeOnce(const RemoteOptions& options, const std::optional<std::string>& api_key,
                 HttpClient& http, std::chrono::milliseconds timeout) {
  std::string base = options.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  HttpRequest req;
  req.url = base + "/chat/completions";
  req.headers = {"Content-Type: application/json"};
  if (api_key) req.headers.push_back("Authorization: Bearer " + *api_key);
  req.body = ProbeBody(options);
  req.deadline = Clock::now() + timeout;
  req.connect_timeout = std::min(timeout, options.connect_timeout);
  HttpResponse res = http.Post(req);
  if (res.timed_out)
    return Status(ErrorCode::kDeadlineExceeded, options.name + ": probe not answered within " +
                                                    std::to_string(timeout.count()) + " ms");
  if (!res.transport_ok()) return Status(ErrorCode::kUnavailable, options.name + ": " + res.error);
  if (res.status < 200 || res.status > 299)
    return Status(ErrorCode::kUnavailable,
                  options.name + ": probe answered HTTP " + std::to_string(res.status));
  auto doc = nlohmann::json::parse(res.body, nullptr, false);
  if (!doc.is_object() || !doc.contains("choices") || !doc["choices"].is_array() ||
      doc["choices"].empty())
    return Status(ErrorCode::kUnavailable, options.name + ": probe answer is not a completion");
  return Status::Ok();
}

InferenceHealth::InferenceHealth(std::vector<RemoteOptions> servers, HealthOptions options)
    : options_(options), http_(std::make_shared<HttpClient>()) {
  for (auto& o : servers) {
    auto s = std::make_unique<State>();
    auto key = LoadApiKey(o);
    if (key.ok()) s->key = *key;
    s->options = std::move(o);
    state_.push_back(std::move(s));
  }
  if (options_.interval.count() <= 0) return;
  for (auto& s : state_) s->thread = std::thread([this, p = s.get()] { Loop(p); });
}

InferenceHealth::~InferenceHealth() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& s : state_)
    if (s->thread.joinable()) s->thread.join();
}

void InferenceHealth::RecordSuccess(size_t i) {
  State& s = *state_[i];
  s.last_success_ns.store(NowNs(), std::memory_order_relaxed);
  s.ready.store(true, std::memory_order_relaxed);
}

void InferenceHealth::Loop(State* s) {
  const int64_t interval_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(options_.interval).count();
  for (;;) {
    const int64_t last = s->last_success_ns.load(std::memory_order_relaxed);
    if (last == 0 || NowNs() - last >= interval_ns) {
      ++s->stats.probes;
      Status st = ProbeOnce(s->options, s->key, *http_, options_.timeout);
      if (st.ok()) {
        s->failures = 0;
        s->last_success_ns.store(NowNs(), std::memory_order_relaxed);
        s->ready.store(true, std::memory_order_relaxed);
      } else {
        ++s->stats.probe_failures;
        // A real success that landed during the probe wins.
        if (++s->failures >= options_.failures_to_down &&
            s->last_success_ns.load(std::memory_order_relaxed) == last &&
            s->ready.exchange(false, std::memory_order_relaxed))
          ++s->stats.marked_down;
      }
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, options_.interval, [this] { return stop_; })) return;
  }
}

}  // namespace nunchi::remote
