// Small UTF-8 text helpers shared by the judges: code point decoding, the
// "compact" form the rules and the classifier match on (ASCII lower-cased,
// whitespace removed, clause breaks remembered), Hangul and emoji tests.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nunchi::judges {

// Decodes the code point at s[i] and advances i; invalid bytes decode as U+FFFD, one byte each.
char32_t NextCodePoint(std::string_view s, size_t& i);
// Appends the UTF-8 encoding of cp.
void AppendUtf8(std::string& out, char32_t cp);

bool IsHangulSyllable(char32_t cp);
bool IsHangulJamo(char32_t cp);  // ㄱ..ㅣ compatibility jamo (ㅋ, ㅎ, ㅠ, ...)
bool IsEmojiOrSymbol(char32_t cp);
bool IsSpace(char32_t cp);
// True when the syllable has a final consonant (받침); false for non-syllables.
bool HasFinalConsonant(char32_t cp);

// The compact form of a text: lower-cased ASCII, no whitespace. clause[k] is the
// clause number of byte k (clauses break at . ! ? , ~ ; newline and after 는데/지만-like
// connectives), so the rules can tell which cues share a clause.
struct CompactText {
  std::string text;
  std::vector<uint16_t> clause;  // one per byte of text
  std::vector<bool> clause_is_question;
  size_t clause_count() const { return clause_is_question.size(); }
};
CompactText MakeCompact(std::string_view text);
// The compact text of clause k (empty when there is none).
std::string_view ClauseBody(const CompactText& c, size_t k);

}  // namespace nunchi::judges
