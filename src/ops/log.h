// The server log: one event per line on stderr, as JSON lines (default) or
// text, through spdlog. Every line has an RFC 3339 UTC time, a level, an
// event name and a human message, plus fields (request id, traceparent,
// route, status, latency...). The JSON line is
//   {"time":"2026-12-01T10:00:00.123+00:00","level":"info","event":"listening",
//    "msg":"listening on http://127.0.0.1:8080 (...)","port":8080}
// and the text line "TIME LEVEL EVENT MSG key=value ...".
//
// Libraries with a log callback of their own (llama.cpp) hand their text to
// LogExternal, which joins fragments into lines and logs each as an event
// `external` with `source`.
//
// Thread-safety: ConfigureLog once at start (main thread, before other
// threads log); every other function may be called from any thread.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace nunchi {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };
enum class LogFormat { kJson, kText };

// "trace" "debug" "info" "warn" "error" "off"; false for anything else.
bool ParseLogLevel(std::string_view name, LogLevel* level);
// "json" "text"; false for anything else.
bool ParseLogFormat(std::string_view name, LogFormat* format);

// Where lines go: stderr by default, or *out (tests). Lines below `level` are dropped.
void ConfigureLog(LogFormat format, LogLevel level, std::ostream* out = nullptr);
bool LogEnabled(LogLevel level);

// One field of an event: a key and a string, integer, number or bool.
struct LogField {
  using Value = std::variant<std::string, int64_t, double, bool>;
  LogField(std::string_view k, std::string_view v) : key(k), value(std::string(v)) {}
  LogField(std::string_view k, const char* v) : key(k), value(std::string(v)) {}
  LogField(std::string_view k, const std::string& v) : key(k), value(v) {}
  LogField(std::string_view k, bool v) : key(k), value(v) {}
  LogField(std::string_view k, double v) : key(k), value(v) {}
  template <typename I,
            typename = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>>>
  LogField(std::string_view k, I v) : key(k), value(static_cast<int64_t>(v)) {}
  std::string_view key;
  Value value;
};

void LogEvent(LogLevel level, std::string_view event, std::string_view msg,
              std::initializer_list<LogField> fields = {});

// A library's log text (possibly a fragment of a line, possibly several
// lines): each complete line becomes one event at `level`.
void LogExternal(std::string_view source, LogLevel level, std::string_view text);

// Flushes what is buffered (call before exit).
void FlushLog();

}  // namespace nunchi
