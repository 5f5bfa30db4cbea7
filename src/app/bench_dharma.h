// The Dharma experiment of `nunchi bench-engine --parts dharma`: a batch of
// N requests submitted together, k % of which loop (the injected fault: an
// unconstrained greedy generation, which repeats on a random-weight model),
// against the loop-free batch, the same N requests of which none loops (the
// would-be loops answer under the judge's grammar instead). Three engines:
// the degeneration guard off, the guard cutting loops, and the guard cutting
// plus the loop hold (engines/llama/loop_hold.h). Each prints one JSON line
// per round and one summary line: batch wall time and the healthy requests'
// mean latency as ratios against the loop-free batch, and against the
// healthy requests alone. Figures: docs/benchmarks.md.
#pragma once

#include <string>

namespace nunchi {

struct DharmaOptions {
  std::string model;
  int threads = 2;
  int batch = 8;             // requests in a batch
  double loop_share = 0.25;  // of them that loop
  int loop_cap = 256;        // token cap of a looping request
  int rounds = 3;            // per engine; each round has new healthy texts
  int hold_span = 8;         // loop hold: tokens of a 2-copy tail that make a suspect
  int hold_steps = 64;       // loop hold: decodes one request may sit out
};

// Returns a process exit code; prints JSON lines on stdout, errors on stderr.
int RunDharma(const DharmaOptions& options);

}  // namespace nunchi
