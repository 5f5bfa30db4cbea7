// Everyday forms of level and cause words the twentieth round of issue 13 added to the
// rule passes (made on the spent blind-50..61): quiet times and opening runs, counts
// against minutes, the writer's few, dialect forms, expectations, formal questions.
#include <gtest/gtest.h>

#include "judges/rule_passes.h"
#include "judges/rule_passes_test_support.h"

namespace nunchi::judges {
namespace {

TEST_F(RulePassesTest, AQuietTimeOrAnOpeningRunIsNoCauseOfACrowdUnlessGivenAsTheReason) {
  // (The fixture's spot is an event venue: a crowd with no cause of its own takes EVENT.)
  EXPECT_EQ(Run("소아과 오픈런 했는데 벌써 대기실 꽉 찼어요").judgment.cause, Cause::kEvent);
  EXPECT_EQ(Run("평일 저녁인데도 테이블 꽉 차 있어요").judgment.cause, Cause::kEvent);
  EXPECT_EQ(Run("새벽 6시부터 줄 섰는데 앞에 서른 명").judgment.cause, Cause::kEvent);
  EXPECT_EQ(Run("팝업 오픈런 왔는데 줄 끝이 안 보여요").judgment.cause, Cause::kEvent);
  // Given as the reason, the time is the cause; other time words stay causes.
  EXPECT_EQ(Run("오픈런 시간이라 그런지 대기실 꽉 찼어요").judgment.cause, Cause::kPeakTime);
  EXPECT_EQ(Run("주말 저녁 테이블 꽉 차 있어요").judgment.cause, Cause::kPeakTime);
  // A quiet report keeps the old reading of a weekday given as the reason.
  EXPECT_EQ(Run("평일이라 한산해요").judgment.cause, Cause::kPeakTime);
}

TEST_F(RulePassesTest, WhereACountAndMinutesBothSayHighTheMinutesAreTheWait) {
  for (std::string_view text :
       {"앞에 아홉 팀 남음. 한 40분 기다린 듯", "지금 대기 20명으로 줄음 그래도 30분은 걸릴듯"}) {
    RuleVerdict v = Run(text);
    EXPECT_EQ(v.judgment.level, Level::kHigh) << text;
    ASSERT_TRUE(v.wait) << text;
    EXPECT_EQ(v.wait->unit, WaitInfo::kMinutes) << text;
  }
  // A count that says more than short minutes keeps the count's level.
  RuleVerdict v = Run("앞에 세 명 2분이면 돼요");
  ASSERT_TRUE(v.wait);
  EXPECT_EQ(v.judgment.level, Level::kLow);
}

TEST_F(RulePassesTest, TheFewTheWriterCountsVoidTheCrowdWordsBeforeThem) {
  for (std::string_view text :
       {"셔틀 줄 엄청나네요 ^^ 저 포함 두 명 ㅋㅋㅋ", "도움센터 사람 진짜 많네요^^ 저 포함 2명",
        "월요일 아침 여기는 항상 헬인데 오늘은 웬일로 한산하네요"}) {
    RuleVerdict v = Run(text);
    EXPECT_EQ(v.judgment.relevance, Relevance::kRelevant) << text;
    EXPECT_EQ(v.judgment.level, Level::kLow) << text;
  }
  EXPECT_EQ(Run("셔틀 줄 엄청나네요 ^^ 저 포함 스무 명은 서 있어요").judgment.level, Level::kHigh);
}

TEST_F(RulePassesTest, DialectAndListFormsOfALongQueueAreHigh) {
  for (std::string_view text :
       {"줄 진짜 길어유", "줄은 여전히 길고요", "줄 억수로 길어예", "캐스팅할 공간이 없어요"})
    EXPECT_EQ(Run(text).judgment.level, Level::kHigh) << text;
}

TEST_F(RulePassesTest, WhatTheWriterExpectedWhenComingIsNoReport) {
  EXPECT_EQ(Run("사람 많을 줄 알고 책까지 챙겨왔는데 5분도 안 걸림ㅋㅋ").judgment.level,
            Level::kLow);
  EXPECT_EQ(Run("한산할 줄 알고 왔는데 아직 대기 8팀이네요").judgment.level, Level::kMedium);
}

TEST_F(RulePassesTest, FormalQuestionsNoticesAndEmptyTables) {
  EXPECT_EQ(Run("민원실 지금 사람 많습니까? 재발급 하려는데요").judgment.relevance,
            Relevance::kIrrelevant);
  EXPECT_EQ(Run("민원실 지금 사람 많습니다").judgment.level, Level::kHigh);
  // 충청 questions end in 유 (twenty-fourth round).
  EXPECT_EQ(Run("지금 사람 많나유 들어갈수있나유").judgment.relevance, Relevance::kIrrelevant);
  EXPECT_EQ(Run("[door] 내부 정원 초과, 입장 일시 제한합니다").judgment.level, Level::kHigh);
  EXPECT_EQ(Run("ㅇㅇ 빈 테이블 천지예요").judgment.level, Level::kLow);
  EXPECT_EQ(Run("테이블 10개 중에 2개만 차있음").judgment.level, Level::kLow);
  EXPECT_EQ(Run("사람 천지예요").judgment.level, Level::kHigh);
}

TEST_F(RulePassesTest, AQuietWordSizesASmallQueueAsQuiet) {
  EXPECT_EQ(Run("생각보다 한산하네유~ 줄 다섯명?").judgment.level, Level::kLow);
  EXPECT_EQ(Run("코트가 여유롭습니다. 어르신들 두 팀만 치고 계십니다").judgment.level, Level::kLow);
  // Without the quiet word, or with a wait in minutes, the figure decides.
  EXPECT_EQ(Run("줄 다섯명 서 있어요").judgment.level, Level::kMedium);
  EXPECT_EQ(Run("생각보다 한산하네요 대기 15분").judgment.level, Level::kMedium);
  EXPECT_EQ(Run("8시 50분에 도착했는데 5초컷").judgment.level, Level::kLow);  // seconds
}

TEST_F(RulePassesTest, NoSeatLeftIsCrowdedAndAFewPeopleAnIronicQueue) {
  EXPECT_EQ(Run("대기석 앉을 데 하나도 없음 바닥에 앉아계신 분들도 있어요").judgment.level,
            Level::kHigh);
  EXPECT_EQ(Run("파도풀 사람 반 물 반 선베드 하나도 없음").judgment.level, Level::kHigh);
  EXPECT_EQ(Run("배식 줄 엄청 길어요~ 무려 두 명ㅋㅋㅋ").judgment.level, Level::kLow);
  EXPECT_EQ(Run("[공지] 판다관 혼잡으로 입장을 일시 제한합니다").judgment.level, Level::kHigh);
  EXPECT_EQ(Run("줄 하나도 없음").judgment.level, Level::kLow);  // no queue is still quiet
  EXPECT_EQ(Run("Waiting for the limousine. Only me and one old man here lol").judgment.level,
            Level::kLow);
}

}  // namespace
}  // namespace nunchi::judges
