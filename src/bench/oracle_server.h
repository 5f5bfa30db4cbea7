// OracleServer: a SIMULATED model for measuring the cascade without real
// weights. An OpenAI-compatible server on 127.0.0.1 (POST /v1/chat/completions,
// non-streamed) that knows the gold labels of labeled bundles and answers each
// judged signal with its gold label with probability p, and with a wrong one
// otherwise (an IRRELEVANT signal becomes RELEVANT at a random level; a
// RELEVANT one becomes IRRELEVANT or another level, half and half). It reads
// the judge prompt the real remote judge sends (llm/prompt.h: the "Spot:"
// line, the "#i uN HH:MM: text" thread lines and the "Judge:" ids) and finds
// each target by spot, post and text. Which signals it gets wrong is a fixed
// function of (seed, signal), so runs repeat. Latency: call_ms + item_ms per
// judged item. Every figure measured with it is a simulation and says so.
//
// Threading: answers on cpp-httplib's threads; counters are atomics. Starts in
// the constructor, stops in the destructor.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "judges/bundles_jsonl.h"

namespace nunchi::bench {

struct OracleOptions {
  double p = 0.9;  // probability of the gold label per signal
  uint64_t seed = 1;
  int call_ms = 0;  // latency per request
  int item_ms = 0;  // and per judged item
};

class OracleServer {
 public:
  OracleServer(const std::vector<judges::LabeledBundle>& bundles, OracleOptions options);
  ~OracleServer();
  OracleServer(const OracleServer&) = delete;
  OracleServer& operator=(const OracleServer&) = delete;

  std::string base_url() const;  // http://127.0.0.1:PORT/v1
  uint64_t requests() const { return requests_.load(); }
  uint64_t items() const { return items_.load(); }
  uint64_t unknown_items() const { return unknown_.load(); }  // not found in the labeled set

  // The key a signal is found by (exposed for tests).
  static std::string Key(std::string_view spot_line, std::string_view post_text,
                         std::string_view text);

 private:
  struct Impl;
  std::string Answer(const std::string& user_message);

  std::unordered_map<std::string, judges::SignalLabel> gold_;
  OracleOptions options_;
  std::atomic<uint64_t> requests_{0}, items_{0}, unknown_{0};
  std::unique_ptr<Impl> impl_;
};

}  // namespace nunchi::bench
