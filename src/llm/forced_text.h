// Forced text of the answer format of schema.h: given the answer so far,
// the text that the format allows as the only continuation, up to the next
// point where the model really chooses. An engine can tokenize that text and
// feed it in one batch instead of sampling it token by token ("tokens that
// the grammar forces are not sampled one at a time", DESIGN.md section 4).
//
// Example for ids {"#2","#3"}: after `{"#2":{"r":"R` the forced text is
// `ELEVANT","l":"`; after `{"#2":{"r":"IRRELEVANT"` it is `},"#3":{"r":"`.
// Choices are: the first character of each enum value (the rest is forced
// once it is unambiguous), every character of the cause text and its end.
//
// Pure function; safe from any thread. Cost: linear in the answer length.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace nunchi::llm {

struct ForcedText {
  std::string text;       // forced continuation; empty when the model must choose now
  bool complete = false;  // the answer is complete after text
};

// nullopt when so_far is not a prefix of an answer the grammar accepts.
std::optional<ForcedText> ForcedContinuation(std::span<const std::string> ids,
                                             std::string_view so_far);

}  // namespace nunchi::llm
