#include "choosers/choice_grammar.h"

#include <algorithm>
#include <charconv>

namespace nunchi::choosers {
namespace {

constexpr std::string_view kOpen = "{\"choice\":";
constexpr std::string_view kClose = "}";
constexpr std::string_view kNull = "null";

}  // namespace

std::string ChoiceGrammar(size_t n) {
  std::string g = "root ::= \"{\\\"choice\\\":\" ( \"null\"";
  for (size_t i = 0; i < n; ++i) g += " | \"" + std::to_string(i) + "\"";
  g += " ) \"}\"\n";
  return g;
}

size_t MaxChoiceAnswerBytes(size_t n) {
  const size_t digits = n == 0 ? 1 : std::to_string(n - 1).size();
  return kOpen.size() + std::max(kNull.size(), digits) + kClose.size();
}

ParsedChoice ParseChoice(std::string_view text, size_t n) {
  ParsedChoice out;
  if (!text.starts_with(kOpen) || !text.ends_with(kClose)) return out;
  std::string_view body = text.substr(kOpen.size(), text.size() - kOpen.size() - kClose.size());
  if (body == kNull) {
    out.valid = true;
    return out;
  }
  if (body.empty() || (body.size() > 1 && body[0] == '0')) return out;
  size_t index = 0;
  auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), index);
  if (ec != std::errc() || end != body.data() + body.size() || index >= n) return out;
  out.valid = true;
  out.index = index;
  return out;
}

}  // namespace nunchi::choosers
