#include "bench/runner.h"

#include <httplib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "bench/backend.h"
#include "bench/server.h"

namespace nunchi::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

struct Answer {
  int status = 0;
  nlohmann::json body;
  std::string error;
};

// Talks to the system under test: nunchi over HTTP, or the naive client.
class Target {
 public:
  Target(const RunOptions& o, std::string url) : o_(o), url_(std::move(url)) {
    if (o_.naive) naive_ = std::make_unique<NaiveClient>(o_.naive_options);
  }
  void SetUrl(std::string url) { url_ = std::move(url); }
  Answer Post(const std::string& body, double timeout_s) {
    Answer a;
    if (naive_) {
      a.status = 200;
      a.body = naive_->Analyze(nlohmann::json::parse(body), &naive_counters_);
      return a;
    }
    httplib::Client c(url_);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(static_cast<time_t>(timeout_s), 0);
    c.set_write_timeout(30, 0);
    auto r = c.Post("/v1/congestion-analyses", body, "application/json");
    if (!r) {
      a.error = "HTTP error: " + httplib::to_string(r.error());
      return a;
    }
    a.status = r->status;
    a.body = nlohmann::json::parse(r->body, nullptr, false);
    if (a.status != 200 && a.status != 409)
      a.error = "HTTP " + std::to_string(a.status) + ": " + r->body.substr(0, 300);
    return a;
  }
  Series Scrape() {
    if (naive_) return naive_counters_;
    httplib::Client c(url_);
    c.set_connection_timeout(2, 0);
    c.set_read_timeout(5, 0);
    auto r = c.Get("/metrics");
    Series s = r && r->status == 200 ? ParseMetrics(r->body) : Series{};
    for (size_t i = 0; i < o_.upstream_urls.size(); ++i) {
      // "llamacpp:prompt_tokens_total 12" -> "nunchi_bench_llama_server_prompt_tokens_total".
      httplib::Client u(o_.upstream_urls[i]);
      u.set_connection_timeout(2, 0);
      u.set_read_timeout(5, 0);
      if (auto m = u.Get("/metrics"); m && m->status == 200) {
        std::string text = m->body;
        for (size_t at = 0; (at = text.find("llamacpp:", at)) != std::string::npos;)
          text.replace(at, 9, "nunchi_bench_llama_server_");
        const std::string label = "server=\"" + std::to_string(i) + "\"";
        for (const auto& [key, v] : ParseMetrics(text)) {
          if (key.rfind("nunchi_bench_llama_server_", 0) != 0) continue;
          std::string k = key;
          if (o_.upstream_urls.size() > 1) {
            const size_t brace = k.find('{');
            if (brace == std::string::npos)
              k += "{" + label + "}";
            else
              k.insert(brace + 1, label + ",");
          }
          s[k] = v;
        }
      }
    }
    return s;
  }

 private:
  const RunOptions& o_;
  std::string url_;
  std::unique_ptr<NaiveClient> naive_;
  Series naive_counters_;
};

void Progress(const RunOptions& o, int done, int total, const std::vector<CycleResult>& cycles) {
  if (!o.progress) return;
  const bool tty = isatty(2);
  if (!tty && done != total && done % std::max(1, total / 10) != 0) return;
  const int width = 30;
  int filled = total ? done * width / total : width;
  std::vector<double> lat;
  int failed = 0;
  for (const auto& c : cycles) lat.push_back(c.latency_s), failed += c.spots_failed;
  std::fprintf(stderr, "%s[%-*s] %d/%d cycles  p50 %.3fs  p95 %.3fs  last %.3fs  FAILED %d%s",
               tty ? "\r" : "", width, std::string(static_cast<size_t>(filled), '#').c_str(), done,
               total, Percentile(lat, 50), Percentile(lat, 95), lat.empty() ? 0.0 : lat.back(),
               failed, tty ? "   " : "\n");
  if (tty && done == total) std::fprintf(stderr, "\n");
}

int BundleSignals(const nlohmann::json& req) {
  int n = 0;
  for (const auto& s : req["spots"])
    for (const auto& b : s["bundles"]) n += 1 + static_cast<int>(b["comments"].size());
  return n;
}

}  // namespace

