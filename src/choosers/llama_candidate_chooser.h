// LlamaCandidateChooser: the extractor's CandidateChooser
// (extract/candidate_chooser.h) backed by a text engine (llm/text_engine.h:
// the in-process LlamaEngine, or a fake in unit tests). When
// the field rules are unsure, it shows the model the field, the OCR text and
// the numbered candidates (prompt prompts/choose-v1/) and lets it answer only
// {"choice":N} or {"choice":null} under a GBNF grammar (choice_grammar.h), so
// the model can pick a candidate the OCR saw but never write digits of its
// own. It returns the index only when the answer names a shown candidate;
// null, an engine error or the per-call deadline (then the engine drops the
// work) return nullopt, and the rules' choice stands.
//
// Thread-safety: Choose may be called from many threads at once; the engine
// batches their requests (earliest deadline first, so a chooser call goes
// ahead of slower congestion judgments on a shared engine). Counters are
// atomics. The engine must outlive the chooser.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/status.h"
#include "extract/candidate_chooser.h"
#include "llm/text_engine.h"

namespace nunchi::choosers {

struct LlamaChooserOptions {
  std::chrono::milliseconds timeout{2000};  // per call; then the rules' choice stands
  size_t max_candidates = 10;               // distinct values shown (the best-scored)
  size_t max_ocr_bytes = 3000;              // OCR text put into the prompt
};

// Monotonic totals since creation.
struct ChooserCounters {
  uint64_t calls = 0;      // Choose calls
  uint64_t picks = 0;      // answered a candidate (returned an index)
  uint64_t overrides = 0;  // ... whose value differs from the rules' best-scored one
  uint64_t kept = 0;       // answered null, or fewer than two distinct values to choose from
  uint64_t timeouts = 0;   // no answer before the deadline
  uint64_t errors = 0;     // engine errors and answers that break the grammar
};

class LlamaCandidateChooser : public extract::CandidateChooser {
 public:
  // Computes the instructions once into a pinned prefix-cache entry.
  // Engine errors (kUnavailable, ...) on failure.
  static Result<std::unique_ptr<LlamaCandidateChooser>> Create(llm::TextEngine* engine,
                                                               LlamaChooserOptions options = {});

  std::optional<size_t> Choose(const std::string& field,
                               const std::vector<extract::Candidate>& candidates,
                               const std::string& ocr_text) override;

  ChooserCounters Counters() const;
  std::string_view prompt_version() const;
  const LlamaChooserOptions& options() const { return options_; }

  // The engine request Choose runs (deadline unset) and, in *shown, the index
  // in `candidates` of each numbered candidate. For tests and tools.
  Result<llm::EngineRequest> BuildRequest(const std::string& field,
                                          const std::vector<extract::Candidate>& candidates,
                                          const std::string& ocr_text,
                                          std::vector<size_t>* shown) const;

 private:
  LlamaCandidateChooser(llm::TextEngine* engine, LlamaChooserOptions options);

  llm::TextEngine* engine_;
  LlamaChooserOptions options_;
  std::vector<std::string> grammars_;  // by number of shown candidates
  std::atomic<uint64_t> calls_{0}, picks_{0}, overrides_{0}, kept_{0}, timeouts_{0}, errors_{0};
};

}  // namespace nunchi::choosers
