#include "domain/labels.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

TEST(Labels, RoundTrip) {
  for (Level l : kAllLevels) EXPECT_EQ(ParseLevel(ToString(l)), l);
  for (Cause c : kAllCauses) EXPECT_EQ(ParseCause(ToString(c)), c);
  EXPECT_EQ(ParseRelevance("RELEVANT"), Relevance::kRelevant);
  EXPECT_FALSE(ParseLevel("high").has_value());
  EXPECT_FALSE(ParseCause("").has_value());
}

TEST(Labels, Utf8CountsCodePointsAndTruncatesOnBoundaries) {
  std::string s = "팝업스토어 대기줄";  // 9 code points
  EXPECT_EQ(Utf8Length(s), 9u);
  EXPECT_EQ(Utf8Truncate(s, 2), "팝업");
  EXPECT_EQ(Utf8Truncate(s, 100), s);
  EXPECT_TRUE(IsValidUtf8(s));
  EXPECT_FALSE(IsValidUtf8(std::string("\xed\x95", 2)));
  EXPECT_FALSE(IsValidUtf8("\xff"));
}

}  // namespace
}  // namespace nunchi
