// The extraction chooser on the in-process llama.cpp engine
// (choosers/llama_candidate_chooser.h) for `serve` (sharing the judge
// chain's engine: the model is loaded once) and `eval-extract --model` (its
// own engine). Exports the chooser's counters to /metrics as
// nunchi_extract_chooser_*_total labelled by model and prompt version. Only
// built with both llama.cpp and the extraction layer.
#pragma once

#include <memory>
#include <string>

#include "domain/status.h"
#include "extract/candidate_chooser.h"
#include "llm/text_engine.h"
#include "ops/metrics.h"

namespace nunchi {

struct ChooserFlags {
  int timeout_ms = 2000;  // per call; then the rules' choice stands
};

// A chooser on `engine` (as JudgeChain::llama_engine gives it); the chooser
// keeps the engine alive. metrics may be null.
Result<std::shared_ptr<extract::CandidateChooser>> MakeLlamaChooser(
    std::shared_ptr<llm::TextEngine> engine, const ChooserFlags& flags, MetricsRegistry* metrics);

// Loads model_path into a small engine of its own (threads 0: all cores) and
// puts a chooser on it.
Result<std::shared_ptr<extract::CandidateChooser>> MakeStandaloneLlamaChooser(
    const std::string& model_path, int threads, const ChooserFlags& flags);

// One line of the chooser's counters ("calls 3, picks 2 (1 changed the
// rules' answer), kept 1, timeouts 0, errors 0"); empty for another chooser.
std::string ChooserSummary(const extract::CandidateChooser* chooser);

}  // namespace nunchi
