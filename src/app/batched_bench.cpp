#include "app/batched_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "ops/child_process.h"

namespace nunchi {

// llama-batched-bench of the pinned llama.cpp: --batched-bench,
// $NUNCHI_LLAMA_BATCHED_BENCH, $NUNCHI_LLAMA_DIR/bin, then the bin/ of the
// install this binary was built against (the one scripts/setup-llama.sh made).
std::string FindBatchedBench(const std::string& flag) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates = {flag};
  if (const char* p = std::getenv("NUNCHI_LLAMA_BATCHED_BENCH")) candidates.emplace_back(p);
  if (const char* d = std::getenv("NUNCHI_LLAMA_DIR"))
    candidates.push_back(std::string(d) + "/bin/llama-batched-bench");
#ifdef NUNCHI_LLAMA_BIN_DIR
  candidates.push_back(std::string(NUNCHI_LLAMA_BIN_DIR) + "/llama-batched-bench");
#endif
  std::error_code ec;
  for (const auto& c : candidates)
    if (!c.empty() && fs::exists(c, ec)) return c;
  return "";
}

// One llama-batched-bench run of one shape (npp prompt tokens, npl
// sequences); its jsonl line by npl. Empty on failure (*error says why).
std::map<int, Speeds> RunBatchedBench(const std::string& bin, const BatchedBenchArgs& o,
                                      std::string* error) {
  const std::string out = (std::filesystem::temp_directory_path() /
                           ("nunchi-batched-bench-" + std::to_string(getpid()) + ".log"))
                              .string();
  std::vector<std::string> argv = {bin,
                                   "-m",
                                   o.model,
                                   "-t",
                                   std::to_string(o.threads),
                                   "-c",
                                   std::to_string(o.ctx),
                                   "-b",
                                   std::to_string(o.batch),
                                   "-ub",
                                   std::to_string(o.batch),
                                   "-npp",
                                   std::to_string(o.npp),
                                   "-ntg",
                                   std::to_string(o.ntg),
                                   "-npl",
                                   std::to_string(o.npl),
                                   "-fa",
                                   "off",
                                   "--output-format",
                                   "jsonl"};
  if (o.kv_unified) argv.push_back("-kvu");
  ChildProcess child;
  std::map<int, Speeds> got;
  if (!child.Spawn(argv, SpawnOptions(out), error)) return got;
  int code = -1;
  while (!child.Exited(&code)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ifstream f(out);
  auto number = [](const std::string& line, const std::string& key) {
    const size_t at = line.find("\"" + key + "\":");
    return at == std::string::npos ? -1.0 : std::atof(line.c_str() + at + key.size() + 3);
  };
  std::string all;
  for (std::string line; std::getline(f, line);) {
    all += line + "\n";
    if (line.find("\"speed_tg\"") == std::string::npos) continue;
    got[static_cast<int>(number(line, "pl"))] = {number(line, "speed_pp"),
                                                 number(line, "speed_tg")};
  }
  std::filesystem::remove(out);
  if (code != 0 || got.empty()) {
    *error = "llama-batched-bench exited " + std::to_string(code) + ": " +
             all.substr(all.size() > 1500 ? all.size() - 1500 : 0);
    got.clear();
  }
  return got;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
double Best(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

}  // namespace nunchi
