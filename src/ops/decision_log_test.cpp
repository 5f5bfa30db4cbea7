#include "ops/decision_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace nunchi {
namespace {

std::string WriteAndRead(const std::vector<DecisionEntry>& entries) {
  auto path = std::filesystem::temp_directory_path() /
              ("nunchi-decisions-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl");
  std::filesystem::remove(path);
  {
    auto log = DecisionLog::Open(path.string(), false);
    EXPECT_TRUE(log.ok());
    for (const auto& e : entries) (*log)->Write(e);
  }
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::filesystem::remove(path);
  return ss.str();
}

TEST(DecisionLog, WritesMeasuredConfidence) {
  Judgment j;
  j.relevance = Relevance::kRelevant;
  j.level = Level::kHigh;
  j.judge = "classifier";
  j.relevance_confidence = 0.9312;
  j.level_confidence = 0.25;
  std::string text = WriteAndRead({{"r1", "s1", "c1", "judged", &j, 0.001, nullptr}});
  EXPECT_NE(text.find("\"relevance_confidence\":0.9312"), std::string::npos) << text;
  EXPECT_NE(text.find("\"level_confidence\":0.2500"), std::string::npos) << text;
}

TEST(DecisionLog, LeavesOutConfidenceThatWasNotMeasured) {
  Judgment j;  // kNoConfidence, as an LLM judge leaves it
  j.judge = "llama";
  std::string text = WriteAndRead({{"r1", "s1", "c1", "judged", &j, 0.001, nullptr},
                                   {"r1", "s1", "c2", "failed:DEADLINE", nullptr, 0.5, nullptr}});
  EXPECT_EQ(text.find("confidence"), std::string::npos) << text;
  EXPECT_NE(text.find("\"signal_id\":\"c2\""), std::string::npos) << text;
}

}  // namespace
}  // namespace nunchi
