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

std::string TempLog(const char* name) {
  auto path = std::filesystem::temp_directory_path() /
              ("nunchi-decisions-" + std::to_string(::getpid()) + "-" + name + ".jsonl");
  std::filesystem::remove(path);
  return path.string();
}

// A kill -9 inside a write leaves a fragment without its newline. The next
// process must not glue its first line onto it, and the reader skips it.
TEST(DecisionLog, AFragmentLeftByAKillStaysOnItsOwnLine) {
  const std::string path = TempLog("fragment");
  {
    std::ofstream f(path);
    f << "{\"ts\":\"x\",\"signal_id\":\"c0\"}\n{\"ts\":\"2026-12-01T00:00:00Z\",\"sig";
  }
  {
    auto log = DecisionLog::Open(path, false);
    ASSERT_TRUE(log.ok());
    (*log)->Write({"r1", "s1", "c1", "failed:DEADLINE", nullptr, 0.5, nullptr});
    (*log)->Write({"r1", "s1", "c2", "failed:DEADLINE", nullptr, 0.5, nullptr});
  }
  size_t torn = 0;
  std::vector<std::string> lines = ReadDecisionLog(path, &torn);
  EXPECT_EQ(torn, 1u);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[1].find("\"signal_id\":\"c1\""), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("\"signal_id\":\"c2\""), std::string::npos) << lines[2];
  std::filesystem::remove(path);
}

// Each line is in the file (the kernel's page cache) when Write returns, with
// the log still open: nothing waits in a user-space buffer for a kill to lose.
TEST(DecisionLog, EachLineIsInTheFileWhenWriteReturns) {
  const std::string path = TempLog("unbuffered");
  auto log = DecisionLog::Open(path, true);
  ASSERT_TRUE(log.ok());
  const std::string text(20000, 'x');  // longer than any stdio buffer
  for (int i = 0; i < 3; ++i) {
    (*log)->Write({"r", "s", "c" + std::to_string(i), "failed:DEADLINE", nullptr, 0, &text});
    size_t torn = 0;
    EXPECT_EQ(ReadDecisionLog(path, &torn).size(), static_cast<size_t>(i + 1));
    EXPECT_EQ(torn, 0u);
  }
  log->reset();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace nunchi
