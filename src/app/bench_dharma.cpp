#include "app/bench_dharma.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <thread>
#include <vector>

#include "engines/llama/engine.h"
#include "llm/schema.h"

namespace nunchi {
namespace {

enum class Batch { kHealthyAlone, kLoopFree, kWithLoops };

struct BatchTimes {
  double wall = 0;          // until every request has answered
  double healthy_mean = 0;  // mean latency of the healthy requests
  int loops_cut = 0;
  uint64_t loop_holds = 0;  // decodes the suspected loops sat out
};

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// A judge request on a bundle of five comments, three of them to judge.
Result<llama::EngineRequest> HealthyRequest(const llama::LlamaEngine& e, int k) {
  static const char* texts[] = {"줄이 길어요", "입구 막혔어요", "자리 있어요", "대기 번호 받음",
                                "한산해요"};
  std::string bundle = "Spot: 성수 팝업 " + std::to_string(k) + "\n";
  for (int i = 0; i < 5; ++i) {
    bundle += "#" + std::to_string(i + 1) + " u" + std::to_string(k + i) + " 14:0" +
              std::to_string(i) + ": " + texts[(k + i) % 5] + " " + std::to_string(k * 3 + i) +
              "\n";
  }
  const std::vector<std::string> ids = {"#3", "#4", "#5"};
  auto chat = e.ApplyChatTemplate(
      {{"system", "Judge crowd reports. Answer JSON."}, {"user", bundle + "Judge: #3 #4 #5"}},
      true);
  if (!chat.ok()) return chat.status();
  llama::EngineRequest r;
  r.prompt = *chat;
  r.grammar = llm::JudgeGbnf(ids);
  r.max_tokens = static_cast<int>(llm::MaxAnswerBytes(ids)) + 8;
  r.retry_on_loop = false;
  return r;
}

// The request that loops in the batch with loops; in the loop-free batch the
// same prompt answers under the judge's grammar.
Result<llama::EngineRequest> FaultRequest(const llama::LlamaEngine& e, int k, bool loops,
                                          int loop_cap) {
  auto chat =
      e.ApplyChatTemplate({{"user", "반복 " + std::to_string(k) + " 계속 써 주세요"}}, true);
  if (!chat.ok()) return chat.status();
  llama::EngineRequest r;
  r.prompt = *chat;
  r.retry_on_loop = false;
  if (loops) {
    r.max_tokens = loop_cap;
  } else {
    const std::vector<std::string> ids = {"#1"};
    r.grammar = llm::JudgeGbnf(ids);
    r.max_tokens = static_cast<int>(llm::MaxAnswerBytes(ids)) + 8;
  }
  return r;
}

// Healthy texts depend on seed only, so the three batches of a round judge
// the same healthy texts.
Result<BatchTimes> RunBatch(llama::LlamaEngine& e, const DharmaOptions& o, int looping, Batch kind,
                            int seed) {
  std::vector<llama::EngineRequest> requests;
  const int faults = kind == Batch::kHealthyAlone ? 0 : looping;
  for (int i = 0; i < faults; ++i) {
    auto r = FaultRequest(e, 90000 + seed + i, kind == Batch::kWithLoops, o.loop_cap);
    if (!r.ok()) return r.status();
    requests.push_back(std::move(*r));
  }
  for (int i = 0; i < o.batch - looping; ++i) {
    auto r = HealthyRequest(e, seed + i);
    if (!r.ok()) return r.status();
    requests.push_back(std::move(*r));
  }
  const auto before = e.Counters();
  const auto t0 = std::chrono::steady_clock::now();
  auto futures = e.SubmitAll(std::move(requests));
  std::vector<double> done(futures.size(), -1);
  for (size_t finished = 0; finished < futures.size();) {
    for (size_t i = 0; i < futures.size(); ++i) {
      if (done[i] >= 0 ||
          futures[i].wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
        continue;
      }
      done[i] = Seconds(std::chrono::steady_clock::now() - t0);
      auto r = futures[i].get();
      // A looping request cut by the guard answers kDegenerated: expected.
      if (!r.ok() && r.status().code() != ErrorCode::kDegenerated) return r.status();
      ++finished;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  BatchTimes t;
  for (double d : done) t.wall = std::max(t.wall, d);
  const size_t healthy = done.size() - static_cast<size_t>(faults);
  for (size_t i = static_cast<size_t>(faults); i < done.size(); ++i) {
    t.healthy_mean += done[i] / static_cast<double>(healthy);
  }
  const auto after = e.Counters();
  t.loops_cut = static_cast<int>(after.loops_stopped - before.loops_stopped);
  t.loop_holds = after.loop_holds - before.loop_holds;
  return t;
}

struct Setting {
  const char* name;
  bool cut;
  bool hold;
};

}  // namespace

int RunDharma(const DharmaOptions& o) {
  const int looping = std::clamp(static_cast<int>(o.batch * o.loop_share + 0.5), 1, o.batch - 1);
  for (const Setting s : {Setting{"off", false, false}, Setting{"cut", true, false},
                          Setting{"cut+hold", true, true}}) {
    llama::EngineOptions eo;
    eo.model_path = o.model;
    eo.threads = o.threads;
    eo.max_active = o.batch;
    eo.max_cached = 0;
    eo.cache_budget_bytes = 0;  // no prefix reuse: every batch computes the same work
    eo.n_ctx = (o.loop_cap + 256) * (o.batch + 1);
    if (!s.cut) {
      eo.guard.min_span = 1u << 30;
      eo.guard.short_min_span = 1u << 30;
    }
    eo.loop_hold = {static_cast<size_t>(std::max(1, o.hold_span)), s.hold ? o.hold_steps : 0};
    auto engine = llama::LlamaEngine::Create(eo);
    if (!engine.ok()) {
      std::fprintf(stderr, "bench-engine: %s\n", engine.status().ToString().c_str());
      return 1;
    }
    auto& e = **engine;
    if (auto warm = RunBatch(e, o, looping, Batch::kLoopFree, 1); !warm.ok()) {
      std::fprintf(stderr, "bench-engine: dharma warm-up: %s\n", warm.status().ToString().c_str());
      return 1;
    }
    double sum_wall = 0, sum_healthy = 0, sum_alone = 0;
    for (int round = 1; round <= o.rounds; ++round) {
      const int seed = 1000 * round;
      auto alone = RunBatch(e, o, looping, Batch::kHealthyAlone, seed);
      auto loop_free = RunBatch(e, o, looping, Batch::kLoopFree, seed);
      auto loops = RunBatch(e, o, looping, Batch::kWithLoops, seed);
      for (const auto* r : {&alone, &loop_free, &loops}) {
        if (!r->ok()) {
          std::fprintf(stderr, "bench-engine: dharma batch: %s\n", r->status().ToString().c_str());
          return 1;
        }
      }
      const double wall_ratio = loops->wall / loop_free->wall;
      const double healthy_ratio = loops->healthy_mean / loop_free->healthy_mean;
      const double vs_alone = loops->healthy_mean / alone->healthy_mean;
      sum_wall += wall_ratio, sum_healthy += healthy_ratio, sum_alone += vs_alone;
      std::printf(
          "{\"engine\":\"nunchi\",\"part\":\"dharma\",\"guard\":\"%s\",\"round\":%d,"
          "\"model\":\"%s\",\"threads\":%d,\"batch\":%d,\"looping\":%d,\"loop_token_cap\":%d,"
          "\"hold_span\":%d,\"hold_steps\":%d,\"loops_cut\":%d,\"loop_holds\":%llu,"
          "\"alone_wall_s\":%.3f,\"loop_free_wall_s\":%.3f,\"with_loops_wall_s\":%.3f,"
          "\"wall_ratio\":%.3f,\"alone_healthy_mean_s\":%.3f,\"loop_free_healthy_mean_s\":%.3f,"
          "\"with_loops_healthy_mean_s\":%.3f,\"healthy_ratio\":%.3f,"
          "\"healthy_ratio_vs_alone\":%.3f}\n",
          s.name, round, e.model_identity().c_str(), o.threads, o.batch, looping, o.loop_cap,
          o.hold_span, s.hold ? o.hold_steps : 0, loops->loops_cut,
          static_cast<unsigned long long>(loops->loop_holds), alone->wall, loop_free->wall,
          loops->wall, wall_ratio, alone->healthy_mean, loop_free->healthy_mean,
          loops->healthy_mean, healthy_ratio, vs_alone);
      std::fflush(stdout);
    }
    const double n = std::max(1, o.rounds);
    std::printf(
        "{\"engine\":\"nunchi\",\"part\":\"dharma-summary\",\"guard\":\"%s\",\"rounds\":%d,"
        "\"mean_wall_ratio\":%.3f,\"mean_healthy_ratio\":%.3f,"
        "\"mean_healthy_ratio_vs_alone\":%.3f}\n",
        s.name, o.rounds, sum_wall / n, sum_healthy / n, sum_alone / n);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace nunchi
