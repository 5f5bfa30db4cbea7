// The answer format of the candidate choosers: a GBNF grammar that admits
// exactly {"choice":0} .. {"choice":N-1} and {"choice":null} (no spaces), and
// the strict parser of such an answer. Under the grammar a model can only
// name a candidate, never write a value. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace nunchi::choosers {

// GBNF (rule root) for n >= 1 candidates.
std::string ChoiceGrammar(size_t n);
// The longest answer the grammar admits for n candidates, in bytes.
size_t MaxChoiceAnswerBytes(size_t n);

struct ParsedChoice {
  bool valid = false;           // the text is one admitted answer for n
  std::optional<size_t> index;  // the choice; nullopt for {"choice":null}
};
// Parses an answer for n candidates: anything but an exact admitted answer
// (spaces, leading zeros, an index >= n, trailing text) is invalid.
ParsedChoice ParseChoice(std::string_view text, size_t n);

}  // namespace nunchi::choosers
