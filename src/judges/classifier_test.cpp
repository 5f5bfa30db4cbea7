#include "judges/classifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "judges/bundles_jsonl.h"

namespace nunchi::judges {
namespace {

std::vector<TrainExample> Examples(const std::vector<LabeledBundle>& bundles) {
  std::vector<TrainExample> out;
  for (const auto& b : bundles)
    for (size_t i = 0; i < b.bundle.size(); ++i) {
      if (!b.labels[i]) continue;
      TrainExample ex;
      ex.text = b.bundle.at(i).text;
      ex.relevance = b.labels[i]->relevance;
      ex.level = b.labels[i]->level;
      ex.cause = b.labels[i]->cause;
      out.push_back(ex);
    }
  return out;
}

TEST(ClassifierTest, TrainsOnTinySetAndPredictsSensibly) {
  std::vector<TrainExample> ex;
  auto add = [&](const char* t, Relevance r, Level l, Cause c) { ex.push_back({t, r, l, c}); };
  for (int k = 0; k < 3; ++k) {
    add("미어터져요", Relevance::kRelevant, Level::kHigh, Cause::kNone);
    add("사람 진짜 미어터짐", Relevance::kRelevant, Level::kHigh, Cause::kEvent);
    add("한산해요", Relevance::kRelevant, Level::kLow, Cause::kNone);
    add("완전 한산함", Relevance::kRelevant, Level::kLow, Cause::kNone);
    add("헐 대박", Relevance::kIrrelevant, Level::kUnknown, Cause::kNone);
    add("맛있겠다 대박", Relevance::kIrrelevant, Level::kUnknown, Cause::kNone);
  }
  auto model = TrainClassifier(ex);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  Classifier c(*model);
  EXPECT_GT(c.Predict("여기 미어터져요").p_relevant, 0.5f);
  EXPECT_EQ(c.Predict("여기 미어터져요").level, Level::kHigh);
  EXPECT_EQ(c.Predict("지금 한산").level, Level::kLow);
  EXPECT_LT(c.Predict("대박").p_relevant, 0.5f);
}

TEST(ClassifierTest, OneClassIsAnError) {
  std::vector<TrainExample> ex = {{"a", Relevance::kRelevant, Level::kLow, Cause::kNone}};
  EXPECT_FALSE(TrainClassifier(ex).ok());
}

TEST(ClassifierTest, GeneralisesToHeldOutOwnData) {
  std::ifstream in(NUNCHI_TRAIN_DATA);
  ASSERT_TRUE(in) << NUNCHI_TRAIN_DATA;
  auto bundles = ReadBundlesJsonl(in);
  ASSERT_TRUE(bundles.ok());
  std::vector<LabeledBundle> train, test;
  for (size_t i = 0; i < bundles->size(); ++i)
    ((i % 5 == 0) ? test : train).push_back((*bundles)[i]);
  auto model = TrainClassifier(Examples(train));
  ASSERT_TRUE(model.ok());
  Classifier c(*model);
  size_t n = 0, rel_ok = 0, lvl_n = 0, lvl_ok = 0;
  for (const auto& ex : Examples(test)) {
    auto p = c.Predict(ex.text);
    ++n;
    rel_ok += (p.p_relevant >= 0.5f) == (ex.relevance == Relevance::kRelevant);
    if (ex.relevance == Relevance::kRelevant) ++lvl_n, lvl_ok += p.level == ex.level;
  }
  // Replies ("저도요") are in here too, and only their parent tells them apart.
  EXPECT_GT(static_cast<double>(rel_ok) / n, 0.85) << rel_ok << "/" << n;
  EXPECT_GT(static_cast<double>(lvl_ok) / lvl_n, 0.75) << lvl_ok << "/" << lvl_n;
}

TEST(ClassifierTest, EmbeddedModelRoundTrips) {
  Classifier c(EmbeddedClassifierModel());
  EXPECT_GT(c.feature_count(), 1000u);
  auto p = c.Predict("사람 진짜 많아요 미어터짐");
  EXPECT_GT(p.p_relevant, 0.5f);
  EXPECT_EQ(p.level, Level::kHigh);
  EXPECT_FALSE(
      ModelToCpp(ClassifierModel{{1u}, {1.0f}, std::vector<float>(kColumns, 0.5f), {}, {}, {}})
          .empty());
}

TEST(ClassifierTest, PlattRecoversAKnownSigmoid) {
  std::vector<float> scores;
  std::vector<bool> outcomes;
  for (int k = -8; k <= 8; ++k) {
    float s = k * 0.25f;
    int pos = static_cast<int>(std::lround(200 / (1 + std::exp(-(2 * s - 1)))));
    for (int i = 0; i < 200; ++i) scores.push_back(s), outcomes.push_back(i < pos);
  }
  auto [a, b] = FitPlatt(scores, outcomes);
  EXPECT_NEAR(a, 2.0, 0.1);
  EXPECT_NEAR(b, -1.0, 0.1);
  auto [ia, ib] = FitPlatt({1, 2}, {true, true});  // one outcome only: identity
  EXPECT_EQ(ia, 1.0f);
  EXPECT_EQ(ib, 0.0f);
}

TEST(ClassifierTest, CalibratedConfidenceMatchesHeldOutAccuracy) {
  std::ifstream in(NUNCHI_TRAIN_DATA);
  auto bundles = ReadBundlesJsonl(in);
  ASSERT_TRUE(bundles.ok());
  std::vector<LabeledBundle> train, test;
  for (size_t i = 0; i < bundles->size(); ++i)
    ((i % 5 == 0) ? test : train).push_back((*bundles)[i]);
  auto model = TrainCalibrated(TrainingExamples(train, -1));
  ASSERT_TRUE(model.ok());
  ASSERT_TRUE(model->calibration.fitted);
  Classifier c(*model);
  // Binned |mean confidence - accuracy| of the relevance decision (p >= 0.5).
  std::array<double, 10> conf{}, ok{};
  std::array<int, 10> n{};
  int total = 0;
  for (const auto& ex : TrainingExamples(test, -1)) {
    auto p = c.Predict(ex.text);
    bool rel = p.cal_relevant >= 0.5f;
    double cf = rel ? p.cal_relevant : 1 - p.cal_relevant;
    size_t b = std::min<size_t>(9, static_cast<size_t>(cf * 10));
    conf[b] += cf, ok[b] += rel == (ex.relevance == Relevance::kRelevant), n[b]++, ++total;
  }
  double ece = 0;
  for (size_t b = 0; b < 10; ++b) ece += std::fabs(conf[b] - ok[b]) / total;
  EXPECT_LT(ece, 0.06) << "held-out ECE";
}

TEST(ClassifierTest, VariantsAreNamedAndCarryTheirFeatures) {
  for (const auto& name : VariantNames()) EXPECT_TRUE(VariantOptions(name).ok()) << name;
  EXPECT_TRUE(VariantOptions(kDefaultVariant).ok());
  EXPECT_EQ(VariantOptions("nope").status().code(), ErrorCode::kNotFound);
  auto bigram = VariantOptions("bigram");
  ASSERT_TRUE(bigram.ok());
  EXPECT_GT(CountFeatures("사람 많아요 진짜", bigram->features).size(),
            CountFeatures("사람 많아요 진짜").size());
  std::vector<TrainExample> ex;
  for (int k = 0; k < 3; ++k) {
    ex.push_back({"미어터져요 사람", Relevance::kRelevant, Level::kHigh, Cause::kEvent});
    ex.push_back({"한산해요 사람", Relevance::kRelevant, Level::kLow, Cause::kNone});
    ex.push_back({"헐 대박", Relevance::kIrrelevant, Level::kUnknown, Cause::kNone});
  }
  auto m = TrainClassifier(ex, *bigram);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->features.char_max, 4);
  EXPECT_NE(ModelToCpp(*m).find("FeatureConfig{4, true}"), std::string::npos);
}

}  // namespace
}  // namespace nunchi::judges
