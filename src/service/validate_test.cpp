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

}  // namespace
}  // namespace nunchi
