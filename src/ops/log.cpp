#include "ops/log.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

namespace nunchi {
namespace {

std::atomic<LogFormat> g_format{LogFormat::kJson};
std::mutex g_mu;  // guards g_logger replacement
std::shared_ptr<spdlog::logger> g_logger;

spdlog::level::level_enum ToSpd(LogLevel l) {
  switch (l) {
    case LogLevel::kTrace:
      return spdlog::level::trace;
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarn:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
    case LogLevel::kOff:
      return spdlog::level::off;
  }
  return spdlog::level::info;
}

std::shared_ptr<spdlog::logger> MakeLogger(LogFormat format, LogLevel level, std::ostream* out) {
  spdlog::sink_ptr sink;
  if (out)
    sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(*out, /*force_flush=*/true);
  else
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto logger = std::make_shared<spdlog::logger>("nunchi", sink);
  // spdlog writes the time (RFC 3339, UTC, milliseconds) and the level; the
  // event and its fields come as %v, already serialized.
  logger->set_pattern(format == LogFormat::kJson
                          ? R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l",%v})"
                          : "%Y-%m-%dT%H:%M:%S.%e%z %l %v",
                      spdlog::pattern_time_type::utc);
  logger->set_level(ToSpd(level));
  logger->flush_on(spdlog::level::trace);  // each line is written at once (crash-safe)
  return logger;
}

std::shared_ptr<spdlog::logger> Logger() {
  std::lock_guard lock(g_mu);
  if (!g_logger) g_logger = MakeLogger(LogFormat::kJson, LogLevel::kInfo, nullptr);
  return g_logger;
}

nlohmann::json ToJson(const LogField::Value& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

std::string ToText(const LogField::Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) {
    if (s->find_first_of(" \"=") == std::string::npos && !s->empty()) return *s;
    return nlohmann::json(*s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return ToJson(v).dump();
}

}  // namespace

bool ParseLogLevel(std::string_view name, LogLevel* level) {
  static const std::pair<std::string_view, LogLevel> kNames[] = {
      {"trace", LogLevel::kTrace}, {"debug", LogLevel::kDebug}, {"info", LogLevel::kInfo},
      {"warn", LogLevel::kWarn},   {"error", LogLevel::kError}, {"off", LogLevel::kOff}};
  for (const auto& [n, l] : kNames)
    if (n == name) return *level = l, true;
  return false;
}

bool ParseLogFormat(std::string_view name, LogFormat* format) {
  if (name == "json") return *format = LogFormat::kJson, true;
  if (name == "text") return *format = LogFormat::kText, true;
  return false;
}

void ConfigureLog(LogFormat format, LogLevel level, std::ostream* out) {
  auto logger = MakeLogger(format, level, out);
  std::lock_guard lock(g_mu);
  g_format = format;
  g_logger = std::move(logger);
}

bool LogEnabled(LogLevel level) { return Logger()->should_log(ToSpd(level)); }

void LogEvent(LogLevel level, std::string_view event, std::string_view msg,
              std::initializer_list<LogField> fields) {
  auto logger = Logger();
  if (!logger->should_log(ToSpd(level))) return;
  std::string line;
  if (g_format == LogFormat::kJson) {
    nlohmann::ordered_json j;
    j["event"] = event;
    j["msg"] = msg;
    for (const LogField& f : fields) j[std::string(f.key)] = ToJson(f.value);
    line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line = line.substr(1, line.size() - 2);  // the braces come from the pattern
  } else {
    line.append(event).append(" ").append(msg);
    for (const LogField& f : fields)
      line.append(" ").append(f.key).append("=").append(ToText(f.value));
  }
  logger->log(ToSpd(level), "{}", line);
}

void LogExternal(std::string_view source, LogLevel level, std::string_view text) {
  // Fragments of one line arrive in several calls on the same thread.
  thread_local std::string pending;
  thread_local LogLevel pending_level = LogLevel::kInfo;
  if (pending.empty()) pending_level = level;
  pending.append(text);
  size_t nl;
  while ((nl = pending.find('\n')) != std::string::npos) {
    std::string line = pending.substr(0, nl);
    pending.erase(0, nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) LogEvent(pending_level, "external", line, {{"source", source}});
    pending_level = level;
  }
}

void FlushLog() { Logger()->flush(); }

}  // namespace nunchi
