// `nunchi bench --compare a,b,c` end to end: the real nunchi binary, a real
// llama-server, a tiny random-weight model ($NUNCHI_TEST_MODEL, or one it
// generates with `nunchi make-model --shape tiny`), 2 cycles of a smaller
// normal load. Skips when llama-server is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/llama_server.h"
#include "bench/test_files.h"

namespace nunchi::bench {
namespace {

namespace fs = std::filesystem;

using test_files::Read;

std::string Model() {
  if (const char* m = std::getenv("NUNCHI_TEST_MODEL"); m != nullptr && *m)
    return fs::exists(m) ? m : "";
  const std::string path = (fs::temp_directory_path() / "nunchi-bench-compare-tiny.gguf").string();
  if (fs::exists(path)) return path;
  const std::string tmp = path + "." + std::to_string(getpid());
  const std::string cmd =
      std::string(NUNCHI_BINARY) + " make-model --shape tiny --out '" + tmp + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0 || !fs::exists(tmp)) return "";
  fs::rename(tmp, path);
  return path;
}

TEST(BenchCompare, ThreeArmsOnTheTinyModel) {
  if (FindLlamaServer().empty()) GTEST_SKIP() << "llama-server not installed";
  const std::string model = Model();
  ASSERT_FALSE(model.empty()) << "no tiny model";
  const std::string out =
      (fs::temp_directory_path() / ("nunchi-bench-compare-" + std::to_string(getpid()))).string();
  fs::remove_all(out);
  fs::create_directories(out);
  // The normal load, smaller: 3 spots with bundles of 4 comments, 3 new signals a cycle.
  std::string load = Read(NUNCHI_LOADS_DIR "/normal.toml");
  for (auto [key, value] : {std::pair{"spots = 6", "spots = 3"},
                            {"new_signals_per_cycle = 6", "new_signals_per_cycle = 3"},
                            {"hot_spots = 6", "hot_spots = 3"},
                            {"initial_comments = 10", "initial_comments = 4"}}) {
    const size_t at = load.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    load.replace(at, std::string(key).size(), value);
  }
  std::ofstream(out + "/small.toml") << load;
  const std::string cmd =
      std::string(NUNCHI_BINARY) + " bench --load '" + out +
      "/small.toml' --cycles 2 --interval 2 --seed 7 --compare a,b,c --model '" + model +
      "' --threads 1 --concurrency 2 --slot-ctx 2048 --no-progress --out '" + out + "/run' >'" +
      out + "/stdout.txt' 2>'" + out + "/stderr.txt'";
  const std::string run = out + "/run";
  const auto start = std::chrono::steady_clock::now();
  const int rc = std::system(cmd.c_str());
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string stdout_text = Read(out + "/stdout.txt");
  ASSERT_EQ(rc, 0) << stdout_text << Read(out + "/stderr.txt");
  std::cout << stdout_text << "(took " << took << " s)\n";

  // Each arm ran the same load and wrote its own results.
  for (const char* arm : {"a", "b", "c"}) {
    auto r = nlohmann::json::parse(Read(run + "/" + arm + "/results.json"));
    EXPECT_EQ(r["summary"]["cycles"], 2) << arm;
    EXPECT_EQ(r["load"]["seed"], 7) << arm;
    EXPECT_EQ(r["conditions"]["concurrency"], 2) << arm;
    EXPECT_EQ(r["conditions"]["quantization"], "F16") << arm;  // from the file
    EXPECT_EQ(r["conditions"]["random_weights"], true) << arm;
    EXPECT_FALSE(r["conditions"]["engine_version"].get<std::string>().empty()) << arm;
    EXPECT_TRUE(fs::exists(run + "/" + arm + "/report.html")) << arm;
  }
  auto a = nlohmann::json::parse(Read(run + "/a/results.json"));
  EXPECT_EQ(a["conditions"]["client"], "nunchi");
  EXPECT_EQ(a["conditions"]["judge_chain"].get<std::string>().rfind("cascade(llama", 0), 0u);
  EXPECT_NE(a["conditions"]["server_args"].get<std::string>().find("--parallel 2"),
            std::string::npos);
  auto b = nlohmann::json::parse(Read(run + "/b/results.json"));
  EXPECT_NE(b["conditions"]["client"].get<std::string>().find("naive"), std::string::npos);
  auto c = nlohmann::json::parse(Read(run + "/c/results.json"));
  EXPECT_NE(c["conditions"]["judge_chain"].get<std::string>().find("llama-server"),
            std::string::npos);
  // (c)'s tokens come from the llama-server behind nunchi.
  EXPECT_FALSE(c["summary"]["tokens_prefilled"].is_null());
  EXPECT_TRUE(fs::exists(run + "/b/llama-server.log"));
  EXPECT_TRUE(fs::exists(run + "/c/llama-server.log"));

  // The comparison: three arms that ran, and the ratios to (a).
  auto j = nlohmann::json::parse(Read(run + "/compare.json"));
  ASSERT_EQ(j["arms"].size(), 3u);
  for (const auto& arm : j["arms"]) {
    EXPECT_TRUE(arm["ran"].get<bool>()) << arm["arm"];
    EXPECT_EQ(arm["summary"]["requests"].get<int>() >= 1, true) << arm["arm"];
  }
  EXPECT_EQ(j["threads"], 1);
  EXPECT_EQ(j["concurrency"], 2);
  EXPECT_EQ(j["context_total"], 4096);
  for (const char* name : {"b/a P50", "b/a P95", "c/a P50", "c/a P95"}) {
    ASSERT_TRUE(j["ratios"].contains(name)) << name;
    const auto& r = j["ratios"][name];
    EXPECT_EQ(r["text"].get<std::string>().rfind(name, 0), 0u) << r;
    if (r["bound"] != "unknown") {
      EXPECT_GT(r["value"].get<double>(), 0) << r;
    }
  }
  const std::string csv = Read(run + "/compare.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_TRUE(fs::exists(run + "/compare.html"));
  EXPECT_NE(stdout_text.find("b/a P95"), std::string::npos);
  EXPECT_NE(stdout_text.find("c/a P50"), std::string::npos);
  fs::remove_all(out);
}

// The batch-prompting sweep: each point runs nunchi on the tiny model with
// `serve --bundles-per-call N` and records N.
TEST(BenchSweep, BundlesPerCallOnTheTinyModel) {
  const std::string model = Model();
  ASSERT_FALSE(model.empty()) << "no tiny model";
  const std::string out =
      (fs::temp_directory_path() / ("nunchi-bench-bpc-" + std::to_string(getpid()))).string();
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string cmd =
      std::string(NUNCHI_BINARY) +
      " bench --load '" NUNCHI_LOADS_DIR
      "/normal.toml' --cycles 2 --interval 2 --seed 5 --server-args '--model " +
      model + " --threads 1 --parallel 2' --sweep-bundles-per-call 1,3 --no-progress --out '" +
      out + "/run' >'" + out + "/stdout.txt' 2>'" + out + "/stderr.txt'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << Read(out + "/stdout.txt") << Read(out + "/stderr.txt");
  std::istringstream csv(Read(out + "/run/sweep.csv"));
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("label,load,concurrency,bundle_cap,prefix_reuse,bundles_per_call,", 0),
            0u);
  std::vector<std::string> labels;
  while (std::getline(csv, line)) labels.push_back(line.substr(0, line.find(',')));
  EXPECT_EQ(labels, (std::vector<std::string>{"bpc1", "bpc3"}));
  for (int n : {1, 3}) {
    const std::string dir = out + "/run/bpc" + std::to_string(n);
    auto r = nlohmann::json::parse(Read(dir + "/results.json"));
    EXPECT_EQ(r["summary"]["cycles"], 2) << n;
    EXPECT_EQ(r["conditions"]["bundles_per_call"], n);
    EXPECT_NE(r["conditions"]["server_args"].get<std::string>().find("--bundles-per-call " +
                                                                     std::to_string(n)),
              std::string::npos);
    const std::string chain = r["conditions"]["judge_chain"];
    // --model makes the cascade the default route; its LLM is the in-process one.
    EXPECT_EQ(chain.rfind("cascade(llama", 0), 0u) << chain;
    EXPECT_EQ(chain.find("3 bundles per call") != std::string::npos, n == 3) << chain;
    EXPECT_GT(r["summary"]["spots_ok"].get<int>(), 0) << n;
  }
  fs::remove_all(out);
}

}  // namespace
}  // namespace nunchi::bench
