// The `nunchi bench-engine` subcommand: measures LlamaEngine's prefill and
// decode throughput on a model (llama-bench style: -p prompt tokens, -n
// generated tokens, -t threads), for one sequence and for N parallel ones,
// and prints one JSON object per measurement; then the per-token sampling
// and grammar cost against the decode step, and the prompt tokens a bundle
// growing by one comment per cycle computes against those it reuses. Compare with llama.cpp's
// llama-batched-bench on the same model and threads (docs/benchmarks.md).
// Call AddBenchEngineCommand once while building the CLI, from the main thread.
#pragma once

#include <CLI/CLI.hpp>

namespace nunchi {

void AddBenchEngineCommand(CLI::App& app);

}  // namespace nunchi
