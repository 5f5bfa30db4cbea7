#include "judges/spot_scope.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "judges/rules.h"

namespace nunchi::judges {
namespace {

bool Excludes(const SpotScope& s, const std::string& noun) {
  return std::find(s.excluded.begin(), s.excluded.end(), noun) != s.excluded.end();
}

TEST(SpotScopeTest, TheDescriptionsExclusionClausesNameOtherPlaces) {
  SpotScope pier = MakeSpotScope(
      {"s1", "모래울항 갈매기 낚시잔교",
       "모래울항 동쪽의 길이 120m 갈매기 낚시잔교 위와 잔교 입구까지이며, 옆 방파제는 포함하지 "
       "않는다."});
  EXPECT_TRUE(Excludes(pier, "방파제"));
  EXPECT_EQ(pier.included_compact.find("방파제"), std::string::npos);
  SpotScope bath = MakeSpotScope(
      {"s2", "노루샘온천 노천탕",
       "노루샘온천 2층 야외 노천탕과 노천탕 입구 대기 공간만 해당하며, 실내탕과 매표소는 다른 "
       "곳이다."});
  EXPECT_TRUE(Excludes(bath, "실내탕"));
  EXPECT_TRUE(Excludes(bath, "매표소"));
  SpotScope bank = MakeSpotScope(
      {"s3", "한결은행 시장점", "한결은행 시장점 창구의 번호표 대기(모바일 앱과 ATM은 제외)."});
  // "모바일 앱과 ATM": one syllable (앱) is too short to name a place; Latin letters count.
  ASSERT_EQ(bank.excluded.size(), 1u);
  EXPECT_TRUE(bank.excluded[0] == "atm" || bank.excluded[0] == "ATM") << bank.excluded[0];
  // A noun the included part uses too is the spot's own ("매장 안" is the spot).
  SpotScope shop = MakeSpotScope(
      {"s4", "별빛텔레콤 중앙대리점",
       "별빛텔레콤 중앙대리점 매장 안의 개통 대기와 매장 앞 줄(건너편 다른 통신사 매장은 제외)."});
  EXPECT_FALSE(Excludes(shop, "매장"));
  // No exclusion: everything is the spot.
  SpotScope plain =
      MakeSpotScope({"s5", "해운대해수욕장 중앙 백사장", "중앙 구역 백사장과 입구, 파라솔 대여소"});
  EXPECT_TRUE(plain.excluded.empty());
  EXPECT_NE(plain.included_compact.find("파라솔"), std::string::npos);
}

// Issue 13, twenty-second round (spent blind-66, blind-67): an exclusion clause lists
// several places with commas; every one of them is another place, and a part before the
// list that says what the spot includes is not.
TEST(SpotScopeTest, EveryPlaceOfACommaListBeforeTheVerbIsExcluded) {
  SpotScope lift = MakeSpotScope({"s1", "하늘재 곤돌라 탑승장",
                                  "하늘재 곤돌라 탑승장: 매표소, 대기줄, 개찰구 포함. 정상 "
                                  "레스토랑, 기념품 가게, 전용 주차장은 별도."});
  EXPECT_TRUE(Excludes(lift, "레스토랑"));
  EXPECT_TRUE(Excludes(lift, "가게"));
  EXPECT_TRUE(Excludes(lift, "주차장"));
  EXPECT_FALSE(Excludes(lift, "매표소"));
  EXPECT_NE(lift.included_compact.find("매표소"), std::string::npos);
  // Within one sentence: the comma after what the spot includes ends the included part.
  SpotScope desk =
      MakeSpotScope({"s2", "도담구청 민원실",
                     "도담구청 1층 민원실 창구와 대기석까지, 무인발급기, 3층 세무과는 다른 곳."});
  EXPECT_TRUE(Excludes(desk, "무인발급기"));
  EXPECT_TRUE(Excludes(desk, "세무과"));
  EXPECT_FALSE(Excludes(desk, "대기석"));
  // A Latin name before the last word ("ATM 코너") is excluded with it.
  SpotScope bank = MakeSpotScope(
      {"s3", "누리은행 본점 창구", "누리은행 본점 1층 창구와 대기석. 출입문 옆 ATM 코너는 별도."});
  EXPECT_TRUE(Excludes(bank, "atm") || Excludes(bank, "ATM"));
  EXPECT_TRUE(Excludes(bank, "코너"));
  Rules rules;
  RuleContext ctx;
  SpotInfo spot{"s1", "하늘재 곤돌라 탑승장",
                "하늘재 곤돌라 탑승장: 매표소, 대기줄, 개찰구 포함. 정상 레스토랑, 기념품 가게, "
                "전용 주차장은 별도."};
  ctx.spot = &spot;
  EXPECT_EQ(rules.Analyze("레스토랑은 자리 널널해요", ctx).judgment.relevance,
            Relevance::kIrrelevant);
  EXPECT_EQ(rules.Analyze("매표소 줄 한산해요", ctx).judgment.relevance, Relevance::kRelevant);
}

TEST(SpotScopeTest, ARuleReadsAnExcludedPlaceAsAnotherPlace) {
  Rules rules;
  SpotInfo spot{
      "s1", "노루샘온천 노천탕",
      "노루샘온천 야외 노천탕과 입구 대기 공간만 해당하며, 실내탕과 매표소는 다른 곳이다."};
  RuleContext ctx;
  ctx.spot = &spot;
  EXPECT_EQ(rules.Analyze("실내탕은 좀 한가해요", ctx).judgment.relevance, Relevance::kIrrelevant);
  EXPECT_EQ(rules.Analyze("노천탕은 좀 한가해요", ctx).judgment.relevance, Relevance::kRelevant);
  // Named in the exclusion clause only, a place's word counts as another place again
  // ("주차장은 제외" no longer makes 주차장 the spot's own word).
  SpotInfo desk{"s2", "민원실", "1층 민원실의 창구와 대기석(주차장은 제외)."};
  ctx.spot = &desk;
  EXPECT_EQ(rules.Analyze("주차장 만차예요", ctx).judgment.relevance, Relevance::kIrrelevant);
}

}  // namespace
}  // namespace nunchi::judges
