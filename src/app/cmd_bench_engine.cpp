#include "app/cmd_bench_engine.h"

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "engines/llama/engine.h"

namespace nunchi {
namespace {

struct BenchOptions {
  std::string model;
  int threads = 2;
  int prompt_tokens = 256;
  int gen_tokens = 32;
  int parallel = 4;
  int repetitions = 3;
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

int RunBench(const BenchOptions& o) {
  llama::EngineOptions eo;
  eo.model_path = o.model;
  eo.threads = o.threads;
  eo.max_active = o.parallel;
  eo.max_cached = 2;
  eo.cache_budget_bytes = 0;  // no prefix reuse: every prompt is computed
  eo.n_ctx = (o.prompt_tokens + o.gen_tokens + 16) * (o.parallel + 1);
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
    std::vector<std::future<Result<llama::EngineResult>>> futures;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < parallel; ++i) {
      llama::EngineRequest req;
      req.prompt = Prompt(e, o.prompt_tokens, ++seed);
      req.max_tokens = gen;
      req.retry_on_loop = false;
      futures.push_back(e.Submit(std::move(req)));
    }
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
  cmd->callback([o] { throw CLI::RuntimeError(RunBench(*o)); });
}

}  // namespace nunchi
