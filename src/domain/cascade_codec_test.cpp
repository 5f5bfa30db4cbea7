#include "domain/cascade_codec.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

TEST(CascadeCodec, RoundTripsEveryField) {
  CascadeRecord r;
  r.outcome = CascadeRecord::Outcome::kLlm;
  r.calibration_version = "cal-share-1234abcd";
  r.threshold = 0.83;
  r.cheap_judge = "rules";
  r.cheap_relevance = Relevance::kRelevant;
  r.cheap_level = Level::kMedium;
  r.cheap_cause = Cause::kWeather;
  r.cheap_confidence = 0.4125;
  auto back = DecodeCascadeRecord(EncodeCascadeRecord(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->outcome, r.outcome);
  EXPECT_EQ(back->calibration_version, r.calibration_version);
  EXPECT_DOUBLE_EQ(back->threshold, 0.83);
  EXPECT_EQ(back->cheap_judge, "rules");
  EXPECT_EQ(back->cheap_relevance, Relevance::kRelevant);
  EXPECT_EQ(back->cheap_level, Level::kMedium);
  EXPECT_EQ(back->cheap_cause, Cause::kWeather);
  EXPECT_DOUBLE_EQ(back->cheap_confidence, 0.4125);
}

TEST(CascadeCodec, NoRecordIsEmptyAndMalformedTextIsNoRecord) {
  EXPECT_EQ(EncodeCascadeRecord(std::nullopt), "");
  EXPECT_FALSE(DecodeCascadeRecord(""));
  EXPECT_FALSE(DecodeCascadeRecord("llm|a|0.5|rules|RELEVANT|HIGH"));
  EXPECT_FALSE(DecodeCascadeRecord("bogus|a|0.5|rules|RELEVANT|HIGH|NONE|0.1"));
  EXPECT_FALSE(DecodeCascadeRecord("llm|a|0.5|rules|MAYBE|HIGH|NONE|0.1"));
}

}  // namespace
}  // namespace nunchi
