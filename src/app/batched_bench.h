// The reference engine of `bench-engine --parts versus`: finds the pinned
// llama.cpp's llama-batched-bench and runs it on one batch shape as a child
// process (ops/child_process.h), reading its jsonl line. Also the best-of and
// median the ratio table is made of. Called from the bench's one thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nunchi {

struct Speeds {
  double prefill = 0, decode = 0;  // tokens per second, all sequences together
  // nunchi only: engine thread time per llama_decode call and sampling per call,
  // the llama_decode calls of the run and the decodes a sequence sat out.
  double decode_ms_per_call = 0, sample_ms_per_call = 0;
  uint64_t decode_calls = 0, loop_holds = 0;
};

// One llama-batched-bench shape: -m model -t threads -c ctx -b/-ub batch
// -npp npp -ntg ntg -npl npl -fa off (and -kvu when kv_unified).
struct BatchedBenchArgs {
  std::string model;
  int threads = 2;
  int ctx = 2048;
  int batch = 512;
  int npp = 256;
  int ntg = 32;
  int npl = 1;
  bool kv_unified = false;
};

// llama-batched-bench of the pinned llama.cpp: `flag` if set, then
// $NUNCHI_LLAMA_BATCHED_BENCH, $NUNCHI_LLAMA_DIR/bin, then the bin/ of the
// install this binary was built against (the one scripts/setup-llama.sh made).
// "" when none exists.
std::string FindBatchedBench(const std::string& flag);

// Runs one shape; its speeds by npl. Empty on failure (*error says why).
std::map<int, Speeds> RunBatchedBench(const std::string& bin, const BatchedBenchArgs& args,
                                      std::string* error);

double Median(std::vector<double> v);
double Best(const std::vector<double>& v);

}  // namespace nunchi
