#include "ops/decision_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

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

namespace {

// Writes all of data, or as much as the file takes; false when cut short.
bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<DecisionLog>> DecisionLog::Open(const std::string& path, bool log_texts) {
  if (path.empty()) return std::unique_ptr<DecisionLog>(nullptr);
  if (path == "-") return std::unique_ptr<DecisionLog>(new DecisionLog(2, false, log_texts));
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status(ErrorCode::kIo, "cannot open decision log " + path);
  std::unique_ptr<DecisionLog> log(new DecisionLog(fd, true, log_texts));
  // A previous process killed inside a write left a fragment without its
  // newline: end it, so that the first line of this one stays whole.
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    char last = '\n';
    int rd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (rd >= 0) {
      if (::pread(rd, &last, 1, st.st_size - 1) != 1) last = '\n';
      ::close(rd);
    }
    if (last != '\n') log->torn_ = true;
  }
  return log;
}

DecisionLog::~DecisionLog() {
  if (owned_) ::close(fd_);
}

std::vector<std::string> ReadDecisionLog(const std::string& path, size_t* torn) {
  std::vector<std::string> lines;
  if (torn) *torn = 0;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.front() == '{' && nlohmann::json::accept(line)) {
      lines.push_back(std::move(line));
    } else if (torn) {
      ++*torn;
    }
  }
  return lines;
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
  if (torn_) line.insert(line.begin(), '\n');
  // One write(2): in the kernel before Write returns, whole unless cut short.
  torn_ = !WriteAll(fd_, line.data(), line.size());
}

}  // namespace nunchi
