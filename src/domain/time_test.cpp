#include "domain/time.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

TEST(Time, ParsesOffsetsToTheSameInstant) {
  auto a = ParseTimestamp("2026-11-29T18:40:00+09:00");
  auto b = ParseTimestamp("2026-11-29T09:40:00Z");
  auto c = ParseTimestamp("2026-11-29T04:40:00.000-05:00");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->ms, b->ms);
  EXPECT_EQ(b->ms, c->ms);
  EXPECT_EQ(a->text, "2026-11-29T18:40:00+09:00");
  EXPECT_EQ(FormatUtc(b->ms), "2026-11-29T09:40:00.000Z");
}

TEST(Time, KnownEpochValue) {
  auto t = ParseTimestamp("1970-01-02T00:00:01.5Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->ms, 86'401'500);
}

TEST(Time, RejectsMalformed) {
  for (const char* s : {"", "2026-11-29", "2026-11-29T18:40:00", "2026-13-01T00:00:00Z",
                        "2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T18:40:00+9:00",
                        "2026-11-29T18:40:00Zjunk", "yesterday", "2026-11-29T18:40:00.Z"}) {
    EXPECT_FALSE(ParseTimestamp(s).has_value()) << s;
  }
  EXPECT_TRUE(ParseTimestamp("2024-02-29T00:00:00Z").has_value());
}

}  // namespace
}  // namespace nunchi
