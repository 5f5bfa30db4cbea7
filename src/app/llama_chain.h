// The in-process llama.cpp judge for the judge chain: creates the engine from
// the judge flags, the LlamaJudge on top, and exports the engine's counters
// (prefill computed/reused, generated, forced, loops, retries, degenerations)
// to /metrics labelled by model and prompt version. Only built with llama.cpp.
#pragma once

#include <memory>

#include "app/judge_factory.h"
#include "llm/text_engine.h"

namespace nunchi {

struct LlamaChainParts {
  std::shared_ptr<llm::TextEngine> engine;  // must outlive judge
  std::shared_ptr<Judge> judge;
};

Result<LlamaChainParts> MakeLlamaJudge(const JudgeOptions& opts, MetricsRegistry* metrics);

}  // namespace nunchi
