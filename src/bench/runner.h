// RunBench: plays the backend against a nunchi server (one it starts, or a
// given URL) or, for the comparison, against llama-server through the naive
// client, for the cycles of a load on a fixed schedule. A cycle that is late
// delays nothing: the ticks it overran are merged into the next request and
// show up as start lag (backlog). Scrapes /metrics before and after each
// request (and the llama-servers' behind it, when given), and once more at
// the start and the end of the measured cycles. Prints a progress bar
// on stderr.
//
// Thread-safety: one run per call; blocks until the run is over.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/load.h"
#include "bench/naive.h"
#include "bench/results.h"

namespace nunchi::bench {

struct RunOptions {
  LoadSpec load;
  std::string target;                    // nunchi URL; empty: start one
  std::string binary;                    // nunchi executable for a managed server
  std::vector<std::string> server_args;  // extra `serve` arguments
  std::string work_dir;                  // logs and data directories
  bool naive = false;                    // use the naive llama-server client
  NaiveOptions naive_options;
  double timeout_s = 55;  // the backend gives up after this
  bool progress = true;
  std::string id_prefix;  // keeps ids unique per run
  // llama-servers behind the target (nunchi's remote backend): their /metrics
  // counters (llamacpp:*) are scraped too, as nunchi_bench_llama_server_*;
  // with several, each series is labelled server="<index from 0>".
  std::vector<std::string> upstream_urls;
  // Called on the bench's thread before each cycle's request, with the
  // cycle's index (the replica mode kills and restarts a replica here).
  std::function<void(int cycle_index)> before_cycle;
};

// Runs the load; fills *cycles and the target/banner fields of *conditions.
// Returns false with *error when the run could not start at all. run_deltas,
// when given, receives the counter deltas from a scrape before the first
// measured cycle to one after the last (late work between cycles included).
bool RunBench(const RunOptions& o, Conditions* conditions, std::vector<CycleResult>* cycles,
              std::string* error, Series* run_deltas = nullptr);

}  // namespace nunchi::bench
