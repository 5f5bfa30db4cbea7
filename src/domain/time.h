// Timestamps on the wire: ISO 8601 / RFC 3339 with an offset, kept both as
// milliseconds since the Unix epoch (for arithmetic) and as the original text
// (echoed back unchanged). Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nunchi {

using TimeMs = int64_t;  // milliseconds since 1970-01-01T00:00:00Z

struct Timestamp {
  TimeMs ms = 0;
  std::string text;  // as the backend wrote it
};

// Parses "YYYY-MM-DDTHH:MM:SS[.fff](Z|+HH:MM|-HH:MM)". An offset is required:
// a local time without one is ambiguous and rejected.
std::optional<Timestamp> ParseTimestamp(std::string_view s);

// Formats ms as RFC 3339 in UTC with millisecond precision ("...Z").
std::string FormatUtc(TimeMs ms);

inline constexpr TimeMs kMinuteMs = 60'000;

}  // namespace nunchi
