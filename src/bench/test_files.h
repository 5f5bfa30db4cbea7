// Small file helpers shared by the bench's end-to-end tests, which read what
// a `nunchi bench` run wrote.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace nunchi::bench::test_files {

// The whole file; empty when it cannot be read.
inline std::string Read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace nunchi::bench::test_files
