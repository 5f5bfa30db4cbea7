// SamplingParams: how the engine chooses among the tokens a grammar allows.
// The type is llm::SamplingParams (llm/text_engine.h), a plain value with no
// llama.cpp types, so that engine.h (and everything above the engine) never
// includes llama.h. Safe to copy between threads.
#pragma once

#include "llm/text_engine.h"

namespace nunchi::llama {

using SamplingParams = llm::SamplingParams;

}  // namespace nunchi::llama
