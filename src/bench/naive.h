// NaiveClient: the comparison client (b). Instead of nunchi, it calls an
// OpenAI-compatible llama-server itself, once per new signal, with the
// instructions and the whole bundle in the prompt and a strict json_schema
// for the answer, at a fixed concurrency, within the 50 s deadline. A spot is
// OK when every one of its new signals got a valid answer in time. It counts
// the tokens llama-server reports (prompt, cached, completion) as counters
// named nunchi_bench_naive_*_total so they are read like engine metrics, and
// the calls the deadline cut (not answered in time) as
// nunchi_bench_naive_deadline_cut_calls_total.
//
// Thread-safety: Analyze() is called from one thread; it runs its own
// worker threads and joins them before it returns.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bench/prom.h"

namespace nunchi::bench {

struct NaiveOptions {
  std::string url;                // e.g. http://127.0.0.1:8080
  std::string model = "nunchi";   // the "model" field
  int concurrency = 1;            // requests at once
  int max_tokens = 48;            // output token cap per signal
  double deadline_s = 50;         // per cycle
  int cache_prompt = -1;          // -1: leave to the server, 0: off, 1: on
  std::string instructions_file;  // empty: built-in instructions
};

class NaiveClient {
 public:
  explicit NaiveClient(NaiveOptions o);
  // Judges the request's new signals; returns a contract-shaped body with one
  // spot per spot of the request (OK or FAILED) and adds token counts to *counters.
  nlohmann::json Analyze(const nlohmann::json& request, Series* counters);
  const std::string& instructions() const { return instructions_; }

 private:
  NaiveOptions o_;
  std::string instructions_;
};

// The user message for one signal: the spot, the whole bundle, the signal to judge.
std::string NaivePrompt(const nlohmann::json& spot, const nlohmann::json& bundle,
                        const std::string& signal_id);

}  // namespace nunchi::bench
