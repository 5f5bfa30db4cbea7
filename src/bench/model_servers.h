// `nunchi bench --model-servers 1,2,4`: the remote pool's bundle affinity
// measured on loopback. For each round, for each server count N, for each
// affinity setting (interleaved: on, off, on, off, ...), it starts N fresh
// llama-servers on the model (`-m M -t T -np P -c P x slot_ctx --metrics`,
// cold prompt caches), a fresh `nunchi serve --route remote,default
// --backend llama-server --base-url ... --remote-affinity on|off`, plays the
// load, and scrapes every llama-server's /metrics around each cycle
// (llamacpp:prompt_tokens_total is the prompt tokens computed, not taken
// from the cache). Each point writes OUT/<label>/ like any run; the points
// go to OUT/model_servers.csv and a Markdown table on stdout.
//
// Thread-safety: one call at a time; blocks until every point is over.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.h"

namespace nunchi::bench {

struct ModelServersArgs {
  BenchArgs bench;                       // load, nunchi binary, server args, out dir, conditions
  std::vector<int> servers = {1, 2, 4};  // llama-servers per point
  std::vector<std::string> affinity = {"on", "off"};
  int rounds = 1;            // the whole interleave, repeated
  std::string llama_server;  // empty: FindLlamaServer()
  int threads = 1;           // -t of each llama-server
  int parallel = 2;          // -np of each (and --remote-concurrency)
  int slot_ctx = 4096;       // context per slot
  double ready_timeout_s = 600;
};

// One point's figures per measured cycle (warm-up excluded).
struct ModelServersPoint {
  std::string label;
  int servers = 0;
  std::string affinity;
  int round = 0;
  Summary summary;
  double prompt_per_cycle = -1;  // mean llamacpp:prompt_tokens_total delta, all servers
  double cached_per_cycle = -1;  // mean llamacpp:prompt_tokens_cached_total delta
  double generated_per_cycle = -1;
  double busiest_share = -1;  // the busiest server's share of prompt tokens computed
  std::string error;
};

// The CSV of the points (one line each, header first).
std::string ModelServersCsv(const std::vector<ModelServersPoint>& points);
// The Markdown table of the points.
std::string ModelServersTable(const std::vector<ModelServersPoint>& points);
// Per-cycle figures of one point from its cycles' counter deltas.
void FillTokenFigures(const std::vector<CycleResult>& cycles, int servers, ModelServersPoint* p);

// Returns the process exit code (0 when every point ran).
int RunModelServersCommand(ModelServersArgs args);

}  // namespace nunchi::bench
