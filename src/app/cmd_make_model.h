// The `nunchi make-model` subcommand: writes a random-weight GGUF on the
// Qwen2 tokenizer (engines/llama/make_model.h). Call AddMakeModelCommand
// once while building the CLI, from the main thread; the callback runs the
// command and exits with its status.
#pragma once

#include <CLI/CLI.hpp>

namespace nunchi {

void AddMakeModelCommand(CLI::App& app);

}  // namespace nunchi
