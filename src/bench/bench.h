// The `nunchi bench` driver: runs a load once or as a sweep (concurrency,
// bundle cap, prefix reuse on/off, bundles per model call, judge route), records the execution
// conditions and the model's identity, and writes results.json, cycles.csv and report.html per run
// (and sweep.csv for sweeps) into the output directory.
//
// Thread-safety: one call at a time; blocks until every run is over.
#pragma once

#include <string>
#include <vector>

#include "bench/results.h"
#include "bench/runner.h"

namespace nunchi::bench {

struct BenchArgs {
  RunOptions run;                               // load, target, server, naive client
  Conditions conditions;                        // from flags; the model identity is filled in here
  std::string out_dir = "out/bench";            // /out/ is git-ignored
  std::vector<int> sweep_concurrency;           // empty: no sweep
  std::vector<int> sweep_bundle_cap;            // empty: no sweep
  std::vector<std::string> sweep_prefix_reuse;  // "on", "off"; empty: no sweep
  std::vector<int> sweep_bundles_per_call;      // batch prompting; empty: no sweep
  std::vector<std::string> sweep_route;         // serve --route per point; empty: no sweep
  std::vector<int> sweep_escalation_wait_ms;    // serve --escalation-wait-ms; empty: no sweep
  std::vector<int> sweep_background_chunk;      // serve --background-chunk; empty: no sweep
};

// Returns the process exit code (0 when every run finished).
int RunBenchCommand(BenchArgs args);

// Fills the model identity (size, FNV-1a 64 hash, general.name, random
// weights when the GGUF says "nunchi-random-") from c->model_file, and the
// quantization from its header when c->quantization is "n/a".
bool IdentifyModel(Conditions* c, std::string* error);

// Fills the host description and this process's command line.
void DescribeRun(Conditions* c);

// Prints the one-line summary of a run on stdout.
void PrintRunLine(const LoadSpec& load, const std::string& label, const Summary& s,
                  const std::string& dir);

// Writes the three result files of one run into `dir`.
bool WriteResults(const std::string& dir, const LoadSpec& load, const Conditions& c,
                  const Summary& s, const std::vector<CycleResult>& cycles, std::string* error);

}  // namespace nunchi::bench
