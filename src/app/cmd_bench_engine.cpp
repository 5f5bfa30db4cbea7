#include "app/cmd_bench_engine.h"

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/bench_dharma.h"
#include "domain/time.h"
#include "engines/llama/engine.h"
#include "engines/llama/llama_judge.h"
#include "llm/schema.h"

namespace nunchi {
namespace {

struct BenchOptions {
  std::string model;
  int threads = 2;
  int prompt_tokens = 256;
  int gen_tokens = 32;
  int parallel = 4;
  int repetitions = 3;
  int ctx_size = 2048;  // as llama-batched-bench -c 2048; raised when the run needs more
  int grow_cycles = 12;
  std::string parts = "throughput,grammar,growing,dharma";
  DharmaOptions dharma;
};

// A prompt of about n tokens that shares nothing with any other (seeded by k).
std::string Prompt(const llama::LlamaEngine& e, int n, int k) {
  std::string text = "<|im_start|>user\n" + std::to_string(k) + " ";
  static const char* words[] = {"강남역", "사람이", "많아요", "줄이",  "길어요", "지금",
                                "대기",   "30분",   "팝업",   "hello", "crowd",  "queue"};
  for (int i = 0; e.CountTokens(text) < n; ++i) text += std::string(words[(i * 7 + k) % 12]) + " ";
  return text;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

int RunThroughput(const BenchOptions& o) {
  llama::EngineOptions eo;
  eo.model_path = o.model;
  eo.threads = o.threads;
  eo.max_active = o.parallel;
  eo.max_cached = 2;
  eo.cache_budget_bytes = 0;  // no prefix reuse: every prompt is computed
  eo.n_ctx = std::max(o.ctx_size, (o.prompt_tokens + o.gen_tokens + 16) * (o.parallel + 1));
  eo.n_batch = std::max(512, o.prompt_tokens);
  eo.guard.min_span = 1u << 30;  // random weights loop: measure, do not cut
  eo.guard.short_min_span = 1u << 30;
  auto engine = llama::LlamaEngine::Create(eo);
  if (!engine.ok()) {
    std::fprintf(stderr, "bench-engine: %s\n", engine.status().ToString().c_str());
    return 1;
  }
  auto& e = **engine;
  int seed = 0;
  auto run = [&](int parallel, int gen) {
    std::vector<llama::EngineRequest> requests;
    for (int i = 0; i < parallel; ++i) {
      llama::EngineRequest req;
      req.prompt = Prompt(e, o.prompt_tokens, ++seed);
      req.max_tokens = gen;
      req.retry_on_loop = false;
      requests.push_back(std::move(req));
    }
    // All at once, as llama-batched-bench does: they prefill and decode in lockstep.
    const auto t0 = std::chrono::steady_clock::now();
    auto futures = e.SubmitAll(std::move(requests));
    for (auto& f : futures) {
      if (!f.get().ok()) return -1.0;
    }
    return Seconds(std::chrono::steady_clock::now() - t0);
  };
  run(1, 2);  // warm-up
  for (int parallel : {1, o.parallel}) {
    double best_prefill = 1e9, best_total = 1e9;
    for (int r = 0; r < o.repetitions; ++r) {
      best_prefill = std::min(best_prefill, run(parallel, 1));
      best_total = std::min(best_total, run(parallel, o.gen_tokens + 1));
    }
    if (best_prefill < 0 || best_total < 0) {
      std::fprintf(stderr, "bench-engine: a request failed\n");
      return 1;
    }
    const double pp = parallel * o.prompt_tokens / best_prefill;
    const double tg = parallel * o.gen_tokens / std::max(1e-9, best_total - best_prefill);
    std::printf(
        "{\"engine\":\"nunchi\",\"model\":\"%s\",\"threads\":%d,\"parallel\":%d,"
        "\"prompt_tokens\":%d,\"gen_tokens\":%d,\"prefill_tok_s\":%.1f,\"decode_tok_s\":%.1f}\n",
        e.model_identity().c_str(), o.threads, parallel, o.prompt_tokens, o.gen_tokens, pp, tg);
    std::fflush(stdout);
  }
  return 0;
}

// A bundle of a post and n comments, all distinct, written like the app's.
JudgeTask GrowingTask(int n_comments) {
  static const char* kLines[] = {"입구 쪽 줄이 계단까지 내려왔어요",
                                 "지금 가도 30분은 기다려야 할 듯",
                                 "생각보다 한산해요 바로 들어감",
                                 "비 와서 그런지 사람 별로 없네요",
                                 "주차장 만차라 돌아가는 중",
                                 "직원분이 대기 번호표 나눠주고 있어요",
                                 "안쪽은 좀 덜 붐벼요",
                                 "혹시 몇 시까지 하는지 아시는 분?"};
  const auto at = [](int minute) {
    return *ParseTimestamp("2026-11-30T14:" + std::string(minute < 10 ? "0" : "") +
                           std::to_string(minute) + ":00+09:00");
  };
  JudgeTask task;
  task.spot = {"spot-bench", "성수 팝업스토어", "성수동 팝업스토어 입구와 대기줄"};
  task.bundle.post_id = "p1";
  task.bundle.post = {"p1", "a0", at(0), "성수 팝업 오픈런 왔는데 줄이 엄청 길어요"};
  for (int i = 1; i <= n_comments; ++i) {
    task.bundle.comments.push_back({"c" + std::to_string(i), "a" + std::to_string(i % 5),
                                    at(std::min(59, i)),
                                    std::to_string(i) + "번째 댓글: " + kLines[i % 8]});
  }
  task.targets = {static_cast<size_t>(n_comments)};  // the newest comment
  task.request_id = "bench-grow-" + std::to_string(n_comments);
  return task;
}

llama::EngineOptions JudgeEngineOptions(const BenchOptions& o) {
  llama::EngineOptions eo;
  eo.model_path = o.model;
  eo.threads = o.threads;
  eo.max_active = 1;
  eo.max_cached = 8;
  eo.n_ctx = 4096;
  eo.guard.min_span = 1u << 30;  // random weights loop: measure, do not cut
  eo.guard.short_min_span = 1u << 30;
  return eo;
}

// An engine for the judge's own prompts and a LlamaJudge on it.
struct JudgeSetup {
  std::unique_ptr<llama::LlamaEngine> engine;
  std::unique_ptr<llama::LlamaJudge> judge;
  Status Start(const BenchOptions& o) {
    auto e = llama::LlamaEngine::Create(JudgeEngineOptions(o));
    if (!e.ok()) return e.status();
    engine = std::move(e).value();
    auto j = llama::LlamaJudge::Create(engine.get());
    if (!j.ok()) return j.status();
    judge = std::move(j).value();
    return Status::Ok();
  }
};

// Per-token overhead of sampling under the judge's grammar (and without
// one), against the llama_decode time of the same steps. The prompt is run
// once to cache it, so the measured run is almost all generation.
int RunGrammar(const BenchOptions& o) {
  JudgeSetup setup;
  if (Status st = setup.Start(o); !st.ok()) {
    return std::fprintf(stderr, "bench-engine: %s\n", st.ToString().c_str()), 1;
  }
  auto& e = *setup.engine;
  auto* judge = &setup.judge;
  JudgeTask task = GrowingTask(10);
  task.targets = {2, 4, 5, 7, 8, 9, 10};
  std::vector<std::string> ids;
  auto req = (*judge)->BuildRequest(task, &ids);
  if (!req.ok()) return 1;
  int steps = 0;  // the grammar run's decode steps: the unconstrained run takes as many
  for (bool grammar : {true, false}) {
    llama::EngineRequest r = *req;
    if (!grammar) {
      r.grammar.clear();
      r.max_tokens = std::max(1, steps);
    }
    r.retry_on_loop = false;
    if (!e.Submit(r).get().ok()) return 1;  // caches the prompt
    const auto before = e.Counters();
    auto res = e.Submit(r).get();
    if (!res.ok()) return 1;
    const auto after = e.Counters();
    const double calls = double(after.decode_calls - before.decode_calls);
    if (grammar) steps = static_cast<int>(calls);
    const double decode_ms = double(after.decode_ns - before.decode_ns) * 1e-6 / calls;
    const double sample_ms = double(after.sample_ns - before.sample_ns) * 1e-6 / calls;
    std::printf(
        "{\"engine\":\"nunchi\",\"part\":\"grammar\",\"grammar\":%s,\"model\":\"%s\","
        "\"threads\":%d,\"targets\":%zu,\"generated_tokens\":%d,\"forced_tokens\":%d,"
        "\"decode_calls\":%.0f,\"decode_ms_per_step\":%.2f,\"sample_ms_per_step\":%.3f,"
        "\"sample_share_of_step\":%.4f}\n",
        grammar ? "true" : "false", e.model_identity().c_str(), o.threads, ids.size(),
        res->generated_tokens, res->forced_tokens, calls, decode_ms, sample_ms,
        sample_ms / (decode_ms + sample_ms));
    std::fflush(stdout);
  }
  return 0;
}

// A bundle that grows by one comment per cycle, judged through LlamaJudge:
// prompt tokens per cycle against those computed (the rest came from the
// prefix cache).
int RunGrowing(const BenchOptions& o) {
  JudgeSetup setup;
  if (Status st = setup.Start(o); !st.ok()) {
    return std::fprintf(stderr, "bench-engine: %s\n", st.ToString().c_str()), 1;
  }
  auto& e = *setup.engine;
  auto* judge = &setup.judge;
  uint64_t total_prompt = 0, total_computed = 0;
  for (int cycle = 1; cycle <= o.grow_cycles; ++cycle) {
    const JudgeTask task = GrowingTask(5 + cycle);
    const auto before = e.Counters();
    const auto t0 = std::chrono::steady_clock::now();
    const JudgeOutput out = (*judge)->JudgeBundle(task);
    const double secs = Seconds(std::chrono::steady_clock::now() - t0);
    const auto after = e.Counters();
    const uint64_t computed = after.prefill_computed - before.prefill_computed;
    const uint64_t reused = after.prefill_reused - before.prefill_reused;
    if (cycle > 1) {  // the first cycle has nothing of the bundle cached
      total_prompt += computed + reused;
      total_computed += computed;
    }
    std::printf(
        "{\"engine\":\"nunchi\",\"part\":\"growing_bundle\",\"cycle\":%d,\"comments\":%d,"
        "\"prompt_tokens\":%llu,\"computed\":%llu,\"reused\":%llu,\"ok\":%s,\"seconds\":%.2f}\n",
        cycle, 5 + cycle, static_cast<unsigned long long>(computed + reused),
        static_cast<unsigned long long>(computed), static_cast<unsigned long long>(reused),
        !out.empty() && out[0].ok() ? "true" : "false", secs);
    std::fflush(stdout);
  }
  std::printf(
      "{\"engine\":\"nunchi\",\"part\":\"growing_bundle_summary\",\"cycles\":%d,"
      "\"prompt_tokens_per_cycle\":%.1f,\"computed_per_cycle\":%.1f,\"saved_share\":%.4f}\n",
      o.grow_cycles - 1, double(total_prompt) / (o.grow_cycles - 1),
      double(total_computed) / (o.grow_cycles - 1),
      1.0 - double(total_computed) / double(std::max<uint64_t>(1, total_prompt)));
  return 0;
}

int RunBench(const BenchOptions& o) {
  const auto wanted = [&](const char* part) { return o.parts.find(part) != std::string::npos; };
  if (int rc = wanted("throughput") ? RunThroughput(o) : 0; rc != 0) return rc;
  if (int rc = wanted("grammar") ? RunGrammar(o) : 0; rc != 0) return rc;
  if (int rc = wanted("growing") && o.grow_cycles > 1 ? RunGrowing(o) : 0; rc != 0) return rc;
  if (!wanted("dharma")) return 0;
  DharmaOptions d = o.dharma;
  d.model = o.model;
  d.threads = o.threads;
  return RunDharma(d);
}

}  // namespace

void AddBenchEngineCommand(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench-engine", "Measure the in-process engine's prefill and decode tokens per second");
  cmd->add_option("--model", o->model, "GGUF model")->required();
  cmd->add_option("-t,--threads", o->threads, "CPU threads")->capture_default_str();
  cmd->add_option("-p,--prompt-tokens", o->prompt_tokens, "Prompt tokens")->capture_default_str();
  cmd->add_option("-n,--gen-tokens", o->gen_tokens, "Generated tokens")->capture_default_str();
  cmd->add_option("--parallel", o->parallel, "Sequences decoded together")->capture_default_str();
  cmd->add_option("--repetitions", o->repetitions, "Best of this many runs")->capture_default_str();
  cmd->add_option("-c,--ctx-size", o->ctx_size, "KV cells (raised when too small)")
      ->capture_default_str();
  cmd->add_option("--grow-cycles", o->grow_cycles, "Cycles of the growing bundle")
      ->capture_default_str();
  cmd->add_option("--parts", o->parts, "Which measurements, comma-separated")
      ->capture_default_str();
  DharmaOptions& d = o->dharma;
  cmd->add_option("--dharma-batch", d.batch, "Requests in a Dharma batch")->capture_default_str();
  cmd->add_option("--dharma-loop-share", d.loop_share, "Share of them that loop")
      ->capture_default_str();
  cmd->add_option("--dharma-loop-cap", d.loop_cap, "Token cap of a looping request")
      ->capture_default_str();
  cmd->add_option("--dharma-rounds", d.rounds, "Rounds per engine setting")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--dharma-hold-span", d.hold_span,
                  "Loop hold: tokens of a twice-repeated tail that make a suspect")
      ->check(CLI::Range(2, 4096))
      ->capture_default_str();
  cmd->add_option("--dharma-hold-steps", d.hold_steps, "Loop hold: decodes one request may sit out")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->callback([o] { throw CLI::RuntimeError(RunBench(*o)); });
}

}  // namespace nunchi
