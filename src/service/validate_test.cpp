#include "service/validate.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

AnalysisRequest Base() {
  AnalysisRequest r;
  Spot s;
  s.info.spot_id = "s1";
  Bundle b;
  b.post_id = "p1";
  b.post = {"p1", "u1", {}, "글"};
  b.comments = {{"c1", "u2", {}, "댓글"}};
  s.bundles.push_back(b);
  r.spots.push_back(s);
  r.new_signals = {{SignalKind::kComment, "c1", "p1"}};
  return r;
}

bool Has(const std::vector<FieldError>& errs, const std::string& pointer) {
  for (const auto& e : errs)
    if (e.pointer == pointer) return true;
  return false;
}

TEST(Validate, AcceptsAWellFormedRequest) { EXPECT_TRUE(ValidateRequest(Base(), {}).empty()); }

TEST(Validate, NewSignalInNoBundle) {
  auto r = Base();
  r.new_signals.push_back({SignalKind::kComment, "c9", "p1"});
  EXPECT_TRUE(Has(ValidateRequest(r, {}), "/new_signals/1/signal_id"));
}

TEST(Validate, DuplicateSignalIds) {
  auto r = Base();
  r.spots[0].bundles[0].comments.push_back({"c1", "u3", {}, "또"});
  EXPECT_TRUE(Has(ValidateRequest(r, {}), "/spots/0/bundles/0/comments/1/signal_id"));
  auto r2 = Base();
  r2.new_signals.push_back(r2.new_signals[0]);
  EXPECT_TRUE(Has(ValidateRequest(r2, {}), "/new_signals/1/signal_id"));
}

TEST(Validate, KindAndPostMustMatchTheBundle) {
  auto r = Base();
  r.new_signals[0].kind = SignalKind::kPost;
  r.new_signals[0].post_id = "p7";
  auto errs = ValidateRequest(r, {});
  EXPECT_TRUE(Has(errs, "/new_signals/0/kind"));
  EXPECT_TRUE(Has(errs, "/new_signals/0/post_id"));
}

TEST(Validate, TextOverLimitCountsCharactersNotBytes) {
  auto r = Base();
  r.spots[0].bundles[0].comments[0].text = std::string(3 * 10, 'x');
  RequestLimits lim;
  lim.max_text_chars = 10;
  EXPECT_TRUE(Has(ValidateRequest(r, lim), "/spots/0/bundles/0/comments/0/text"));
  std::string korean;
  for (int i = 0; i < 10; ++i) korean += "가";  // 30 bytes, 10 chars
  r.spots[0].bundles[0].comments[0].text = korean;
  EXPECT_TRUE(ValidateRequest(r, lim).empty());
}

TEST(Validate, TooManySignals) {
  auto r = Base();
  RequestLimits lim;
  lim.max_signals = 1;
  EXPECT_TRUE(Has(ValidateRequest(r, lim), "/spots"));
}

TEST(Validate, PostIdMustMatchPost) {
  auto r = Base();
  r.spots[0].bundles[0].post_id = "p2";
  EXPECT_TRUE(Has(ValidateRequest(r, {}), "/spots/0/bundles/0/post_id"));
}

TEST(Validate, IdentifierOverTheByteLimitIsRefusedWithItsPointer) {
  auto r = Base();
  r.spots[0].info.spot_id = std::string(1 << 20, 's');  // the 1 MiB spot_id of issue 16
  auto errs = ValidateRequest(r, {});
  ASSERT_TRUE(Has(errs, "/spots/0/spot_id"));
  for (const auto& e : errs) EXPECT_LT(e.detail.size(), 200u) << "the id is not echoed whole";
  r = Base();
  r.spots[0].bundles[0].comments[0].author_id = std::string(129, 'a');
  EXPECT_TRUE(Has(ValidateRequest(r, {}), "/spots/0/bundles/0/comments/0/author_id"));
  r.spots[0].bundles[0].comments[0].author_id = std::string(128, 'a');
  EXPECT_TRUE(ValidateRequest(r, {}).empty()) << "128 bytes is within the default limit";
  RequestLimits lim;
  lim.max_id_bytes = 8;
  r = Base();
  r.new_signals[0].post_id = "p1234567890";
  EXPECT_TRUE(Has(ValidateRequest(r, lim), "/new_signals/0/post_id"));
  r = Base();
  r.state_epoch = std::string(300, 'e');
  EXPECT_TRUE(Has(ValidateRequest(r, {}), "/state_epoch"));
}

TEST(Validate, IdentifierMustBePrintableUtf8) {
  for (std::string bad :
       {std::string("s\x01"), std::string("s\x7f"), std::string("s\xc2\x85"), std::string("s\xff"),
        std::string("s\xc0\xaf"), std::string("s\xed\xa0\x80"), std::string("s\xe2\x82")}) {
    auto r = Base();
    r.spots[0].info.spot_id = bad;
    EXPECT_TRUE(Has(ValidateRequest(r, {}), "/spots/0/spot_id")) << bad;
  }
  auto r = Base();
  r.spots[0].info.spot_id = "명동-1 (B)";
  EXPECT_TRUE(ValidateRequest(r, {}).empty());
  EXPECT_EQ(IdentifierProblem("\xf0\x9f\x98\x80", 128), "");
}

TEST(Validate, QuoteIdCutsAtACodePointBoundary) {
  std::string id;
  for (int i = 0; i < 40; ++i) id += "가";  // 3 bytes each
  std::string q = QuoteId(id);
  EXPECT_LT(q.size(), 80u);
  EXPECT_EQ(IdentifierProblem(q, 1000), "") << "the quote is still valid UTF-8";
  EXPECT_EQ(QuoteId("abc"), "'abc'");
}

}  // namespace
}  // namespace nunchi
