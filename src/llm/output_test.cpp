#include "llm/output.h"

#include <gtest/gtest.h>

#include <thread>

namespace nunchi::llm {
namespace {

const std::vector<std::string> kIds = {"#2", "#5"};
const JudgmentStamp kStamp{"remote:test", "m1", "judge-v1"};

JudgeOutput Parse(const std::string& answer, OutputCounters* counters = nullptr,
                  ParseOptions options = {}) {
  return ParseJudgeOutput(answer, kIds, kStamp, counters, options);
}

TEST(OutputTest, ParsesCanonicalAnswer) {
  OutputCounters counters;
  auto out = Parse(
      R"({"#2":{"r":"IRRELEVANT"},"#5":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":"팝업 대기줄"}})",
      &counters);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok());
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[0]->relevance, Relevance::kIrrelevant);
  EXPECT_EQ(out[0]->level, Level::kUnknown);
  EXPECT_EQ(out[0]->cause, Cause::kNone);
  EXPECT_EQ(out[1]->relevance, Relevance::kRelevant);
  EXPECT_EQ(out[1]->level, Level::kHigh);
  EXPECT_EQ(out[1]->cause, Cause::kEvent);
  EXPECT_EQ(out[1]->cause_text, "팝업 대기줄");
  EXPECT_EQ(out[1]->judge, "remote:test");
  EXPECT_EQ(out[1]->model, "m1");
  EXPECT_EQ(out[1]->prompt_version, "judge-v1");
  EXPECT_EQ(counters.Total(), 0u);
  EXPECT_EQ(counters.answers(), 1u);
  EXPECT_EQ(counters.failed_answers(), 0u);
}

TEST(OutputTest, CauseTextMayBeLeftOutOnlyWhereItWasNotAsked) {
  OutputCounters counters;
  ParseOptions options;
  options.with_text = {false, true};
  auto out = Parse(
      R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT"},"#5":{"r":"RELEVANT","l":"LOW","c":"NONE"}})",
      &counters, options);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->level, Level::kHigh);
  EXPECT_EQ(out[0]->cause, Cause::kEvent);
  EXPECT_EQ(out[0]->cause_text, "");
  EXPECT_FALSE(out[1].ok());  // #5's text was asked
  EXPECT_EQ(counters.Get(Violation::kBadCauseText), 1u);
  // Without with_text every item needs its text.
  EXPECT_FALSE(
      Parse(R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT"},"#5":{"r":"IRRELEVANT"}})")[0].ok());
}

TEST(OutputTest, ToleratesWhitespace) {
  auto out = Parse(
      "{\n  \"#2\": {\"r\": \"IRRELEVANT\"},\n  \"#5\": {\"r\": \"RELEVANT\", \"l\": "
      "\"LOW\", \"c\": \"NONE\", \"t\": \"\"}\n}\n");
  ASSERT_TRUE(out[0].ok());
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->level, Level::kLow);
}

TEST(OutputTest, IrrelevantForcesUnknownNoneAndEmptyText) {
  OutputCounters counters;
  auto out =
      Parse(R"({"#2":{"r":"IRRELEVANT","l":"HIGH","c":"EVENT","t":"x"},"#5":{"r":"IRRELEVANT"}})",
            &counters);
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->level, Level::kUnknown);
  EXPECT_EQ(out[0]->cause, Cause::kNone);
  EXPECT_EQ(out[0]->cause_text, "");
  EXPECT_EQ(counters.Get(Violation::kIrrelevantWithData), 1u);
}

struct BadCase {
  std::string answer;
  Violation violation;
  bool first_ok;   // whether #2 still stands
  bool second_ok;  // whether #5 still stands
};

