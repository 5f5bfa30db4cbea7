// DecisionLog: one JSON line per judgment (request id, signal id, judge,
// versions, outcome, relevance_confidence and level_confidence when the judge
// measured them, latency; the text only when configured) appended to a
// file. Thread-safe: a mutex serialises writes; each line is flushed whole.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

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
  // path "" disables the log; "-" writes to stderr.
  static Result<std::unique_ptr<DecisionLog>> Open(const std::string& path, bool log_texts);
  ~DecisionLog();
  void Write(const DecisionEntry& e);

 private:
  DecisionLog(FILE* f, bool owned, bool log_texts) : f_(f), owned_(owned), log_texts_(log_texts) {}
  std::mutex mu_;
  FILE* f_;
  bool owned_;
  bool log_texts_;
};

// Escapes s as the inside of a JSON string.
std::string JsonEscape(const std::string& s);

}  // namespace nunchi
