#include "judges/rule_quantity.h"

#include <gtest/gtest.h>

#include <optional>

#include "judges/text_util.h"

namespace nunchi::judges {
namespace {

// The decisive figure of a text as written (compacted first), or nullopt.
std::optional<Figure> First(std::string_view text) {
  auto figs = FindFigures(MakeCompact(text).text);
  if (figs.empty()) return std::nullopt;
  return figs.front();
}

void ExpectWait(std::string_view text, WaitInfo::Unit unit, double amount, Level level) {
  auto f = First(text);
  ASSERT_TRUE(f.has_value()) << text;
  EXPECT_EQ(f->info.unit, unit) << text;
  EXPECT_DOUBLE_EQ(f->info.amount, amount) << text;
  EXPECT_EQ(f->info.level, level) << text;
}

void ExpectNoWait(std::string_view text) {
  auto f = First(text);
  EXPECT_FALSE(f.has_value()) << text << " read as " << f->info.amount;
}

TEST(QuantityTest, EnglishMinutesThatAreNoWait) {
  ExpectNoWait("I'm 5 min away");
  ExpectNoWait("10 mins walk from the station");
  ExpectNoWait("oh no my flight is in 1 hour");
  ExpectNoWait("bus every 10 min");
  ExpectWait("line is 30 min", WaitInfo::kMinutes, 30, Level::kHigh);
  ExpectWait("checkin 20 min", WaitInfo::kMinutes, 20, Level::kMedium);
}

TEST(QuantityTest, TwentyMinutesElapsedIsHigh) {
  ExpectWait("줄 20분째 그대로", WaitInfo::kMinutes, 20, Level::kHigh);
  ExpectWait("이십 분째 기다리는 중", WaitInfo::kMinutes, 20, Level::kHigh);
  ExpectWait("20분 기다렸어요", WaitInfo::kMinutes, 20, Level::kMedium);  // a wait that ended
  ExpectWait("15분째 서 있어요", WaitInfo::kMinutes, 15, Level::kMedium);
}

TEST(QuantityTest, QueuesInTeamsAndPeople) {
  ExpectWait("대기 12팀", WaitInfo::kTeams, 12, Level::kHigh);  // 10+ teams: HIGH (re-fitted)
  ExpectWait("대기 7팀", WaitInfo::kTeams, 7, Level::kMedium);
  ExpectWait("대기 30팀 실화냐", WaitInfo::kTeams, 30, Level::kHigh);
  ExpectWait("앞에 세 팀 남았어요", WaitInfo::kTeams, 3, Level::kMedium);
  ExpectWait("앞에 8명", WaitInfo::kPeople, 8, Level::kMedium);
  ExpectWait("내 앞에 다섯 명", WaitInfo::kPeople, 5, Level::kMedium);  // third round: 4+ MEDIUM
  ExpectWait("내 앞에 세 명", WaitInfo::kPeople, 3, Level::kLow);
  ExpectWait("줄 5명도 안 돼요", WaitInfo::kPeople, 2.5, Level::kLow);     // fewer than five
  ExpectWait("지금 줄 열명도 안돼요", WaitInfo::kPeople, 3, Level::kLow);  // fewer than ten
  ExpectWait("줄 선 사람 열다섯 명", WaitInfo::kPeople, 15, Level::kMedium);
  ExpectWait("줄 선 사람 스무여 명", WaitInfo::kPeople, 20, Level::kHigh);
  ExpectWait("대기 15번째예요", WaitInfo::kTeams, 14, Level::kHigh);
  ExpectWait("대기 8번째예요", WaitInfo::kTeams, 7, Level::kMedium);
}

TEST(QuantityTest, TicketNumbersAndPeopleAhead) {
  ExpectWait("번호표 23번 받았어요", WaitInfo::kTicket, 23, Level::kMedium);
  // My ticket against the number called now: the people ahead.
  ExpectWait("번호표 87번인데 지금 52번 부르네요", WaitInfo::kTeams, 35, Level::kHigh);
  ExpectWait("대기번호 10번 받았는데 현재 9번", WaitInfo::kTeams, 1, Level::kLow);
  // Numbers called ahead: the bounds of teams ahead.
  ExpectWait("번호표 37번 받음 지금 21번 호출중", WaitInfo::kTeams, 16, Level::kHigh);
  ExpectWait("번호표 143번 받았고 지금 137번 부르는 중", WaitInfo::kTeams, 6, Level::kMedium);
  // The called number named as such (twenty-second round, spent blind-66).
  ExpectWait("번호표 93번이고 현재 호출 번호는 89번입니다", WaitInfo::kTeams, 4, Level::kMedium);
  // The same in Sino-Korean words (fifteenth round); "한 번", "두세 번" stay counts of times.
  ExpectWait("번호표가 백십이번이여 지금 칠십팔번 부르고 있구만", WaitInfo::kTeams, 34,
             Level::kHigh);
  ExpectWait("번호표 삼십번 받았어요", WaitInfo::kTicket, 30, Level::kMedium);
  ExpectNoWait("번호표 한 번 더 뽑았어요");
  auto figs = FindFigures(MakeCompact("번호표 10번인데 지금 9번").text);
  ASSERT_EQ(figs.size(), 1u);  // the number called is not a queue of its own
  EXPECT_EQ(figs[0].form, FigureForm::kAhead);
}

TEST(QuantityTest, MinutesAndHoursInKoreanNumerals) {
  ExpectWait("한 시간 반 기다렸어요", WaitInfo::kMinutes, 90, Level::kHigh);
  ExpectWait("삼십분 기다림", WaitInfo::kMinutes, 30, Level::kHigh);
  ExpectWait("사십 분째 줄 서는 중", WaitInfo::kMinutes, 40, Level::kHigh);
  ExpectWait("이십오 분 대기", WaitInfo::kMinutes, 25, Level::kHigh);
  ExpectWait("두 시간째 대기", WaitInfo::kMinutes, 120, Level::kHigh);
  ExpectWait("1시간 30분 기다렸어요", WaitInfo::kMinutes, 90, Level::kHigh);
  ExpectWait("한시간 이십분 걸렸어요", WaitInfo::kMinutes, 80, Level::kHigh);
  EXPECT_EQ(First("사십 분째 줄 서는 중")->form, FigureForm::kKorean);
}

TEST(QuantityTest, SlangAndRunningWaits) {
  ExpectWait("10분컷", WaitInfo::kMinutes, 10, Level::kMedium);
  ExpectWait("1시간째 줄", WaitInfo::kMinutes, 60, Level::kHigh);
  ExpectWait("3시간 전부터 줄 서 있어요", WaitInfo::kMinutes, 180, Level::kHigh);
  ExpectWait("웨이팅 40min", WaitInfo::kMinutes, 40, Level::kHigh);
}

TEST(QuantityTest, RangesTakeTheMiddle) {
  ExpectWait("20~30분 기다려야 해요", WaitInfo::kMinutes, 25, Level::kHigh);
  ExpectWait("대기 30-40분", WaitInfo::kMinutes, 35, Level::kHigh);
  ExpectWait("20분~40분 걸린대요", WaitInfo::kMinutes, 30, Level::kHigh);
  ExpectWait("두세 시간 기다림", WaitInfo::kMinutes, 150, Level::kHigh);
  ExpectWait("이삼십 분 대기", WaitInfo::kMinutes, 25, Level::kHigh);
  ExpectWait("앞에 대략 오륙십명 대기", WaitInfo::kPeople, 55, Level::kHigh);  // 륙 after 오
  ExpectNoWait("착륙 대기 중");
  ExpectWait("십오 분에서 이십 분 기다림", WaitInfo::kMinutes, 17.5, Level::kMedium);
  ExpectWait("5~10팀 대기", WaitInfo::kTeams, 7.5, Level::kMedium);
  EXPECT_EQ(First("20~30분 기다려야 해요")->form, FigureForm::kRange);
}

TEST(QuantityTest, EnglishFigures) {
  ExpectWait("taxi line here is like 20 people", WaitInfo::kPeople, 20, Level::kHigh);
  ExpectWait("now the line's out the door, 20+ people behind me", WaitInfo::kPeople, 20,
             Level::kHigh);
  ExpectWait("the line's still huge, like 30+ min", WaitInfo::kMinutes, 30, Level::kHigh);
  ExpectNoWait("20 people came with me");
}

TEST(QuantityTest, BoundsFittedOnTheWrittenFiles) {
  EXPECT_EQ(WaitLevel(WaitInfo::kTeams, 1), Level::kLow);
  EXPECT_EQ(WaitLevel(WaitInfo::kTeams, 2), Level::kMedium);  // a queue, however short
  EXPECT_EQ(WaitLevel(WaitInfo::kTeams, 8), Level::kMedium);
  EXPECT_EQ(WaitLevel(WaitInfo::kTeams, 9), Level::kHigh);  // eighth round: HIGH 6 of 6
  EXPECT_EQ(WaitLevel(WaitInfo::kPeople, 19), Level::kMedium);
  EXPECT_EQ(WaitLevel(WaitInfo::kPeople, 20), Level::kHigh);
  EXPECT_EQ(WaitLevel(WaitInfo::kMinutes, 24), Level::kMedium);
  EXPECT_EQ(WaitLevel(WaitInfo::kMinutes, 25), Level::kHigh);
}

// The time per team or number called is a rate; hours bought are no wait.
TEST(QuantityTest, RatesAndBoughtTimeAreNoWait) {
  ExpectNoWait("지금 106번 한 번호에 1분은 걸리는 듯");
  ExpectNoWait("한 팀당 1~2분 정도?");
  ExpectNoWait("바로 방들어옴ㅋㅋ 2시간 넣음");
  ExpectWait("한 시간 기다렸어요", WaitInfo::kMinutes, 60, Level::kHigh);
  ExpectWait("한 10분 기다림", WaitInfo::kMinutes, 10, Level::kMedium);
}

// "N명밖에": only that many.
TEST(QuantityTest, OnlyAFewIsQuiet) {
  ExpectWait("데스크 앞 저도 지금 있는데 두명밖에 없음", WaitInfo::kPeople, 2, Level::kLow);
  ExpectWait("대기 다섯 팀밖에 없어요", WaitInfo::kTeams, 5, Level::kLow);
  ExpectWait("대기 12팀밖에 안 남았대요", WaitInfo::kTeams, 12, Level::kHigh);
}

// Two or three people right ahead of the writer, at least ten in a queue; 분 after a native
// numeral counts people.
TEST(QuantityTest, PeopleAheadAndAtLeastTen) {
  ExpectWait("3층 맞아요 지금 앞에 두분 기다리세요", WaitInfo::kPeople, 2, Level::kMedium);
  ExpectWait("ㅇㅇ 저도 앞에 두명 남았어요", WaitInfo::kPeople, 2, Level::kMedium);
  ExpectWait("줄에 2명 서있어요", WaitInfo::kPeople, 2, Level::kLow);
  ExpectWait("로비 지금 12명 넘게 서있음", WaitInfo::kPeople, 12, Level::kHigh);
  ExpectWait("줄 12명 서있음", WaitInfo::kPeople, 12, Level::kMedium);
  ExpectWait("워크인 다섯 분 계세요", WaitInfo::kPeople, 5, Level::kMedium);
  ExpectWait("삼 분 기다렸어요", WaitInfo::kMinutes, 3, Level::kLow);  // Sino-Korean: minutes
}

// A fraction is no wait; a queue in kilometres is a long one.
TEST(QuantityTest, FractionsAndKilometres) {
  ExpectNoWait("주차장 지금 3분의 2 정도 찼어요");
  ExpectWait("하이패스차로만 줄이 2키로 ㅋㅋ", WaitInfo::kMeters, 2000, Level::kHigh);
  // Thirteenth round: 20 m or more is a long queue, 10 m a middling one.
  ExpectWait("수납도 줄이 30m는 돼요", WaitInfo::kMeters, 30, Level::kHigh);
  ExpectWait("줄 10m 정도", WaitInfo::kMeters, 10, Level::kMedium);
  ExpectNoWait("휴게소까지 2km 남았어요");
}

// A count ahead and the time each one takes: the wait is their product, unless
// the text gives a wait of its own.
TEST(QuantityTest, ACountTimesARateIsTheWait) {
  ExpectWait("앞에 여덟 명, 한 사람당 5분은 씀", WaitInfo::kMinutes, 40, Level::kHigh);
  ExpectWait("한 팀당 5분 넘게 걸리고 앞에 일곱 팀", WaitInfo::kMinutes, 35, Level::kHigh);
  ExpectWait("한 일곱팀? 한팀에 일분이면 찍음", WaitInfo::kMinutes, 7, Level::kMedium);
  ExpectWait("앞에 3명, 1인당 2~4분", WaitInfo::kMinutes, 9, Level::kMedium);
  ExpectWait("카운터 대기 7팀이래 한팀당 1시간이면 계산 포기", WaitInfo::kMinutes, 420,
             Level::kHigh);
  // The text's own wait stands: two figures, no product.
  auto figs =
      FindFigures(MakeCompact("앞에 세 팀 있고 한 팀당 10분 정도라 30분은 안 걸릴 듯요").text);
  ASSERT_EQ(figs.size(), 2u);
  EXPECT_EQ(figs[0].info.unit, WaitInfo::kTeams);
  EXPECT_EQ(figs[1].info.unit, WaitInfo::kMinutes);
  EXPECT_EQ(figs[1].info.level, Level::kMedium);  // "30분은 안 걸릴": less than 30
}

// "이 시간엔" is "at this hour", not two hours (hours take native numerals).
TEST(QuantityTest, ThisHourIsNotTwoHours) {
  ExpectNoWait("평소 같으면 이 시간엔 계단까지 줄 서 있어서");
  ExpectWait("두 시간 기다렸어요", WaitInfo::kMinutes, 120, Level::kHigh);
  ExpectWait("한 시간 반 줄 섰음", WaitInfo::kMinutes, 90, Level::kHigh);
}

// An estimate of 20-29 people is MEDIUM; the same figure plain or "넘게" stays HIGH.
TEST(QuantityTest, EstimatedTwentySomePeopleAreMedium) {
  ExpectWait("앞에 한 20명 정도", WaitInfo::kPeople, 20, Level::kMedium);
  ExpectWait("줄 25명쯤 서있어요", WaitInfo::kPeople, 25, Level::kMedium);
  ExpectWait("지금 줄 한 20명? 잘 빠져요", WaitInfo::kPeople, 20, Level::kMedium);
  ExpectWait("앞에 20명 넘게 서있는데", WaitInfo::kPeople, 20, Level::kHigh);
  ExpectWait("매점 계산 줄 앞에 25명", WaitInfo::kPeople, 25, Level::kHigh);
  ExpectWait("줄 30명 정도", WaitInfo::kPeople, 30, Level::kHigh);
}

TEST(QuantityTest, Approximations) {
  ExpectWait("대략 40분 정도 기다렸어요", WaitInfo::kMinutes, 40, Level::kHigh);
  ExpectWait("한 30분? 기다린 듯", WaitInfo::kMinutes, 30, Level::kHigh);  // 한 = about
  ExpectWait("30여 분 대기", WaitInfo::kMinutes, 30, Level::kHigh);
  ExpectWait("15분쯤 기다림", WaitInfo::kMinutes, 15, Level::kMedium);
}

TEST(QuantityTest, ClockTimesAreNotWaits) {
  ExpectNoWait("3시에 도착했어요");
  ExpectNoWait("7시 공연인데 사람 많네요");
  ExpectNoWait("2시 30분 입장이에요");
  ExpectNoWait("두 시 삼십 분에 만나요");
  ExpectNoWait("30분에 입장 시작한대요");
  ExpectNoWait("12:30 오픈");
  // A wait next to a clock time is still read.
  ExpectWait("7시 공연인데 벌써 1시간째 줄", WaitInfo::kMinutes, 60, Level::kHigh);
}

TEST(QuantityTest, OtherFiguresAreNotWaits) {
  ExpectNoWait("역에서 5분 거리예요");
  ExpectNoWait("10분 뒤 도착");
  ExpectNoWait("배차 간격 12분");
  ExpectNoWait("세 분이서 왔어요");      // three people
  ExpectNoWait("이분 누구예요");         // this person
  ExpectNoWait("몇 분째인지 모르겠음");  // unknown minutes
  ExpectNoWait("2023-2024 시즌");
  ExpectNoWait("한 시간 정도 있다가 갈게요");
  ExpectNoWait("수속 시작한 지 30분 지나서 다들 들어감");  // time elapsed, not a wait
}

TEST(QuantityTest, TimeWithNoProgressIsALongWait) {
  // Fourth round of issue 13: minutes followed by "no progress" words are HIGH in the
  // written files 26 times of 26, whatever the minutes.
  ExpectWait("저 지금 차 안인데 10분째 50m도 못 갔어요", WaitInfo::kMinutes, 10, Level::kHigh);
  ExpectWait("15분째 한 팀도 안 빠짐", WaitInfo::kMinutes, 15, Level::kHigh);
  ExpectWait("계단 앞에서 5분째 못 움직이는 중", WaitInfo::kMinutes, 5, Level::kHigh);
  ExpectWait("램프 안이라 10m 가는 데 5분", WaitInfo::kMinutes, 5, Level::kHigh);
  ExpectWait("저 지금 줄 중간인데 15분째 그대로에요", WaitInfo::kMinutes, 15, Level::kHigh);
  // Progress, or none said: the minutes decide.
  ExpectWait("10분째 기다리는 중인데 줄이 쭉쭉 빠져요", WaitInfo::kMinutes, 10, Level::kMedium);
  ExpectWait("대기 10분이면 될 듯", WaitInfo::kMinutes, 10, Level::kMedium);
}

TEST(QuantityTest, SessionsOfATimedActivityAreWaits) {
  ExpectWait("경찰서도 이제 줄 생겼어요 대기 2타임ㅋㅋ", WaitInfo::kMinutes, 40, Level::kHigh);
  ExpectWait("승무원 체험 대기 한 타임이에요", WaitInfo::kMinutes, 20, Level::kMedium);
  ExpectWait("소방서는 한 타임 기다렸어요", WaitInfo::kMinutes, 20, Level::kMedium);
  ExpectNoWait("2타임 공연 보고 왔어요");  // a session seen, not waited for
}

TEST(QuantityTest, TicketsWithALetterAndTheNumberOnTheScreen) {
  // The writer's ticket against the one called: a letter before the digits, a screen.
  ExpectWait("내 번호 C-412 현재 C-287", WaitInfo::kTeams, 125, Level::kHigh);
  ExpectWait("호출번호 A-88 나오는데 저 A-131임", WaitInfo::kTeams, 43, Level::kHigh);
  ExpectWait("학과 접수 112번인데 화면엔 104번", WaitInfo::kTeams, 8, Level::kMedium);
  // A floor or a train is no ticket of the writer's, whatever is being called.
  ExpectNoWait("B2 주차장인데 호출번호 A-88");
  ExpectNoWait("KTX-123 내렸는데 지금 5번");
}

}  // namespace
}  // namespace nunchi::judges
