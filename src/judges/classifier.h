// The light classifier: TF-IDF over hashed character n-grams and words (see
// features.h) with three linear heads trained by liblinear (logistic
// regression): relevance, level (on relevant signals) and cause (on relevant
// signals). The default model is trained at build time from
// data/train/congestion-train.jsonl and embedded as a generated .cpp.
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

namespace nunchi::judges {

// Score columns: 0 relevance (positive = RELEVANT), 1..4 levels in kAllLevels order,
// 5..11 causes in kAllCauses order.
inline constexpr size_t kColumns = 12;
inline constexpr size_t kLevelCol = 1, kCauseCol = 5;

struct ClassifierModel {
  std::vector<uint32_t> feature_ids;  // sorted hashed ids
  std::vector<float> idf;             // per feature
  std::vector<float> weights;         // feature_ids.size() * kColumns, row-major
  std::array<float, kColumns> bias{};
};

// A view of a model compiled into the binary (the generated embedded model).
struct ModelView {
  std::span<const uint32_t> feature_ids;
  std::span<const float> idf;
  std::span<const float> weights;
  std::span<const float> bias;
};

struct TrainExample {
  std::string text;
  Relevance relevance = Relevance::kIrrelevant;
  Level level = Level::kUnknown;
  Cause cause = Cause::kNone;
  bool train_level = true;  // use for the level head (relevant only)
  bool train_cause = true;  // use for the cause head (relevant only)
};

struct TrainOptions {
  double c_relevance = 4.0;  // liblinear C of each head
  double c_level = 4.0;
  double c_cause = 2.0;
  float min_weight = 1e-4f;  // features whose weights are all smaller are dropped
};

// Trains the three heads. kInvalidArgument when a head has fewer than two classes.
Result<ClassifierModel> TrainClassifier(const std::vector<TrainExample>& examples,
                                        const TrainOptions& options = {});

// C++ source defining `ModelView EmbeddedClassifierModel()` in nunchi::judges.
std::string ModelToCpp(const ClassifierModel& model);

struct ClassifierPrediction {
  float p_relevant = 0;
  Level level = Level::kUnknown;
  float p_level = 0;
  Cause cause = Cause::kNone;
  float p_cause = 0;
};

class Classifier {
 public:
  explicit Classifier(ClassifierModel model);
  explicit Classifier(const ModelView& view);
  ClassifierPrediction Predict(std::string_view text) const;
  size_t feature_count() const { return model_.feature_ids.size(); }

 private:
  void BuildIndex();
  ClassifierModel model_;
  std::vector<int32_t> row_;  // kFeatureDim entries: hashed id -> row, or -1
};

// The model embedded at build time (defined in the generated source).
ModelView EmbeddedClassifierModel();

}  // namespace nunchi::judges
