// Layered configuration for every subcommand: built-in defaults < a TOML file
// (--config FILE or NUNCHI_CONFIG) < NUNCHI_* environment variables < the
// command line. Each long option --foo-bar has the environment twin
// NUNCHI_FOO_BAR and the TOML key foo_bar (or foo-bar), at the top level or in
// a table named after the subcommand ([serve]).
//
// Nothing is ignored silently: a TOML key no subcommand has, a key in a
// [table] its subcommand lacks, a table that is no subcommand, and a NUNCHI_*
// variable that is no option's twin (nor one of the few documented others)
// are errors that name them. Numeric options get ranges (CheckNumericRanges).
//
// Exit codes of the binary (main.cpp, README): 0 ok, 1 runtime error, 2 usage
// or configuration error.
//
// Call once per process, on the main thread, before parsing.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

namespace nunchi {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

// Rewrites argv so that CLI11 sees file values first, then environment
// values, then the real arguments; options take the last value given. On a
// bad config file, an unknown key or an unknown NUNCHI_* variable, returns
// false with *error set. *sources (optional) maps a long option name to where
// its layered value came from ("environment NUNCHI_PORT=abc"), so that a
// parse error can name it.
bool LayerArguments(CLI::App& app, int argc, char** argv, std::vector<std::string>* out,
                    std::string* error, std::map<std::string, std::string>* sources = nullptr);

// The environment variable name for a long option name ("data-dir" -> NUNCHI_DATA_DIR).
std::string EnvName(const std::string& long_name);

// NUNCHI_* names read outside the option layering (the config file, API keys,
// llama.cpp's log switch, the build and test scripts).
bool IsDocumentedEnvName(const std::string& name);

// Gives every numeric option of app and its subcommands that has no check of
// its own a range: ports 0..65535; durations (-ms, timeout, deadline,
// interval, hours) > 0; every other number (sizes, counts, threads) >= 0.
void CheckNumericRanges(CLI::App& app);

// The message for a parse error, with the environment variable or config key
// named when the bad value came from one of them.
std::string DescribeParseError(const CLI::Error& e,
                               const std::map<std::string, std::string>& sources);

}  // namespace nunchi
