// Builds the judge chain a command asked for: the in-process LLM and remote
// model servers when configured, always ending in the embedded default judge
// (prefilter, Korean rules, classifier), composed by the router in the order
// given by --route. The returned chain owns every judge and engine in it, and
// registers their counters with the metrics registry.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "domain/status.h"
#include "judges/judge.h"
#include "ops/metrics.h"

namespace nunchi::llm {
class TextEngine;  // llm/text_engine.h
}  // namespace nunchi::llm

namespace nunchi {

struct JudgeOptions {
  // Order of the judges the router asks; unknown or unconfigured names are an
  // error. "auto": llama (if --model) > remote (if --base-url) > default.
  // "cascade": the default judge first, the LLM (llama if --model, else
  // remote) only for targets under the calibrated confidence threshold; the
  // default whenever an LLM is configured. "auto": cascade with an LLM, else default.
  std::string route = "auto";
  // The default judge's classifier from `nunchi train` ("" = the one compiled in;
  // serve uses DATA_DIR/classifier.model when it exists).
  std::string classifier_file;
  std::string calibration_file;  // "" = the calibration compiled in (data/calibration/cascade.json)
  double escalation_threshold = -1;  // >= 0 overrides the calibration's threshold
  // The cascade's llama.cpp escalations: the short prompt (llm::kEscalationPromptVersion)
  // with the post and the latest K comments besides the targets; -1: the whole
  // judge-v1 prompt, every cause text (the layout before issue 14 section 2).
  int escalation_comments = 4;
  // The cascade waits at most this long for the LLM in one request (0: the
  // request deadline); later answers replace the cheap ones for later cycles.
  int escalation_wait_ms = 4000;
  // Set by the cascade for its inner LLM judge, llama or remote
  // ("" = llm::kJudgePromptVersion).
  std::string llm_prompt_version;
  // In-process llama.cpp.
  std::string model_path;          // --model FILE.gguf
  int threads = 0;                 // llama.cpp threads (0: all cores)
  int ctx_size = 0;                // KV cells in all; 0: 4096 per sequence
  int parallel = 4;                // sequences decoded together, each with its own KV stream
  std::string flash_attn = "off";  // off, on, auto
  // One KV buffer for all sequences instead of a stream each: decodes short
  // prompts faster, prefills long ones slower (docs/benchmarks.md, "KV layout").
  bool kv_unified = false;
  // Most prompt tokens a deferred (background) request prefills per decode
  // step (llama::EngineOptions::background_chunk); 0: the whole batch.
  int background_chunk = 64;
  int prefix_cache_mb = 2048;  // host memory for saved prefix states
  std::string cache_dir;       // saved prefix states ("" = DATA_DIR/prefix-cache for serve)
  bool prefix_reuse = true;
  int bundles_per_call = 1;  // batch prompting: bundles per engine request (1: off)
  int context_comments = 0;  // llama prompts: the post and the latest K..1.5 K comments (0: all)
  // Remote OpenAI-compatible backends; several --base-url make a pool.
  std::string backend = "openai";  // openai, vllm, llama-server
  std::vector<std::string> base_urls;
  std::string remote_model;
  std::string api_key_env;  // "": NUNCHI_API_KEY when it is set, else no key
  std::string api_key_file;
  int remote_timeout_ms = 20'000;
  int remote_concurrency = 4;
  bool remote_stream = true;
  std::string pool_policy = "least-busy";  // or round-robin; used with affinity off
  // Several --base-url: bundle affinity (engines/remote/remote_pool.h) and
  // health by inference (engines/remote/inference_health.h).
  std::string remote_affinity = "on";  // on, off
  double remote_affinity_epsilon = 0.25;
  int remote_probe_interval_ms = 5'000;  // 0: no probes
  int remote_probe_timeout_ms = 5'000;
};

// Adds the judge flags (--route, --model, --threads, --ctx-size, --parallel,
// --prefix-cache-dir, --no-prefix-reuse, --bundles-per-call, --context-comments, --backend,
// --base-url,
// --remote-model, --api-key-env, --api-key-file, --remote-timeout-ms,
// --remote-concurrency, --remote-stream, --pool-policy, --remote-affinity,
// --remote-affinity-epsilon, --remote-probe-interval-ms, --remote-probe-timeout-ms)
// to a subcommand.
void AddJudgeFlags(CLI::App* cmd, JudgeOptions* opts);

class JudgeChain {
 public:
  virtual ~JudgeChain() = default;
  virtual Judge& judge() = 0;
  // Human-readable description, e.g. "llama(model.gguf) > default".
  virtual std::string describe() const = 0;
  // The in-process engine when the chain runs one, so that other users of the
  // model (the extraction chooser) share it; else null.
  virtual std::shared_ptr<llm::TextEngine> llama_engine() const { return nullptr; }
};

Result<std::unique_ptr<JudgeChain>> MakeJudgeChain(const JudgeOptions& opts,
                                                   MetricsRegistry* metrics);

}  // namespace nunchi
