// Test support for the model tests: the tiny random-weight model, generated
// on first use into the build directory (NUNCHI_TEST_MODEL_DIR) and shared by
// every test process, and engine options sized for it. Thread-safe.
#pragma once

#include <string>

#include "engines/llama/engine.h"

namespace nunchi::llama::testing {

// Path of the tiny model (shape "tiny", F16), written atomically if absent.
const std::string& TinyModelPath();
// A fresh directory under the build dir for one test's files.
std::string ScratchDir(const std::string& name);
// Options for an engine on the tiny model: 1 thread, 4 active sequences.
EngineOptions TinyEngineOptions();

}  // namespace nunchi::llama::testing
