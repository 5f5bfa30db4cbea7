// Builds the judge chain a command asked for: the in-process LLM and remote
// model servers when configured, always ending in the embedded default judge
// (prefilter, Korean rules, classifier), composed by the router. Owns nothing
// global; the returned object owns every judge in the chain.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "domain/status.h"
#include "judges/judge.h"
#include "ops/metrics.h"

namespace nunchi {

struct JudgeOptions {
  // "default" (rules + classifier), "rules", "classifier", or "llm" (the
  // configured model first, default judge as fallback).
  std::string judge = "default";
  std::string model_path;  // --model FILE.gguf: in-process llama.cpp
  int threads = 0;         // llama.cpp threads (0: all cores)
  int ctx_size = 8192;
  // Remote OpenAI-compatible backends (--backend KIND --base-url URL --remote-model NAME).
  std::string backend;  // "", "openai", "vllm", "llama-server"
  std::string base_url;
  std::string remote_model;
  std::string api_key_env = "NUNCHI_API_KEY";
};

// Adds --judge, --model, --threads, --ctx-size, --backend, --base-url,
// --remote-model, --api-key-env to a subcommand.
void AddJudgeFlags(CLI::App* cmd, JudgeOptions* opts);

class JudgeChain {
 public:
  virtual ~JudgeChain() = default;
  virtual Judge& judge() = 0;
};

Result<std::unique_ptr<JudgeChain>> MakeJudgeChain(const JudgeOptions& opts,
                                                   MetricsRegistry* metrics);

}  // namespace nunchi
