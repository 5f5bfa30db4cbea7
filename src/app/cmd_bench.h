// `nunchi bench`: measures a nunchi server (or llama-server through the naive
// client) under the loads in loads/*.toml. Adds itself to the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace nunchi {

void AddBenchCommand(CLI::App& app);

}  // namespace nunchi
