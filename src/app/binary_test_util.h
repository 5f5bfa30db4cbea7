// Test-only helpers for the tests that drive the `nunchi` binary
// (NUNCHI_BINARY) as a user would: run a command and take its stdout, and
// generate the tiny random-weight model they judge with.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace nunchi::testing {

// The command's standard output (its exit status is not checked here).
inline std::string CommandOutput(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  return out;
}

// `nunchi make-model --shape tiny` into dir/tiny.gguf; its path, or "" on failure.
inline std::string MakeTinyModel(const std::filesystem::path& dir) {
  const std::string model = (dir / "tiny.gguf").string();
  const std::string cmd =
      std::string(NUNCHI_BINARY) + " make-model --shape tiny --out '" + model + "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? model : "";
}

}  // namespace nunchi::testing
