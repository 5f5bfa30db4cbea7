// The light classifier: TF-IDF over hashed character n-grams and words (see
// features.h) with three linear heads trained by liblinear (logistic
// regression): relevance, level (on relevant signals) and cause (on relevant
// signals), and a calibration of the relevance and level scores (Platt
// scaling fitted on held-out folds of the training data, see
// TrainCalibrated). The default model is trained at build time from
// data/train/ (the generated set and the written files) and embedded as a
// generated .cpp. Training variants (VariantOptions) are the alternatives
// measured in docs/quality.md.
// A Classifier is immutable after construction; Predict() is safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "domain/labels.h"
#include "domain/status.h"
#include "judges/bundles_jsonl.h"
#include "judges/features.h"

namespace nunchi::judges {

// Score columns: 0 relevance (positive = RELEVANT), 1..4 levels in kAllLevels order,
// 5..11 causes in kAllCauses order.
inline constexpr size_t kColumns = 12;
inline constexpr size_t kLevelCol = 1, kCauseCol = 5;

// Platt scaling of the two decisions: P(RELEVANT) = sigmoid(rel_a * s + rel_b) for the
// relevance score s, and P(level right | RELEVANT) = sigmoid(lvl_a * x + lvl_b) for
// x = logit of the level head's normalised top share. Identity-like until fitted.
struct Calibration {
  float rel_a = 1, rel_b = 0;
  float lvl_a = 1, lvl_b = 0;
  bool fitted = false;
};

struct ClassifierModel {
  std::vector<uint32_t> feature_ids;  // sorted hashed ids
  std::vector<float> idf;             // per feature
  std::vector<float> weights;         // feature_ids.size() * kColumns, row-major
  std::array<float, kColumns> bias{};
  FeatureConfig features;
  Calibration calibration;
};

// A view of a model compiled into the binary (the generated embedded model).
struct ModelView {
  std::span<const uint32_t> feature_ids;
  std::span<const float> idf;
  std::span<const float> weights;
  std::span<const float> bias;
  FeatureConfig features;
  Calibration calibration;
};

struct TrainExample {
  std::string text;
  Relevance relevance = Relevance::kIrrelevant;
  Level level = Level::kUnknown;
  Cause cause = Cause::kNone;
  bool train_level = true;  // use for the level head (relevant only)
  bool train_cause = true;  // use for the cause head (relevant only)
  // Who wrote it: -1 for the generated set, else the index of its written file. Folds for
  // calibration and cross-validation are drawn by writer.
  int group = -1;
};

struct TrainOptions {
  double c_relevance = 4.0;  // liblinear C of each head
  double c_level = 4.0;
  double c_cause = 2.0;
  float min_weight = 1e-4f;  // features whose weights are all smaller are dropped
  FeatureConfig features;
  bool balanced = false;        // class weights inverse to class frequency, per head
  double written_weight = 1.0;  // instance weight of written examples (group >= 0)
  double high_weight = 1.0;     // class weight of HIGH in the level head (HIGH judged LOW)
};

// The training examples of labeled bundles, all of one group (-1: generated, else the
// writer's index). Bare agreement replies ("저도요") are left out (their meaning is
// their parent's, which the rules resolve), and so are causes a comment only inherits
// from its post.
std::vector<TrainExample> TrainingExamples(const std::vector<LabeledBundle>& bundles, int group);

// The named training variants measured in docs/quality.md ("base" is the
// model before issue 13). kNotFound for an unknown name.
Result<TrainOptions> VariantOptions(std::string_view name);
std::vector<std::string> VariantNames();
// The variant the build trains.
inline constexpr std::string_view kDefaultVariant = "c1-written2";

// Trains the three heads (no calibration). kInvalidArgument when a head has fewer than
// two classes.
Result<ClassifierModel> TrainClassifier(const std::vector<TrainExample>& examples,
                                        const TrainOptions& options = {});

// Held-out scores of one example, for fitting and checking calibration.
struct HeldOutScore {
  float rel_score = 0;  // raw relevance score (log-odds before calibration)
  bool relevant = false;
  float level_logit = 0;     // logit of the level head's top share; only when relevant
  bool level_right = false;  // the level head's top class is the label; only when relevant
};

// Fits Platt scaling (Platt 1999, with his target smoothing) to scores and 0/1 outcomes.
std::pair<float, float> FitPlatt(const std::vector<float>& scores,
                                 const std::vector<bool>& outcomes);

// Trains on every example, then fits the calibration on held-out predictions: folds
// by writer (group % folds, the generated set always in training) when at least
// `folds` writers are present, else `folds` folds by example. Calibration is fitted on
// the held-out written examples when there are any (they stand in for unseen text).
Result<ClassifierModel> TrainCalibrated(const std::vector<TrainExample>& examples,
                                        const TrainOptions& options = {}, int folds = 5);

// C++ source defining `ModelView EmbeddedClassifierModel()` in nunchi::judges.
std::string ModelToCpp(const ClassifierModel& model);

struct ClassifierPrediction {
  float p_relevant = 0;  // sigmoid of the raw relevance score (uncalibrated)
  Level level = Level::kUnknown;
  float p_level = 0;  // the level head's normalised top share (uncalibrated)
  Cause cause = Cause::kNone;
  float p_cause = 0;
  // The likeliest cause other than NONE and the sigmoid of its one-vs-rest score
  // (uncalibrated): "some cause is stated, and it is this one".
  Cause stated_cause = Cause::kNone;
  float p_stated_cause = 0;
  float rel_score = 0;  // raw relevance score
  // Calibrated: P(RELEVANT), and P(level == the label's | RELEVANT). Equal to the raw
  // ones when the model carries no fitted calibration.
  float cal_relevant = 0;
  float cal_level = 0;
};

class Classifier {
 public:
  explicit Classifier(ClassifierModel model);
  explicit Classifier(const ModelView& view);
  ClassifierPrediction Predict(std::string_view text) const;
  size_t feature_count() const { return model_.feature_ids.size(); }
  const ClassifierModel& model() const { return model_; }

 private:
  void BuildIndex();
  // Row r of the model as one 64-byte cache line: its idf, then its kColumns weights.
  const float* PackedRow(int32_t r) const {
    return packed_.data() + packed_skip_ + static_cast<size_t>(r) * 16;
  }
  ClassifierModel model_;
  std::vector<int32_t> row_;  // kFeatureDim entries: hashed id -> row, or -1
  // idf and weights interleaved, 16 floats a row, aligned to 64 bytes: Predict touches one
  // cache line per feature instead of two or three (the model is ~7 MB, larger than cache).
  std::vector<float> packed_;
  size_t packed_skip_ = 0;  // floats before the first 64-byte boundary
};

// The model embedded at build time (defined in the generated source).
ModelView EmbeddedClassifierModel();

}  // namespace nunchi::judges
