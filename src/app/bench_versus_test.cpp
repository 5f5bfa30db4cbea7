// `nunchi bench-engine --parts versus` end to end on a tiny random-weight
// model (label: model): it runs llama-batched-bench itself, interleaved with
// nunchi's own runs, and reports every shape for both engines and their
// ratios. No speed is asserted here, only that the comparison is complete
// and that nunchi made the same decode calls as the reference.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "binary_test_util.h"

namespace nunchi {
namespace {

namespace fs = std::filesystem;

using testing::CommandOutput;

TEST(BenchVersus, BothEnginesInEveryShapeWithRatios) {
  const fs::path dir = fs::temp_directory_path() / ("nunchi-versus-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string model = testing::MakeTinyModel(dir);
  ASSERT_FALSE(model.empty());
  const std::string out =
      CommandOutput(std::string(NUNCHI_BINARY) + " bench-engine --model '" + model +
                    "' -t 1 --parts versus --rounds 2 --npp 32,64 --npl 1,2 -n 4 2>" +
                    (dir / "err.txt").string());
  std::ifstream err_file(dir / "err.txt");
  std::stringstream err;
  err << err_file.rdbuf();
  fs::remove_all(dir);
  std::map<std::string, std::set<std::pair<int, int>>> shapes;
  std::map<std::string, int> lines;
  int summaries = 0;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["part"] == "versus") {
      EXPECT_GT(j["prefill_tok_s"].get<double>(), 0) << line;
      EXPECT_GT(j["decode_tok_s"].get<double>(), 0) << line;
      shapes[j["engine"]].insert({j["npp"].get<int>(), j["npl"].get<int>()});
      ++lines[j["engine"]];
      if (j["engine"] == "nunchi") {
        // The reference's schedule: one prefill call (every shape fits one
        // batch of 512) and one call per generated token, no sequence
        // sitting out (the loop hold is off, the sequences in lockstep).
        // (Fewer only if every sequence sampled its end-of-text early.)
        EXPECT_LE(j["decode_calls"].get<int>(), 1 + 4) << line;
        EXPECT_GE(j["decode_calls"].get<int>(), 2) << line;
        EXPECT_EQ(j["loop_holds"].get<int>(), 0) << line;
        // A fresh engine per measurement, as each reference run is a fresh
        // process (--one-engine keeps one).
        EXPECT_EQ(j["one_engine"], false) << line;
      }
    } else if (j["part"] == "versus-summary") {
      ++summaries;
      EXPECT_EQ(j["rounds"], 2);
      for (const char* k : {"prefill_ratio_best", "prefill_ratio_median", "decode_ratio_best",
                            "decode_ratio_median"}) {
        const double r = j[k].get<double>();
        EXPECT_TRUE(std::isfinite(r) && r > 0) << k << " " << line;
      }
    }
  }
  const std::set<std::pair<int, int>> want = {{32, 1}, {32, 2}, {64, 1}, {64, 2}};
  EXPECT_EQ(shapes["nunchi"], want) << out << err.str();
  EXPECT_EQ(shapes["llama-batched-bench"], want) << out << err.str();
  EXPECT_EQ(lines["nunchi"], 8);  // 2 rounds x 4 shapes
  EXPECT_EQ(lines["llama-batched-bench"], 8);
  EXPECT_EQ(summaries, 4);
  EXPECT_NE(err.str().find("PP ratio best"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace nunchi
