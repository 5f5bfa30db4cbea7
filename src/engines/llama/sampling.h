// SamplingParams: how the engine chooses among the tokens a grammar allows.
// A plain value with no llama.cpp types, so that engine.h (and everything
// above the engine) never includes llama.h. Safe to copy between threads.
#pragma once

#include <cstdint>

namespace nunchi::llama {

struct SamplingParams {
  float temperature = 0.0f;  // <= 0: greedy
  int top_k = 40;
  float top_p = 0.95f;
  float repeat_penalty = 1.0f;  // 1: off
  uint32_t seed = 1;
};

}  // namespace nunchi::llama