bool RunBench(const RunOptions& o, Conditions* cond, std::vector<CycleResult>* cycles,
              std::string* error, Series* run_deltas) {
  const LoadSpec& load = o.load;
  std::unique_ptr<ManagedServer> server;
  std::string url = o.target;
  if (!o.naive && url.empty()) {
    server = std::make_unique<ManagedServer>(o.binary, o.server_args, o.work_dir);
    if (!server->Start(error)) return false;
    url = server->url();
    cond->server_banner = server->banner();
    // "listening on URL (judge CHAIN, epoch ...)": the chain says which engine answers.
    if (auto at = cond->server_banner.find("(judge "); at != std::string::npos)
      cond->judge_chain =
          cond->server_banner.substr(at + 7, cond->server_banner.find(',', at) - at - 7);
    for (const auto& a : o.server_args)
      cond->server_args += (cond->server_args.empty() ? "" : " ") + a;
  }
  cond->target = o.naive ? o.naive_options.url : url;
  cond->client = o.naive ? "naive-llama-server (one call per new signal)" : "nunchi";
  Target target(o, url);
  // Simulated time starts at a fixed moment so runs are reproducible.
  Backend backend(load, o.id_prefix, 1'795'944'000'000LL + load.seed * 86'400'000LL);
  backend.History();
  bool cold_next = !load.warm_store;
  if (load.warm_store && o.naive) {
    // The naive client keeps nothing: the history counts as judged before.
    nlohmann::json all_ok = {{"spots", nlohmann::json::array()}};
    for (const auto& s : backend.spots())
      all_ok["spots"].push_back({{"spot_id", s.id}, {"analysis_status", "OK"}});
    backend.Acknowledge(all_ok);
  } else if (load.warm_store) {
    // Warm the store: the history is judged once, unmeasured.
    Answer a = target.Post(backend.Request().dump(), 1800);
    if (a.status == 409) {
      backend.Reset();
      a = target.Post(backend.Request().dump(), 1800);
    }
    if (a.status != 200) {
      *error = "warm-up failed: " + (a.error.empty() ? std::to_string(a.status) : a.error);
      return false;
    }
    backend.Acknowledge(a.body);
  }
  if (load.restart_every > 0 && !server && !o.naive)
    std::fprintf(stderr, "nunchi bench: restart_every ignored: the target is not managed\n");

  // A restart zeroes the server's counters: the run figures then start again there.
  Series run_start = target.Scrape();
  Series run_sum;
  auto t0 = Clock::now();
  const auto interval =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(load.interval_s));
  int next = 0;
  Progress(o, 0, load.cycles, *cycles);
  while (next < load.cycles) {
    auto nominal = t0 + next * interval;
    std::this_thread::sleep_until(nominal);
    CycleResult r;
    r.index = next;
    bool restart = false;
    do {
      backend.Tick();
      if (server && load.restart_every > 0 && next > 0 && next % load.restart_every == 0)
        restart = true;
      ++next;
    } while (next < load.cycles && Clock::now() >= t0 + next * interval);
    r.ticks = next - r.index;
    if (restart) {
      for (const auto& [k, v] : CounterDeltas(run_start, target.Scrape())) run_sum[k] += v;
      run_start.clear();
      auto before = Clock::now();
      if (!server->Start(error)) return false;
      target.SetUrl(server->url());
      t0 += Clock::now() - before;  // the restart itself is not the server's lag
      cold_next = true;
    }
    r.cold = cold_next;
    cold_next = false;
    if (o.before_cycle) o.before_cycle(r.index);
    Series before = target.Scrape();
    nlohmann::json req = backend.Request();
    std::string body = req.dump();
    auto sent = Clock::now();
    r.start_lag_s = Seconds(sent - (t0 + r.index * interval));
    Answer a = target.Post(body, o.timeout_s);
    if (a.status == 409) {
      r.reset = true;
      r.cold = true;
      backend.Reset();
      req = backend.Request();
      body = req.dump();
      double left = o.timeout_s - Seconds(Clock::now() - sent);
      a = left > 0.5 ? target.Post(body, left) : Answer{0, {}, "no time left after 409"};
    }
    r.latency_s = Seconds(Clock::now() - sent);
    Series after = target.Scrape();
    r.http_status = a.status;
    r.error = a.error;
    r.new_signals = static_cast<int>(req["new_signals"].size());
    r.bundle_signals = BundleSignals(req);
    r.request_bytes = static_cast<long long>(body.size());
    if (a.status == 200 && a.body.is_object()) {
      auto [ok, failed] = backend.Acknowledge(a.body);
      r.spots_ok = ok;
      r.spots_failed = failed;
    } else {
      r.spots_failed = static_cast<int>(req["spots"].size());
      if (r.error.empty()) r.error = "HTTP " + std::to_string(a.status);
    }
    r.pending_after = static_cast<int>(backend.pending());
    r.queue_before = SumOf(before, "nunchi_judge_queue_depth");
    r.queue_after = SumOf(after, "nunchi_judge_queue_depth");
    r.deltas = CounterDeltas(before, after);
    r.judge_calls = SumOf(r.deltas, "nunchi_judge_calls_total");
    // Censored: the naive client's deadline cut calls, or nunchi never answered.
    r.cut = o.naive ? SumOf(r.deltas, "nunchi_bench_naive_deadline_cut_calls_total") > 0
                    : a.status == 0 && r.latency_s >= std::min(o.timeout_s, kDeadlineS) - 0.1;
    r.tokens = ClassifyTokens(r.deltas);
    r.cascade = CascadeFromDeltas(r.deltas);
    if (o.naive)
      r.judged = SumOf(r.deltas, "nunchi_bench_naive_calls_total");
    else if (auto it = r.deltas.find("nunchi_signals_total{disposition=\"judged\"}");
             it != r.deltas.end())
      r.judged = it->second;
    else if (!after.empty())
      r.judged = 0;
    if (auto it = r.deltas.find("nunchi_signals_total{disposition=\"reused\"}");
        it != r.deltas.end())
      r.reused = it->second;
    else if (!after.empty())
      r.reused = 0;
    cycles->push_back(std::move(r));
    Progress(o, next, load.cycles, *cycles);
  }
  if (run_deltas) {
    for (const auto& [k, v] : CounterDeltas(run_start, target.Scrape())) run_sum[k] += v;
    *run_deltas = std::move(run_sum);
  }
  if (server) server->Stop();
  return true;
}

}  // namespace nunchi::bench
