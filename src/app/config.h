// Layered configuration for every subcommand: built-in defaults < a TOML file
// (--config FILE or NUNCHI_CONFIG) < NUNCHI_* environment variables < the
// command line. Each long option --foo-bar has the environment twin
// NUNCHI_FOO_BAR and the TOML key foo_bar (or foo-bar), at the top level or in
// a table named after the subcommand ([serve]).
//
// Call once per process, on the main thread, before parsing.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace nunchi {

// Rewrites argv so that CLI11 sees file values first, then environment
// values, then the real arguments; options take the last value given. On a
// bad config file, returns false with *error set.
bool LayerArguments(CLI::App& app, int argc, char** argv, std::vector<std::string>* out,
                    std::string* error);

// The environment variable name for a long option name ("data-dir" -> NUNCHI_DATA_DIR).
std::string EnvName(const std::string& long_name);

}  // namespace nunchi
