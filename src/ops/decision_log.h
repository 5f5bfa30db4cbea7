// DecisionLog: one JSON line per judgment (request id, signal id, judge,
// versions, outcome, relevance_confidence and level_confidence when the judge
// measured them, latency; the text only when configured) appended to a
// file. Thread-safe: a mutex serialises writes.
//
// Durability (docs/reliability.md, "The decision log at a kill"): each line
// goes to the kernel in one write(2) on an O_APPEND descriptor before Write
// returns, so a process kill loses no line that was written; the service
// writes a judgment's line before it commits the row, hence before any
// answer carries it. Lines are not fsync'd: power loss may lose the last
// seconds. A line cut short (kill -9 inside a write of more than a page,
// disk full) is left as a fragment on a line of its own: the next line, or
// the next process opening the file, starts on a new line. Readers skip a
// line that does not parse (ReadDecisionLog).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "domain/contract.h"
#include "domain/status.h"

namespace nunchi {

struct DecisionEntry {
  std::string request_id;
  std::string spot_id;
  std::string signal_id;
  std::string outcome;                 // "judged", "reused", "stale", "failed:<CODE>"
  const Judgment* judgment = nullptr;  // null when failed
  double latency_s = 0;
  const std::string* text = nullptr;  // logged only when the log was opened with texts
};

class DecisionLog {
 public:
  // path "" disables the log; "-" writes to stderr. A file that does not end
  // in a newline (a line torn by a kill) gets one first.
  static Result<std::unique_ptr<DecisionLog>> Open(const std::string& path, bool log_texts);
  ~DecisionLog();
  void Write(const DecisionEntry& e);

 private:
  DecisionLog(int fd, bool owned, bool log_texts) : fd_(fd), owned_(owned), log_texts_(log_texts) {}
  std::mutex mu_;
  int fd_;
  bool owned_;
  bool log_texts_;
  bool torn_ = false;  // the last write was cut short: start the next on a new line
};

// The lines of a decision log that parse as JSON objects, in order; *torn
// (optional) counts the lines that do not (fragments left by a kill).
std::vector<std::string> ReadDecisionLog(const std::string& path, size_t* torn = nullptr);

// Escapes s as the inside of a JSON string.
std::string JsonEscape(const std::string& s);

}  // namespace nunchi
