#include "bench/textgen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace nunchi::bench {
namespace {

TEST(TextGen, FiftyThousandTextsAreAllDistinct) {
  TextGen gen(7, 0.02);
  std::set<std::string> seen;
  std::vector<size_t> lengths;
  for (int i = 0; i < 50'000; ++i) {
    std::string t = i % 8 == 0 ? gen.Post("강남역 11번 출구") : gen.Comment("강남역 11번 출구");
    ASSERT_TRUE(seen.insert(t).second) << "repeated text: " << t;
    lengths.push_back(TextGen::CodePoints(t));
  }
  std::sort(lengths.begin(), lengths.end());
  EXPECT_GE(lengths.front(), 2u);
  EXPECT_LE(lengths.back(), 500u);
  EXPECT_GE(lengths.back(), 200u);              // some long posts
  EXPECT_LT(lengths[lengths.size() / 2], 60u);  // mostly short
  EXPECT_EQ(gen.issued(), 50'000u);
}

TEST(TextGen, SameSeedSameTexts) {
  TextGen a(3), b(3), c(4);
  std::string ta, tb, tc;
  for (int i = 0; i < 100; ++i) ta += a.Comment("x"), tb += b.Comment("x"), tc += c.Comment("x");
  EXPECT_EQ(ta, tb);
  EXPECT_NE(ta, tc);
}

TEST(TextGen, TextsAreValidUtf8Korean) {
  TextGen gen(11, 0.5);
  for (int i = 0; i < 2000; ++i) {
    std::string t = gen.Post("성수동 팝업 거리");
    // Every lead byte is followed by the right number of continuation bytes.
    for (size_t k = 0; k < t.size();) {
      unsigned char c = static_cast<unsigned char>(t[k]);
      size_t n = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 0;
      ASSERT_NE(n, 0u) << t;
      ASSERT_LE(k + n, t.size()) << t;
      for (size_t j = 1; j < n; ++j) ASSERT_EQ(static_cast<unsigned char>(t[k + j]) >> 6, 2) << t;
      k += n;
    }
  }
}

}  // namespace
}  // namespace nunchi::bench
