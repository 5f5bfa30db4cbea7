#include "app/cmd_bench_engine.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/batched_bench.h"
#include "app/bench_dharma.h"
#include "domain/time.h"
#include "engines/llama/engine.h"
#include "engines/llama/llama_judge.h"
#include "llm/schema.h"
#include "ops/child_process.h"

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
  std::string parts = "versus,grammar,growing,dharma";
  // versus: nunchi against llama-batched-bench, interleaved.
  int rounds = 3;
  std::string npp = "256,1024";  // prompt tokens per sequence
  std::string npl = "1,4,8";     // sequences decoded together
  int batch = 512;               // n_batch = n_ubatch, for both (nunchi serves with 512)
  std::string batched_bench;     // the llama-batched-bench binary; "": found
  bool kv_unified = false;       // one KV buffer for all sequences, on both sides (-kvu)
  int hold_steps = 0;            // the engine's loop hold (loop_hold.h); 0: off
  bool lockstep = true;          // EngineRequest::lockstep for the sequences of a shape
  bool one_engine = false;       // versus: one engine for all shapes, not one per measurement
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
      req.lockstep = true;
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

std::vector<int> IntList(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(std::atoi(item.c_str()));
  return out;
}

BatchedBenchArgs ReferenceArgs(const BenchOptions& o, int npp, int npl, int ctx) {
  return {o.model, o.threads, ctx, o.batch, npp, o.gen_tokens, npl, o.kv_unified};
}

