#include "llm/degeneration_guard.h"

#include <gtest/gtest.h>

#include "llm/prompt.h"

namespace nunchi::llm {
namespace {

std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(DegenerationGuardTest, TripsOnATokenLoop) {
  DegenerationGuard guard;
  std::vector<int32_t> prefix = {5, 9, 13, 2, 77, 31};
  for (int32_t t : prefix) EXPECT_FALSE(guard.AddToken(t));
  std::vector<int32_t> block = {101, 102, 103, 104, 105, 106, 107, 108};  // period 8
  int fed = 0;
  while (!guard.tripped() && fed < 200) guard.AddToken(block[fed++ % block.size()]);
  ASSERT_TRUE(guard.tripped());
  EXPECT_EQ(guard.loop()->period, 8u);
  EXPECT_GE(guard.loop()->repeats(), 3u);
  EXPECT_EQ(fed, 24);  // three copies, as early as the thresholds allow
  guard.Reset();
  EXPECT_FALSE(guard.tripped());
  EXPECT_EQ(guard.units(), 0u);
}

TEST(DegenerationGuardTest, TripsOnASingleTokenRunOnlyWhenLong) {
  DegenerationGuard guard;
  for (int i = 0; i < 47; ++i) EXPECT_FALSE(guard.AddToken(42)) << i;
  EXPECT_TRUE(guard.AddToken(42));
  EXPECT_EQ(guard.loop()->period, 1u);
}

TEST(DegenerationGuardTest, TripsOnRepeatedText) {
  DegenerationGuard guard(DegenerationOptions::ForText());
  EXPECT_FALSE(
      guard.AddText("{\"#2\":{\"r\":\"RELEVANT\",\"l\":\"HIGH\",\"c\":\"EVENT\",\"t\":\""));
  bool tripped = false;
  for (int i = 0; i < 20 && !tripped; ++i) tripped = guard.AddText("줄이 너무 길어요 ");
  EXPECT_TRUE(tripped);
  EXPECT_EQ(guard.loop()->period, 10u);
}

TEST(DegenerationGuardTest, TripsOnWhitespacePadding) {
  DegenerationGuard guard(DegenerationOptions::ForText());
  guard.AddText("{\"#2\":");
  EXPECT_TRUE(guard.AddText(std::string(200, ' ')));
  DegenerationGuard lines(DegenerationOptions::ForText());
  lines.AddText("{");
  EXPECT_TRUE(lines.AddText(Repeat("\n  ", 40)));
}

TEST(DegenerationGuardTest, TripsOnIrregularWhitespacePadding) {
  // What a random-weight model produced under llama-server's JSON grammar.
  const std::string padding = "\n\t\t         \t\t\t\t  \n \t\t  \t \n\n\t   ";
  DegenerationGuard guard(DegenerationOptions::ForText());
  guard.AddText(R"({"#2":{"r":)");
  EXPECT_TRUE(guard.AddText(padding));
  EXPECT_EQ(guard.loop()->period, 1u);
  EXPECT_TRUE(IsCapDegeneration(true, R"({"#2":{"r":)" + padding));
  // What it produced with gaps capped at 22 whitespace characters each.
  std::string gaps = R"({"#2":)";
  for (int i = 0; i < 4; ++i) {
    gaps += "\n" + std::string(20, '\t') + R"({"r":)" + "\n\n" + std::string(8, '\t') + " " +
            std::string(8, '\t') + "  " + R"("IRRELEVANT"},)";
  }
  DegenerationGuard gapped(DegenerationOptions::ForText());
  EXPECT_TRUE(gapped.AddText(gaps));
  EXPECT_TRUE(IsCapDegeneration(true, gaps.substr(0, gaps.rfind('"'))));
  // Pretty-printed JSON and spaces inside cause texts are fine.
  DegenerationGuard pretty(DegenerationOptions::ForText());
  EXPECT_FALSE(
      pretty.AddText("{\n    \"#2\": {\n        \"r\": \"RELEVANT\",\n        \"t\": "
                     "\"줄 이   길어요\"\n    }\n}\n"));
  // Token input has no notion of whitespace: the rule is off there.
  DegenerationGuard tokens;
  for (int i = 0; i < 40; ++i) tokens.AddToken(i % 2 ? 220 : 197);
  EXPECT_FALSE(tokens.tripped());
}

TEST(DegenerationGuardTest, LaughterShorterThanTheThresholdIsFine) {
  DegenerationGuard guard(DegenerationOptions::ForText());
  EXPECT_FALSE(guard.AddText(
      R"({"#2":{"r":"RELEVANT","l":"LOW","c":"NONE","t":")" + Repeat("ㅋ", 40) +
      R"("},"#3":{"r":"RELEVANT","l":"LOW","c":"NONE","t":")" + Repeat("ㅎㅎ", 20) + "\"}}"));
}

TEST(DegenerationGuardTest, RepeatedJsonItemsWithDistinctIdsAreFine) {
  // 20 identical items, compact and pretty-printed: only the ids differ.
  for (const char* sep : {"", "\n  "}) {
    DegenerationGuard guard(DegenerationOptions::ForText());
    std::string answer = "{";
    for (size_t i = 0; i < 20; ++i) {
      answer += std::string(i ? "," : "") + sep + "\"" + LocalId(i) +
                R"(":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":"팝업 대기줄"})";
    }
    answer += "}";
    // Fed in small pieces, splitting code points.
    for (size_t i = 0; i < answer.size(); i += 3) guard.AddText(answer.substr(i, 3));
    EXPECT_FALSE(guard.tripped()) << answer;
  }
  for (const char* item :
       {R"({"r":"IRRELEVANT"})", R"({"r":"RELEVANT","l":"LOW","c":"NONE","t":""})"}) {
    DegenerationGuard guard(DegenerationOptions::ForText());
    guard.AddText("{");
    for (size_t i = 0; i < 20; ++i) {
      guard.AddText(std::string(i ? "," : "") + "\"" + LocalId(i) + "\":" + item);
    }
    EXPECT_FALSE(guard.tripped()) << item;
  }
}

TEST(DegenerationGuardTest, NaturalKoreanTextIsFine) {
  DegenerationGuard guard(DegenerationOptions::ForText());
  EXPECT_FALSE(guard.AddText(
      "출근길 환승통로 상황 공유합니다. 1호선 내려서 2호선 타러 가는 계단 입구부터 사람이 꽉 "
      "막혀서 한 발짝 떼는 데 몇 초씩 걸려요. 월요일 아침이라 원래 붐비는 건 아는데 오늘은 "
      "평소보다 훨씬 심한 느낌이에요. 계단 계단 계단, 사람 사람 사람."));
}

TEST(DegenerationGuardTest, SplitCodePointsAreReassembled) {
  DegenerationGuard a(DegenerationOptions::ForText()), b(DegenerationOptions::ForText());
  std::string text = "가나다라";
  a.AddText(text);
  for (char c : text) b.AddText(std::string(1, c));
  EXPECT_EQ(a.units(), 4u);
  EXPECT_EQ(b.units(), 4u);
}

TEST(DegenerationGuardTest, CapDegeneration) {
  std::vector<int32_t> looping = {1, 2, 3, 4, 5};
  for (int i = 0; i < 10; ++i) {
    for (int32_t t : {7, 8, 9, 10, 11, 12}) looping.push_back(t);
  }
  EXPECT_TRUE(IsCapDegeneration(true, looping));
  EXPECT_FALSE(IsCapDegeneration(false, looping));
  std::vector<int32_t> varied;
  for (int i = 0; i < 64; ++i) varied.push_back(i * 7 % 61);
  EXPECT_FALSE(IsCapDegeneration(true, varied));
  // A loop that stopped before the end is not a repeating tail.
  std::vector<int32_t> recovered = looping;
  for (int i = 100; i < 140; ++i) recovered.push_back(i);
  EXPECT_FALSE(IsCapDegeneration(true, recovered));
  EXPECT_TRUE(IsCapDegeneration(true, std::string("{\"#2\":") + Repeat("같은 말 ", 8)));
  EXPECT_FALSE(IsCapDegeneration(true, std::string("{\"#2\":{\"r\":\"RELEVANT\",\"l\":\"HI")));
  auto tail = FindTailRepeat(looping, DegenerationOptions::ForCap());
  ASSERT_TRUE(tail.has_value());
  EXPECT_EQ(tail->period, 6u);
}

}  // namespace
}  // namespace nunchi::llm
