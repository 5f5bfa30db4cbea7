// The `nunchi bench-engine` subcommand: measures LlamaEngine on a model and
// prints one JSON object per measurement (--parts picks them):
//   throughput  prefill and decode tokens/s, llama-bench style (-p, -n, -t),
//               one sequence and N in lockstep; compare with llama.cpp's
//               llama-batched-bench on the same model and threads;
//   grammar     per-step sampling + grammar time against the decode step;
//   growing     prompt tokens computed vs reused on a bundle that grows by
//               one comment per cycle;
//   dharma      a batch with a share of looping requests, guard off, cutting,
//               and cutting plus the loop hold: wall time and healthy
//               latency against the loop-free batch (app/bench_dharma.h).
// Figures and commands: docs/benchmarks.md. Call AddBenchEngineCommand once
// while building the CLI, from the main thread.
#pragma once

#include <CLI/CLI.hpp>

namespace nunchi {

void AddBenchEngineCommand(CLI::App& app);

}  // namespace nunchi
