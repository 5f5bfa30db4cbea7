// make-model: writes a GGUF model with random weights on a real tokenizer
// vocabulary (llama.cpp's models/ggml-vocab-qwen2.gguf), llama architecture,
// with a ChatML chat template, optionally quantized. Used to test and
// benchmark the engine without shipping or downloading weights: the shapes
// are real, the answers are noise.
//
// Pure function of its options (plus the file system); safe from any thread,
// but writes big files (qwen3-0.6b: ~1 GB F16 before quantization).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/status.h"

namespace nunchi::llama {

// A model shape. Head dimension is width / heads.
struct ModelShape {
  std::string name;
  int layers = 0;
  int width = 0;  // embedding length
  int ffn = 0;    // feed-forward length
  int heads = 0;
  int kv_heads = 0;
  int context = 0;  // trained context length written into the file
};

// "tiny" (2 layers, width 64: loads in milliseconds; for tests) and
// "qwen3-0.6b" (28 layers, width 1024, FFN 3072, 16 heads, 8 KV heads,
// ~508 M parameters with tied embeddings).
std::vector<ModelShape> KnownShapes();

struct MakeModelOptions {
  std::string shape = "tiny";
  std::string out;            // output .gguf path (written atomically)
  std::string quant = "F16";  // F32 | F16 | Q8_0 | Q4_K_M
  std::string vocab;          // tokenizer source; empty = the one setup-llama.sh installed
  uint64_t seed = 42;
  int threads = 0;     // quantization threads; 0 = all cores
  bool quiet = false;  // no progress on stderr
};

// The vocabulary installed by scripts/setup-llama.sh (compiled-in path).
std::string DefaultVocabPath();

// Writes the model; kInvalidArgument for an unknown shape or quant, kIo when
// a file cannot be read or written.
Status MakeModel(const MakeModelOptions& options);

// CLI entry point: runs MakeModel, prints the error, returns an exit code.
int RunMakeModel(const MakeModelOptions& options);

}  // namespace nunchi::llama
