#include "judges/classifier.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "judges/features.h"

namespace nunchi::judges {
namespace {

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }
float Logit(float p) {
  p = std::clamp(p, 1e-4f, 1.0f - 1e-4f);
  return std::log(p / (1.0f - p));
}

}  // namespace

Classifier::Classifier(ClassifierModel model) : model_(std::move(model)) { BuildIndex(); }

Classifier::Classifier(const ModelView& view) {
  model_.feature_ids.assign(view.feature_ids.begin(), view.feature_ids.end());
  model_.idf.assign(view.idf.begin(), view.idf.end());
  model_.weights.assign(view.weights.begin(), view.weights.end());
  for (size_t k = 0; k < kColumns && k < view.bias.size(); ++k) model_.bias[k] = view.bias[k];
  model_.features = view.features;
  model_.calibration = view.calibration;
  BuildIndex();
}

void Classifier::BuildIndex() {
  static_assert(kColumns + 1 <= 16, "a packed row holds the idf and the weights");
  row_.assign(kFeatureDim, -1);
  for (size_t i = 0; i < model_.feature_ids.size(); ++i)
    row_[model_.feature_ids[i] & (kFeatureDim - 1)] = static_cast<int32_t>(i);
  const size_t rows = model_.feature_ids.size();
  packed_.assign(rows * 16 + 16, 0.0f);
  auto addr = reinterpret_cast<std::uintptr_t>(packed_.data());
  size_t skip = ((64 - addr % 64) % 64) / sizeof(float);
  float* base = packed_.data() + skip;
  packed_skip_ = skip;
  for (size_t r = 0; r < rows; ++r) {
    float* row = base + r * 16;
    row[0] = r < model_.idf.size() ? model_.idf[r] : 0.0f;
    for (size_t k = 0; k < kColumns && (r * kColumns + k) < model_.weights.size(); ++k)
      row[1 + k] = model_.weights[r * kColumns + k];
  }
}

ClassifierPrediction Classifier::Predict(std::string_view text) const {
  auto counts = CountFeatures(text, model_.features);
  std::array<float, kColumns> score = model_.bias;
  // Sublinear TF times IDF, L2-normalised; unseen features carry no weight.
  float norm2 = 0;
  thread_local std::vector<std::pair<int32_t, float>> rows;
  rows.clear();
  for (auto [id, n] : counts) {
    int32_t r = row_[id];
    if (r < 0) continue;
    float v = (1.0f + std::log(n)) * PackedRow(r)[0];
    rows.emplace_back(r, v);
    norm2 += v * v;
  }
  if (norm2 > 0) {
    float inv = 1.0f / std::sqrt(norm2);
    for (auto [r, v] : rows) {
      const float* w = PackedRow(r) + 1;
      float x = v * inv;
      for (size_t k = 0; k < kColumns; ++k) score[k] += w[k] * x;
    }
  }
  ClassifierPrediction p;
  p.p_relevant = Sigmoid(score[0]);
  auto pick = [&](size_t first, size_t n, size_t* best, float* prob) {
    float sum = 0, top = -1;
    for (size_t k = 0; k < n; ++k) {
      float s = Sigmoid(score[first + k]);
      sum += s;
      if (s > top) top = s, *best = k;
    }
    *prob = sum > 0 ? top / sum : 0;
  };
  size_t bl = 3, bc = 6;
  pick(kLevelCol, kAllLevels.size(), &bl, &p.p_level);
  pick(kCauseCol, kAllCauses.size(), &bc, &p.p_cause);
  p.level = kAllLevels[bl];
  p.cause = kAllCauses[bc];
  // The likeliest stated cause by its own one-vs-rest score (NONE excluded).
  for (size_t k = 0; k < kAllCauses.size(); ++k) {
    if (kAllCauses[k] == Cause::kNone) continue;
    float s = Sigmoid(score[kCauseCol + k]);
    if (s > p.p_stated_cause) p.p_stated_cause = s, p.stated_cause = kAllCauses[k];
  }
  p.rel_score = score[0];
  const Calibration& cal = model_.calibration;
  if (cal.fitted) {
    p.cal_relevant = Sigmoid(cal.rel_a * score[0] + cal.rel_b);
    p.cal_level = Sigmoid(cal.lvl_a * Logit(p.p_level) + cal.lvl_b);
  } else {
    p.cal_relevant = p.p_relevant;
    p.cal_level = p.p_level;
  }
  return p;
}

}  // namespace nunchi::judges
