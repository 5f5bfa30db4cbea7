// The versioned prompt of the candidate choosers (prompts/choose-v1/, compiled
// into the binary by embed_prompt.cmake) and its rendering: the system
// message (the instructions, identical for every call, so the engine computes
// it once) and the user message that shows the field, the OCR text and the
// numbered candidates. Pure functions over immutable data; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/candidate_chooser.h"

namespace nunchi::choosers {

struct ChooserPrompt {
  const char* version;  // "choose-v1"
  const char* system;   // instructions and the meaning of every field
  const char* request;  // template: {{field}}, {{ocr_text}}, {{candidates}}
};
extern const ChooserPrompt kChooserPrompt;  // generated from prompts/

// Which candidates the model sees, as indices into `candidates`: one per
// distinct value (the best-scored of its kind), at most max_shown of the
// best-scored values, in the order given (document order).
std::vector<size_t> ShownCandidates(const std::vector<extract::Candidate>& candidates,
                                    size_t max_shown);

// The user message: the shown candidates numbered 0.. in order, each with the
// OCR line it came from; OCR lines sanitized, at most max_ocr_bytes of them.
std::string RenderChooserRequest(const std::string& field,
                                 const std::vector<extract::Candidate>& candidates,
                                 const std::vector<size_t>& shown, std::string_view ocr_text,
                                 size_t max_ocr_bytes);

}  // namespace nunchi::choosers