TEST(OutputTest, CountsEachViolationKind) {
  const std::string irr = R"({"r":"IRRELEVANT"})";
  const std::vector<BadCase> cases = {
      {"not json", Violation::kNotJson, false, false},
      {R"({"#2":{"r":"IRRELEVANT"}} trailing)", Violation::kNotJson, false, false},
      {"", Violation::kNotJson, false, false},
      {R"([{"r":"IRRELEVANT"}])", Violation::kNotObject, false, false},
      {R"({"#2":)" + irr + "}", Violation::kMissingId, true, false},
      {R"({"#2":)" + irr + R"(,"#5":)" + irr + R"(,"#9":)" + irr + "}", Violation::kUnexpectedId,
       true, true},
      {R"({"#2":)" + irr + R"(,"#2":)" + irr + R"(,"#5":)" + irr + "}", Violation::kDuplicateId,
       false, true},
      {R"({"#5":)" + irr + R"(,"#2":)" + irr + "}", Violation::kOutOfOrder, true, true},
      {R"({"#2":"IRRELEVANT","#5":)" + irr + "}", Violation::kItemNotObject, false, true},
      {R"({"#2":{"r":"MAYBE"},"#5":)" + irr + "}", Violation::kBadRelevance, false, true},
      {R"({"#2":{},"#5":)" + irr + "}", Violation::kBadRelevance, false, true},
      {R"({"#2":{"r":"RELEVANT","l":"HUGE","c":"NONE","t":""},"#5":)" + irr + "}",
       Violation::kBadLevel, false, true},
      {R"({"#2":{"r":"RELEVANT","c":"NONE","t":""},"#5":)" + irr + "}", Violation::kBadLevel, false,
       true},
      {R"({"#2":{"r":"RELEVANT","l":"LOW","c":"RAIN","t":""},"#5":)" + irr + "}",
       Violation::kBadCause, false, true},
      {R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE"},"#5":)" + irr + "}", Violation::kBadCauseText,
       false, true},
      {R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":7},"#5":)" + irr + "}",
       Violation::kBadCauseText, false, true},
      {R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":")" + std::string(41, 'x') +
           R"("},"#5":)" + irr + "}",
       Violation::kCauseTextTooLong, false, true},
      {R"({"#2":{"r":"IRRELEVANT","why":"x"},"#5":)" + irr + "}", Violation::kExtraField, true,
       true},
  };
  for (const auto& c : cases) {
    OutputCounters counters;
    auto out = Parse(c.answer, &counters);
    ASSERT_EQ(out.size(), 2u) << c.answer;
    EXPECT_EQ(counters.Get(c.violation), 1u) << c.answer << " " << ViolationName(c.violation);
    EXPECT_EQ(out[0].ok(), c.first_ok) << c.answer;
    EXPECT_EQ(out[1].ok(), c.second_ok) << c.answer;
    for (const auto& r : out) {
      if (!r.ok()) {
        EXPECT_EQ(r.status().code(), ErrorCode::kInvalidOutput);
      }
    }
    EXPECT_EQ(counters.failed_answers(), c.first_ok && c.second_ok ? 0u : 1u) << c.answer;
  }
}

TEST(OutputTest, CauseTextLengthCountsCodePoints) {
  std::string forty;
  for (int i = 0; i < 40; ++i) forty += "줄";
  auto ok = Parse(R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")" + forty +
                  R"("},"#5":{"r":"IRRELEVANT"}})");
  ASSERT_TRUE(ok[0].ok());
  OutputCounters counters;
  auto cut = Parse(R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")" + forty +
                       R"(끝"},"#5":{"r":"IRRELEVANT"}})",
                   &counters, ParseOptions{.truncate_long_cause_text = true});
  ASSERT_TRUE(cut[0].ok());
  EXPECT_EQ(cut[0]->cause_text, forty);
  EXPECT_EQ(counters.Get(Violation::kCauseTextTooLong), 1u);
}

TEST(OutputTest, RelevantUnknownLevelIsAnAnswer) {
  auto out =
      Parse(R"({"#2":{"r":"RELEVANT","l":"UNKNOWN","c":"NONE","t":""},"#5":{"r":"IRRELEVANT"}})");
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->level, Level::kUnknown);
}

TEST(OutputTest, CountersAreThreadSafe) {
  OutputCounters counters;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) Parse("nope", &counters);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(counters.Get(Violation::kNotJson), 2000u);
  EXPECT_EQ(counters.answers(), 2000u);
}

}  // namespace
}  // namespace nunchi::llm
