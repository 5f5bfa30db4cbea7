#include "judges/calibration.h"

#include <gtest/gtest.h>

#include <random>

namespace nunchi::judges {
namespace {

std::vector<CalibrationPoint> Ramp(size_t n, double wrong_below) {
  std::vector<CalibrationPoint> p;
  for (size_t i = 0; i < n; ++i) {
    double c = double(i) / double(n);
    p.push_back({c, c < wrong_below});
  }
  return p;
}

TEST(CascadeCalibration, ShareIsTheQuantileOfTheConfidences) {
  auto c = CalibrateForShare(Ramp(10, 0.3), 0.2);
  ASSERT_TRUE(c.ok());
  EXPECT_DOUBLE_EQ(c->threshold, 0.2);
  EXPECT_DOUBLE_EQ(c->escalation_share, 0.2);
  EXPECT_DOUBLE_EQ(c->kept_wrong_share, 0.1);  // 0.2 is kept and wrong
  EXPECT_EQ(c->method, "share");
}

TEST(CascadeCalibration, RiskControlPicksTheSmallestThresholdWithinTheBound) {
  // 100 points, the 30 least confident wrong. A = 0.05 allows
  // R <= (0.05 * 101 - 1) / 100 = 0.0405: at most 4 kept wrong, so lambda = 0.26.
  auto c = CalibrateForRisk(Ramp(100, 0.3), 0.05);
  ASSERT_TRUE(c.ok());
  EXPECT_DOUBLE_EQ(c->threshold, 0.26);
  EXPECT_DOUBLE_EQ(c->kept_wrong_share, 0.04);
  EXPECT_DOUBLE_EQ(c->escalation_share, 0.26);
}

TEST(CascadeCalibration, RiskBelowWhatNPointsCanShowEscalatesEverything) {
  auto c = CalibrateForRisk(Ramp(10, 0.3), 0.05);  // 1/(n+1) = 0.09 > 0.05
  ASSERT_TRUE(c.ok());
  EXPECT_GT(c->threshold, 1.0);
  EXPECT_DOUBLE_EQ(c->escalation_share, 1.0);
}

TEST(CascadeCalibration, RiskHoldsOnFreshPointsFromTheSameDistribution) {
  // Confidence says little: wrong with probability 1 - c. The bound is on
  // the expected kept-and-wrong share of new points.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  auto draw = [&](size_t n) {
    std::vector<CalibrationPoint> p;
    for (size_t i = 0; i < n; ++i) {
      double c = u(rng);
      p.push_back({c, u(rng) > c});
    }
    return p;
  };
  double sum = 0;
  const int rounds = 40;
  for (int r = 0; r < rounds; ++r) {
    auto c = CalibrateForRisk(draw(400), 0.1);
    ASSERT_TRUE(c.ok());
    auto fresh = draw(2000);
    size_t bad = 0;
    for (auto& p : fresh) bad += p.confidence >= c->threshold && p.wrong;
    sum += double(bad) / double(fresh.size());
  }
  EXPECT_LE(sum / rounds, 0.1);
}

TEST(CascadeCalibration, RejectsBadTargets) {
  EXPECT_FALSE(CalibrateForShare({}, 0.2).ok());
  EXPECT_FALSE(CalibrateForShare(Ramp(10, 0), 1.5).ok());
  EXPECT_FALSE(CalibrateForRisk(Ramp(10, 0), 0).ok());
}

TEST(CascadeCalibration, FileRoundTripsAndAnEditedFileIsRejected) {
  auto fixed = CalibrateForShare(Ramp(50, 0.3), 0.3);
  ASSERT_TRUE(fixed.ok());
  std::string json = CalibrationToJson(*fixed);
  auto back = ParseCalibration(json);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->version, fixed->version);
  EXPECT_DOUBLE_EQ(back->threshold, fixed->threshold);
  std::string edited = json;
  edited.replace(edited.find("\"threshold\""), 0, "\"x\": 1, ");
  EXPECT_TRUE(ParseCalibration(edited).ok());  // unknown keys are ignored
  auto pos = json.find("\"threshold\": ") + 13;
  std::string tampered = json.substr(0, pos) + "0.999" + json.substr(json.find(',', pos));
  EXPECT_FALSE(ParseCalibration(tampered).ok());
  EXPECT_FALSE(ParseCalibration("[]").ok());
}

TEST(CascadeCalibration, EmbeddedFileIsValid) {
  const CascadeCalibration& c = EmbeddedCalibration();
  EXPECT_NE(c.version, "cal-invalid");
  EXPECT_GT(c.points, 0u);
  EXPECT_GT(c.threshold, 0.0);
}

}  // namespace
}  // namespace nunchi::judges
