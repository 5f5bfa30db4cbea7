#include "domain/labels.h"

namespace nunchi {

std::string_view ToString(Relevance r) {
  return r == Relevance::kRelevant ? "RELEVANT" : "IRRELEVANT";
}

std::string_view ToString(Level l) {
  switch (l) {
    case Level::kLow: return "LOW";
    case Level::kMedium: return "MEDIUM";
    case Level::kHigh: return "HIGH";
    case Level::kUnknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::string_view ToString(Cause c) {
  switch (c) {
    case Cause::kEvent: return "EVENT";
    case Cause::kPeakTime: return "PEAK_TIME";
    case Cause::kIncident: return "INCIDENT";
    case Cause::kConstruction: return "CONSTRUCTION";
    case Cause::kWeather: return "WEATHER";
    case Cause::kOther: return "OTHER";
    case Cause::kNone: return "NONE";
  }
  return "NONE";
}

std::optional<Relevance> ParseRelevance(std::string_view s) {
  if (s == "RELEVANT") return Relevance::kRelevant;
  if (s == "IRRELEVANT") return Relevance::kIrrelevant;
  return std::nullopt;
}

std::optional<Level> ParseLevel(std::string_view s) {
  for (Level l : kAllLevels)
    if (ToString(l) == s) return l;
  return std::nullopt;
}

std::optional<Cause> ParseCause(std::string_view s) {
  for (Cause c : kAllCauses)
    if (ToString(c) == s) return c;
  return std::nullopt;
}

namespace {
// Length of the UTF-8 sequence starting at s[i], or 0 if it is not valid there.
size_t SeqLen(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}
}  // namespace

size_t Utf8Length(std::string_view s) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++count) {
    size_t n = SeqLen(s, i);
    i += n == 0 ? 1 : n;
  }
  return count;
}

std::string Utf8Truncate(std::string_view s, size_t max_chars) {
  size_t i = 0;
  for (size_t count = 0; i < s.size() && count < max_chars; ++count) {
    size_t n = SeqLen(s, i);
    i += n == 0 ? 1 : n;
  }
  return std::string(s.substr(0, i));
}

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = SeqLen(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

}  // namespace nunchi
