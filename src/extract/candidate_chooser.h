// CandidateChooser: the hook for an LLM judge that picks among the OCR's
// candidates when the field rules disagree or are unsure (receipt amount:
// the top two distinct values within 5 points; taxi fare from OCR: within
// 10). It may only pick one of the candidates it is given, by index, so it
// never produces digits the OCR did not see; the rules ignore an index out
// of range and keep their own choice on nullopt. The implementation is
// choosers::LlamaCandidateChooser (src/choosers/, on the in-process llama.cpp
// engine, answering {"choice":N|null} under a grammar, with a per-call
// deadline); `serve --model` and `eval-extract --model` wire it in, and the
// extractor works without one. This layer never depends on an engine.
// Implementations must be thread-safe; the extractor calls Choose from any
// request thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "types.h"

namespace nunchi::extract {

struct Candidate {
  std::string value;  // as the field would report it, e.g. "12300"
  double score = 0;   // the rules' score; higher is better
  Evidence evidence;  // the OCR line it came from
};

class CandidateChooser {
 public:
  virtual ~CandidateChooser() = default;
  // field: "amount", "paid_at", "merchant", "issuer", "approval_number" or
  // "taxi_fare". ocr_text: every OCR line, for context. Returns the index of
  // the chosen candidate, or nullopt to keep the rules' choice.
  virtual std::optional<size_t> Choose(const std::string& field,
                                       const std::vector<Candidate>& candidates,
                                       const std::string& ocr_text) = 0;
};

}  // namespace nunchi::extract
