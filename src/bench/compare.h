// `nunchi bench --compare a,b,c`: plays one load (same seed, cycles and
// interval) against up to three systems, one after another in one run, on
// the same model file, threads and concurrency C:
//   (a) `nunchi serve --model M --threads T --parallel C`, the in-process engine;
//   (b) llama-server (`-m M -t T -np C -c C×slot_ctx --metrics`) judged by the
//       naive client, one /v1/chat/completions call per new signal;
//   (c) a fresh llama-server started the same way, driven by `nunchi serve
//       --backend llama-server --base-url URL/v1 --remote-concurrency C`.
// Every arm starts its servers fresh (fresh data directory, fresh
// llama-server) and writes its own results into OUT/<arm>/; the comparison
// goes to OUT/compare.json, compare.csv, compare.html and a table on stdout.
// The execution conditions are recorded from the model file, the binaries'
// versions and the settings, not from hand-typed labels.
//
// Thread-safety: one call at a time; blocks until every arm is over.
#pragma once

#include <string>
#include <vector>

#include "bench/runner.h"

namespace nunchi::bench {

struct CompareArgs {
  std::vector<std::string> arms;         // "a", "b", "c": any subset, run in that order
  RunOptions run;                        // load, nunchi binary, timeout, progress, naive options
  std::vector<std::string> server_args;  // extra `nunchi serve` arguments for (a) and (c)
  std::string model;                     // the GGUF file every arm serves (required)
  int threads = 0;                       // llama.cpp threads in every arm (0: online CPUs)
  int concurrency = 6;                   // sequences / slots / calls at once in every arm
  int slot_ctx = 4096;                   // context per sequence; total C × slot_ctx
  std::string llama_server;              // empty: FindLlamaServer()
  std::string quantization;              // empty or "n/a": read from the model file
  std::string out_dir = "out/compare";
  double ready_timeout_s = 600;  // llama-server's model load
};

// Parses "a,b,c" (any non-empty subset, any order, no repeats) into the run
// order a, b, c. False and *error on anything else.
bool ParseArms(const std::string& list, std::vector<std::string>* arms, std::string* error);

// Runs the arms and writes the comparison. Returns the process exit code
// (0 when every arm ran to the end).
int RunCompareCommand(CompareArgs args);

}  // namespace nunchi::bench
