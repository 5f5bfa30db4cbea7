#include "ops/decision_log.h"

#include <chrono>
#include <cstdio>

#include "domain/time.h"

namespace nunchi {

std::string JsonEscape(const std::string& s) {
  std::string o;
  o.reserve(s.size() + 8);
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

Result<std::unique_ptr<DecisionLog>> DecisionLog::Open(const std::string& path, bool log_texts) {
  if (path.empty()) return std::unique_ptr<DecisionLog>(nullptr);
  if (path == "-") return std::unique_ptr<DecisionLog>(new DecisionLog(stderr, false, log_texts));
  FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return Status(ErrorCode::kIo, "cannot open decision log " + path);
  return std::unique_ptr<DecisionLog>(new DecisionLog(f, true, log_texts));
}

DecisionLog::~DecisionLog() {
  if (owned_) std::fclose(f_);
}

void DecisionLog::Write(const DecisionEntry& e) {
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  std::string line = "{\"ts\":\"" + FormatUtc(now) + "\",\"request_id\":\"" +
                     JsonEscape(e.request_id) + "\",\"spot_id\":\"" + JsonEscape(e.spot_id) +
                     "\",\"signal_id\":\"" + JsonEscape(e.signal_id) + "\",\"outcome\":\"" +
                     JsonEscape(e.outcome) + "\"";
  if (e.judgment) {
    const Judgment& j = *e.judgment;
    line += ",\"judge\":\"" + JsonEscape(j.judge) + "\",\"model\":\"" + JsonEscape(j.model) +
            "\",\"prompt_version\":\"" + JsonEscape(j.prompt_version) + "\",\"relevance\":\"" +
            std::string(ToString(j.relevance)) + "\",\"level\":\"" +
            std::string(ToString(j.level)) + "\",\"cause\":\"" + std::string(ToString(j.cause)) +
            "\"";
    char conf[96];
    if (j.relevance_confidence >= 0) {
      std::snprintf(conf, sizeof conf, ",\"relevance_confidence\":%.4f", j.relevance_confidence);
      line += conf;
    }
    if (j.level_confidence >= 0) {
      std::snprintf(conf, sizeof conf, ",\"level_confidence\":%.4f", j.level_confidence);
      line += conf;
    }
  }
  char lat[32];
  std::snprintf(lat, sizeof lat, "%.6f", e.latency_s);
  line += ",\"latency_s\":" + std::string(lat);
  if (log_texts_ && e.text) line += ",\"text\":\"" + JsonEscape(*e.text) + "\"";
  line += "}\n";
  std::lock_guard lock(mu_);
  std::fwrite(line.data(), 1, line.size(), f_);
  std::fflush(f_);
}

}  // namespace nunchi
