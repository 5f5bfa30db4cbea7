// The judgment vocabulary (../shared/congestion-labels.md): relevance, level,
// cause, and their wire names. Pure values; no I/O; safe from any thread.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace nunchi {

enum class Relevance { kRelevant, kIrrelevant };
enum class Level { kLow, kMedium, kHigh, kUnknown };
enum class Cause { kEvent, kPeakTime, kIncident, kConstruction, kWeather, kOther, kNone };

inline constexpr std::array<Level, 4> kAllLevels = {Level::kLow, Level::kMedium, Level::kHigh,
                                                    Level::kUnknown};
inline constexpr std::array<Cause, 7> kAllCauses = {Cause::kEvent,        Cause::kPeakTime,
                                                    Cause::kIncident,     Cause::kConstruction,
                                                    Cause::kWeather,      Cause::kOther,
                                                    Cause::kNone};

std::string_view ToString(Relevance r);
std::string_view ToString(Level l);
std::string_view ToString(Cause c);
std::optional<Relevance> ParseRelevance(std::string_view s);
std::optional<Level> ParseLevel(std::string_view s);
std::optional<Cause> ParseCause(std::string_view s);

// Cause texts are at most this many characters (Unicode code points).
inline constexpr size_t kMaxCauseTextChars = 40;

// Number of Unicode code points in a UTF-8 string (invalid bytes count as one).
size_t Utf8Length(std::string_view s);
// The longest prefix of s with at most max_chars code points, cut on a code point boundary.
std::string Utf8Truncate(std::string_view s, size_t max_chars);
// True when s is valid UTF-8.
bool IsValidUtf8(std::string_view s);

}  // namespace nunchi
