// `nunchi bench-engine --parts dharma` end to end on a tiny random-weight
// model that `nunchi make-model --shape tiny` writes (label: model): the three
// engine settings each report their rounds and a summary, and only the
// settings with the guard cut loops or hold them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary_test_util.h"

namespace nunchi {
namespace {

namespace fs = std::filesystem;

using testing::CommandOutput;

TEST(BenchDharma, ThreeGuardSettingsOnTheTinyModel) {
  const fs::path dir = fs::temp_directory_path() / ("nunchi-dharma-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string model = testing::MakeTinyModel(dir);
  ASSERT_FALSE(model.empty());
  const std::string out =
      CommandOutput(std::string(NUNCHI_BINARY) + " bench-engine --model '" + model +
                    "' -t 1 --parts dharma --dharma-batch 4 --dharma-loop-share 0.5 "
                    "--dharma-loop-cap 96 --dharma-rounds 2 2>/dev/null");
  fs::remove_all(dir);
  std::map<std::string, std::vector<nlohmann::json>> rounds;
  std::map<std::string, nlohmann::json> summaries;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j["part"] == "dharma") rounds[j["guard"]].push_back(j);
    if (j["part"] == "dharma-summary") summaries[j["guard"]] = j;
  }
  for (const char* guard : {"off", "cut", "cut+hold"}) {
    ASSERT_EQ(rounds[guard].size(), 2u) << guard << "\n" << out;
    ASSERT_TRUE(summaries.count(guard)) << guard;
    double sum = 0;
    for (const auto& r : rounds[guard]) {
      EXPECT_EQ(r["looping"], 2);
      const double ratio =
          r["with_loops_wall_s"].get<double>() / r["loop_free_wall_s"].get<double>();
      EXPECT_NEAR(r["wall_ratio"].get<double>(), ratio, 0.02 * ratio) << r.dump();
      EXPECT_GT(r["healthy_ratio"].get<double>(), 0) << r.dump();
      sum += r["healthy_ratio"].get<double>();
    }
    EXPECT_NEAR(summaries[guard]["mean_healthy_ratio"].get<double>(), sum / 2, 0.002);
  }
  for (const auto& r : rounds["off"]) {
    EXPECT_EQ(r["loops_cut"], 0) << r.dump();
    EXPECT_EQ(r["loop_holds"], 0) << r.dump();
    EXPECT_EQ(r["hold_steps"], 0);
  }
  for (const auto& r : rounds["cut"]) EXPECT_EQ(r["loop_holds"], 0) << r.dump();
  for (const auto& r : rounds["cut+hold"]) EXPECT_EQ(r["hold_steps"], 64);
}

}  // namespace
}  // namespace nunchi
