#include "llm/forced_text.h"

#include <gtest/gtest.h>

#include <vector>

namespace nunchi::llm {
namespace {

const std::vector<std::string> kIds = {"#2", "#3"};

std::string Forced(const std::string& so_far) {
  auto f = ForcedContinuation(kIds, so_far);
  return f ? f->text : "<invalid>";
}

TEST(ForcedTextTest, LiteralsAndUnambiguousEnumsAreForced) {
  EXPECT_EQ(Forced(""), R"({"#2":{"r":")");
  EXPECT_EQ(Forced(R"({"#2":{"r":")"), "");  // IRRELEVANT or RELEVANT: a choice
  EXPECT_EQ(Forced(R"({"#2":{"r":"I)"), R"(RRELEVANT"},"#3":{"r":")");
  EXPECT_EQ(Forced(R"({"#2":{"r":"R)"), R"(ELEVANT","l":")");
  EXPECT_EQ(Forced(R"({"#2":{"r":"RELEVANT","l":"M)"), R"(EDIUM","c":")");
  EXPECT_EQ(Forced(R"({"#2":{"r":"RELEVANT","l":"LOW","c":"P)"), R"(EAK_TIME","t":")");
  EXPECT_EQ(Forced(R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":"비)"), "");
  EXPECT_EQ(Forced(R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":"비")"), R"(},"#3":{"r":")");
  auto last = ForcedContinuation(kIds, R"({"#2":{"r":"IRRELEVANT"},"#3":{"r":"IR)");
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->text, R"(RELEVANT"}})");
  EXPECT_TRUE(last->complete);
  EXPECT_FALSE(ForcedContinuation(kIds, "")->complete);
}

TEST(ForcedTextTest, FullCauseTextForcesItsEnd) {
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += "줄";
  EXPECT_EQ(Forced(R"({"#2":{"r":"IRRELEVANT"},"#3":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")" +
                   forty),
            "\"}}");
  EXPECT_EQ(Forced(R"({"#2":{"r":"IRRELEVANT"},"#3":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")" +
                   forty + "x"),
            "<invalid>");
}

TEST(ForcedTextTest, RejectsWhatTheGrammarRejects) {
  EXPECT_EQ(Forced(" "), "<invalid>");
  EXPECT_EQ(Forced(R"({"#3")"), "<invalid>");
  EXPECT_EQ(Forced(R"({"#2":{"r":"X)"), "<invalid>");
  EXPECT_EQ(Forced(R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":"a\)"), "<invalid>");
  EXPECT_EQ(Forced(R"({"#2":{"r":"IRRELEVANT"},"#3":{"r":"IRRELEVANT"}})"), "");
  EXPECT_EQ(Forced(R"({"#2":{"r":"IRRELEVANT"},"#3":{"r":"IRRELEVANT"}}x)"), "<invalid>");
}

TEST(ForcedTextTest, ForcedTextNeverContradictsAValidAnswerAndCoversMostOfIt) {
  const std::string answer =
      R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"CONSTRUCTION","t":"출구 폐쇄로 우회 인파"},)"
      R"("#3":{"r":"IRRELEVANT"}})";
  // Replay: the model "chooses" one byte where nothing is forced.
  std::string so_far;
  size_t forced_bytes = 0;
  while (so_far.size() < answer.size()) {
    auto f = ForcedContinuation(kIds, so_far);
    ASSERT_TRUE(f.has_value()) << so_far;
    ASSERT_EQ(answer.compare(so_far.size(), f->text.size(), f->text), 0)
        << "forced '" << f->text << "' after '" << so_far << "'";
    if (f->text.empty()) {
      so_far += answer[so_far.size()];
    } else {
      so_far += f->text;
      forced_bytes += f->text.size();
    }
  }
  EXPECT_TRUE(ForcedContinuation(kIds, so_far)->complete);
  EXPECT_GT(forced_bytes * 10, (answer.size() - std::string("출구 폐쇄로 우회 인파").size()) * 8)
      << forced_bytes << " of " << answer.size();
}

TEST(ForcedTextTest, NoTargets) {
  std::vector<std::string> none;
  auto f = ForcedContinuation(none, "");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->text, "{}");
  EXPECT_TRUE(f->complete);
}

}  // namespace
}  // namespace nunchi::llm