// nunchi against llama-batched-bench on the same model, threads, context,
// batch and shapes (npl sequences x npp prompt tokens, gen_tokens generated),
// interleaved: each round runs both on each shape back to back, the order
// flipped from shape to shape and round to round, so that a noisy machine
// hits both alike. Prints one JSON line
// per measurement, one per shape with the best-of and median ratios, and the
// table of those ratios.
int RunVersus(const BenchOptions& o) {
  const std::string bin = FindBatchedBench(o.batched_bench);
  if (bin.empty()) {
    std::fprintf(stderr,
                 "bench-engine: llama-batched-bench not found (--batched-bench, "
                 "$NUNCHI_LLAMA_BATCHED_BENCH or $NUNCHI_LLAMA_DIR/bin)\n");
    return 1;
  }
  const std::vector<int> npps = IntList(o.npp), npls = IntList(o.npl);
  if (npps.empty() || npls.empty()) return std::fprintf(stderr, "bench-engine: no shapes\n"), 1;
  // llama-batched-bench inherits this process's environment. main() sets
  // OMP_THREAD_LIMIT=1 for Tesseract after libgomp has read its settings
  // (so the engine here still runs -t threads), but a child's libgomp reads
  // it at load and then runs every op on one thread: until this line the
  // reference ran 1 thread against the engine's -t (7x slower decode on the
  // tiny model). Both now run under the same OpenMP settings.
  unsetenv("OMP_THREAD_LIMIT");
  std::fprintf(stderr,
               "bench-engine: OpenMP for both: OMP_WAIT_POLICY=%s, OMP_THREAD_LIMIT unset\n",
               std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "(default)");
  const int max_npl = *std::max_element(npls.begin(), npls.end());
  const int max_npp = *std::max_element(npps.begin(), npps.end());
  // Both get the same KV cells, split into one stream per sequence.
  const int ctx = max_npl * (max_npp + o.gen_tokens + 32);
  // Like the reference, a fresh process per measurement with n_seq_max = npl
  // (batched_bench.h), the engine is made fresh per measurement with
  // max_active = npl, unless --one-engine keeps one of max_active = max npl
  // for the whole run (the served engine's situation: streams it does not
  // use this step, buffers allocated once).
  auto make_engine = [&](int max_active) {
    llama::EngineOptions eo;
    eo.model_path = o.model;
    eo.threads = o.threads;
    eo.max_active = max_active;
    eo.max_cached = 2;
    eo.cache_budget_bytes = 0;  // no prefix reuse: every prompt is computed
    eo.n_ctx = ctx;
    eo.n_batch = o.batch;
    eo.kv_unified = o.kv_unified;
    eo.guard.min_span = 1u << 30;  // random weights loop: measure, do not cut
    eo.guard.short_min_span = 1u << 30;
    // Nor hold them back: a random-weight model's output repeats at once,
    // and a suspected loop sits out decodes while others run (loop_hold.h),
    // which splits one lockstep decode into several smaller ones.
    // llama-batched-bench decodes every sequence in every step; so does the
    // engine here unless --hold-steps says otherwise.
    eo.loop_hold.max_steps = o.hold_steps;
    return llama::LlamaEngine::Create(eo);
  };
  std::unique_ptr<llama::LlamaEngine> engine;
  auto fresh_engine = [&](int max_active) -> bool {
    engine.reset();  // one model and context in memory at a time
    auto made = make_engine(max_active);
    if (!made.ok()) {
      std::fprintf(stderr, "bench-engine: %s\n", made.status().ToString().c_str());
      return false;
    }
    engine = std::move(made).value();
    return true;
  };
  int seed = 0;
  // Random token ids, as llama-batched-bench prompts are (no tokenizer cost).
  const int n_vocab_guess = 1000;
  // One run of `parallel` sequences submitted together, as
  // llama-batched-bench decodes them: prefill is the wall time until every
  // prompt is decoded, decode the wall time from then until the last answer,
  // over the tokens generated after the first (each needed one decode).
  auto run = [&](int parallel, int npp, int gen) -> Speeds {
    std::vector<llama::EngineRequest> requests;
    for (int i = 0; i < parallel; ++i) {
      llama::EngineRequest req;
      ++seed;
      for (int k = 0; k < npp; ++k)
        req.prompt_tokens.push_back(100 + (seed * 7919 + k * 104729) % n_vocab_guess);
      req.max_tokens = gen + 1;
      req.retry_on_loop = false;
      req.lockstep = o.lockstep;
      requests.push_back(std::move(req));
    }
    llama::LlamaEngine& e = *engine;
    const auto before = e.Counters();
    const auto t0 = std::chrono::steady_clock::now();
    auto futures = e.SubmitAll(std::move(requests));
    llama::EngineClock::time_point prefilled{}, finished{};
    int decoded = 0;
    for (auto& f : futures) {
      auto r = f.get();
      if (!r.ok()) return {-1, -1};
      prefilled = std::max(prefilled, r->prefilled_at);
      finished = std::max(finished, r->finished_at);
      decoded += std::max(0, r->generated_tokens - 1);
    }
    const auto after = e.Counters();
    const double calls = std::max<double>(1, double(after.decode_calls - before.decode_calls));
    return {parallel * npp / std::max(1e-9, Seconds(prefilled - t0)),
            decoded / std::max(1e-9, Seconds(finished - prefilled)),
            double(after.decode_ns - before.decode_ns) * 1e-6 / calls,
            double(after.sample_ns - before.sample_ns) * 1e-6 / calls,
            after.decode_calls - before.decode_calls,
            after.loop_holds - before.loop_holds};
  };
  auto nunchi_shape = [&](int parallel, int npp) -> Speeds {
    if (!engine || !o.one_engine) {
      if (!fresh_engine(o.one_engine ? max_npl : parallel)) return {-1, -1};
      run(1, 16, 2);  // warm-up, as llama-batched-bench does
    }
    return run(parallel, npp, o.gen_tokens);
  };
  std::map<std::pair<int, int>, std::vector<Speeds>> ours, theirs;
  // Paired per shape: the two engines measure the same shape back to back,
  // the order alternating by round and shape, so a slow minute on the shared
  // machine lands on both sides of a cell instead of on one engine's whole
  // turn (whole-turn interleaving gave best-of ratios of 0.79-1.10 for one
  // build's same cell across three invocations).
  int pair = 0;
  for (int round = 1; round <= o.rounds; ++round) {
    for (const int npp : npps) {
      for (const int npl : npls) {
        const bool nunchi_first = (round + pair++) % 2 == 1;
        for (int turn = 0; turn < 2; ++turn) {
          const bool nunchi_turn = (turn == 0) == nunchi_first;
          std::map<int, Speeds> measured;
          if (nunchi_turn) {
            measured[npl] = nunchi_shape(npl, npp);
          } else {
            std::string error;
            measured = RunBatchedBench(bin, ReferenceArgs(o, npp, npl, ctx), &error);
            if (measured.empty())
              return std::fprintf(stderr, "bench-engine: %s\n", error.c_str()), 1;
          }
          for (const auto& [got_npl, sp] : measured) {
            if (sp.prefill <= 0) return std::fprintf(stderr, "bench-engine: a request failed\n"), 1;
            (nunchi_turn ? ours : theirs)[{npp, got_npl}].push_back(sp);
            std::printf(
                "{\"part\":\"versus\",\"engine\":\"%s\",\"round\":%d,\"npp\":%d,\"npl\":%d,"
                "\"ntg\":%d,\"threads\":%d,\"prefill_tok_s\":%.2f,\"decode_tok_s\":%.2f,"
                "\"decode_ms_per_call\":%.2f,\"sample_ms_per_call\":%.3f,\"decode_calls\":%llu,"
                "\"loop_holds\":%llu,\"kv_unified\":%s,\"lockstep\":%s,\"one_engine\":%s}\n",
                nunchi_turn ? "nunchi" : "llama-batched-bench", round, npp, got_npl, o.gen_tokens,
                o.threads, sp.prefill, sp.decode, sp.decode_ms_per_call, sp.sample_ms_per_call,
                static_cast<unsigned long long>(sp.decode_calls),
                static_cast<unsigned long long>(sp.loop_holds), o.kv_unified ? "true" : "false",
                o.lockstep ? "true" : "false", o.one_engine ? "true" : "false");
            std::fflush(stdout);
          }
        }
      }
    }
  }
  std::string table =
      "| PP | B | nunchi PP t/s (best / median) | llama PP t/s (best / median) | PP ratio best | "
      "PP ratio median | nunchi TG t/s (best / median) | llama TG t/s (best / median) | "
      "TG ratio best | TG ratio median |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const int npp : npps) {
    for (const int npl : npls) {
      std::vector<double> op, od, tp, td;
      for (const auto& sp : ours[{npp, npl}]) op.push_back(sp.prefill), od.push_back(sp.decode);
      for (const auto& sp : theirs[{npp, npl}]) tp.push_back(sp.prefill), td.push_back(sp.decode);
      if (op.empty() || tp.empty()) continue;
      const double pp_best = Best(op) / Best(tp), pp_med = Median(op) / Median(tp);
      const double tg_best = Best(od) / Best(td), tg_med = Median(od) / Median(td);
      std::printf(
          "{\"part\":\"versus-summary\",\"npp\":%d,\"npl\":%d,\"ntg\":%d,\"rounds\":%d,"
          "\"prefill_ratio_best\":%.3f,\"prefill_ratio_median\":%.3f,"
          "\"decode_ratio_best\":%.3f,\"decode_ratio_median\":%.3f}\n",
          npp, npl, o.gen_tokens, o.rounds, pp_best, pp_med, tg_best, tg_med);
      char row[512];
      std::snprintf(row, sizeof row,
                    "| %d | %d | %.1f / %.1f | %.1f / %.1f | %.2f | %.2f | %.1f / %.1f | "
                    "%.1f / %.1f | %.2f | %.2f |\n",
                    npp, npl, Best(op), Median(op), Best(tp), Median(tp), pp_best, pp_med, Best(od),
                    Median(od), Best(td), Median(td), tg_best, tg_med);
      table += row;
    }
  }
  // The table goes to stderr so that stdout stays one JSON object per line.
  std::fprintf(
      stderr, "\nnunchi / llama-batched-bench (%s), %d threads, %d generated, %d rounds, KV %s\n%s",
      bin.c_str(), o.threads, o.gen_tokens, o.rounds,
      o.kv_unified ? "unified" : "one stream per sequence", table.c_str());
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
  if (int rc = wanted("versus") ? RunVersus(o) : 0; rc != 0) return rc;
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
  cmd->add_option("--parts", o->parts,
                  "Which measurements, comma-separated: versus, throughput, grammar, growing, "
                  "dharma")
      ->capture_default_str();
  cmd->add_option("--rounds", o->rounds,
                  "versus: interleaved rounds of nunchi and llama-batched-bench")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--npp", o->npp, "versus: prompt tokens per sequence, comma-separated")
      ->capture_default_str();
  cmd->add_option("--npl", o->npl, "versus: sequences decoded together, comma-separated")
      ->capture_default_str();
  cmd->add_option("--batch", o->batch, "versus: n_batch = n_ubatch for both engines")
      ->check(CLI::Range(16, 65536))
      ->capture_default_str();
  cmd->add_flag("--kv-unified", o->kv_unified,
                "versus: one KV buffer for all sequences on both sides (llama-batched-bench -kvu) "
                "instead of a stream per sequence");
  cmd->add_flag("--one-engine", o->one_engine,
                "versus: one engine (max_active = largest npl) for every measurement instead of "
                "a fresh one per measurement, as each llama-batched-bench run is");
  cmd->add_flag("!--no-lockstep", o->lockstep,
                "versus: let a sequence decode as soon as its own prompt is in, next to the "
                "others' prefill (the engine's default for requests not marked lockstep)");
  cmd->add_option("--hold-steps", o->hold_steps,
                  "versus: decodes a suspected loop may sit out (the engine's default is 64; "
                  "0 decodes every sequence in every step, as llama-batched-bench does)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option("--batched-bench", o->batched_bench,
                  "versus: llama-batched-bench binary (default: $NUNCHI_LLAMA_BATCHED_BENCH, "
                  "$NUNCHI_LLAMA_DIR/bin, or the pinned install this binary was built with)");
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
