// Training side of classifier.h: builds TF-IDF vectors, trains the three
// liblinear heads and writes the embedded-model source. Used by the build-time
// trainer tool and by tests; never on the request path.
#include <linear.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "judges/classifier.h"
#include "judges/features.h"

namespace nunchi::judges {
namespace {

void Quiet(const char*) {}

size_t LevelIndex(Level l) {
  return static_cast<size_t>(std::find(kAllLevels.begin(), kAllLevels.end(), l) -
                             kAllLevels.begin());
}
size_t CauseIndex(Cause c) {
  return static_cast<size_t>(std::find(kAllCauses.begin(), kAllCauses.end(), c) -
                             kAllCauses.begin());
}

struct Vectorized {
  std::vector<std::vector<feature_node>> rows;  // 1-based compact indices, bias and -1 terminator
};

// Trains one head; writes its class columns (class value -> column) into model.
Status TrainHead(const Vectorized& vec, const std::vector<size_t>& which, const std::vector<int>& y,
                 double c, int n_features, const std::vector<std::pair<int, size_t>>& class_to_col,
                 ClassifierModel* model) {
  std::map<int, int> seen;
  for (size_t i : which) seen[y[i]]++;
  if (seen.size() < 2) return Status(ErrorCode::kInvalidArgument, "a head needs two classes");
  problem prob{};
  prob.l = static_cast<int>(which.size());
  prob.n = n_features + 1;
  prob.bias = 1.0;
  std::vector<double> labels;
  std::vector<feature_node*> xs;
  for (size_t i : which) {
    labels.push_back(y[i]);
    xs.push_back(const_cast<feature_node*>(vec.rows[i].data()));
  }
  prob.y = labels.data();
  prob.x = xs.data();
  parameter param{};
  param.solver_type = L2R_LR_DUAL;
  param.eps = 0.01;
  param.C = c;
  if (const char* err = check_parameter(&prob, &param)) return Status(ErrorCode::kInternal, err);
  struct model* m = train(&prob, &param);
  for (auto [cls, col] : class_to_col) {
    int label_idx = -1;
    for (int k = 0; k < m->nr_class; ++k)
      if (m->label[k] == cls) label_idx = k;
    if (label_idx < 0) {
      model->bias[col] = -8.0f;  // a class never seen in training never wins
      continue;
    }
    for (int f = 1; f <= n_features; ++f)
      model->weights[static_cast<size_t>(f - 1) * kColumns + col] =
          static_cast<float>(get_decfun_coef(m, f, label_idx));
    model->bias[col] = static_cast<float>(get_decfun_coef(m, n_features + 1, label_idx));
  }
  free_and_destroy_model(&m);
  return Status::Ok();
}

}  // namespace

Result<ClassifierModel> TrainClassifier(const std::vector<TrainExample>& examples,
                                        const TrainOptions& options) {
  set_print_string_function(&Quiet);
  // Document frequencies over the hashed ids; compact index = rank of the id.
  std::vector<std::vector<std::pair<uint32_t, float>>> counts;
  std::map<uint32_t, int> df;
  for (const auto& ex : examples) {
    counts.push_back(CountFeatures(ex.text));
    for (auto [id, n] : counts.back()) df[id]++;
  }
  ClassifierModel model;
  std::unordered_map<uint32_t, int> compact;
  for (auto [id, n] : df) {
    compact[id] = static_cast<int>(model.feature_ids.size()) + 1;
    model.feature_ids.push_back(id);
    model.idf.push_back(static_cast<float>(std::log((1.0 + examples.size()) / (1.0 + n)) + 1.0));
  }
  int n_features = static_cast<int>(model.feature_ids.size());
  model.weights.assign(model.feature_ids.size() * kColumns, 0.0f);

  Vectorized vec;
  for (const auto& c : counts) {
    std::vector<feature_node> row;
    double norm2 = 0;
    for (auto [id, n] : c) {
      int k = compact[id];
      double v = (1.0 + std::log(n)) * model.idf[k - 1];
      row.push_back({k, v});
      norm2 += v * v;
    }
    double inv = norm2 > 0 ? 1.0 / std::sqrt(norm2) : 0;
    for (auto& f : row) f.value *= inv;
    row.push_back({n_features + 1, 1.0});
    row.push_back({-1, 0});
    vec.rows.push_back(std::move(row));
  }

  std::vector<size_t> all, level_rows, cause_rows;
  std::vector<int> y_rel, y_level, y_cause;
  for (size_t i = 0; i < examples.size(); ++i) {
    const auto& ex = examples[i];
    bool rel = ex.relevance == Relevance::kRelevant;
    all.push_back(i);
    y_rel.push_back(rel ? 1 : 0);
    y_level.push_back(static_cast<int>(LevelIndex(ex.level)));
    y_cause.push_back(static_cast<int>(CauseIndex(ex.cause)));
    if (rel && ex.train_level) level_rows.push_back(i);
    if (rel && ex.train_cause) cause_rows.push_back(i);
  }
  std::vector<std::pair<int, size_t>> rel_cols = {{1, 0}};
  std::vector<std::pair<int, size_t>> level_cols, cause_cols;
  for (size_t k = 0; k < kAllLevels.size(); ++k)
    level_cols.emplace_back(static_cast<int>(k), kLevelCol + k);
  for (size_t k = 0; k < kAllCauses.size(); ++k)
    cause_cols.emplace_back(static_cast<int>(k), kCauseCol + k);

  if (Status s = TrainHead(vec, all, y_rel, options.c_relevance, n_features, rel_cols, &model);
      !s.ok())
    return s;
  if (Status s =
          TrainHead(vec, level_rows, y_level, options.c_level, n_features, level_cols, &model);
      !s.ok())
    return s;
  if (Status s =
          TrainHead(vec, cause_rows, y_cause, options.c_cause, n_features, cause_cols, &model);
      !s.ok())
    return s;

  // Drop features that carry no weight anywhere.
  ClassifierModel pruned;
  pruned.bias = model.bias;
  for (size_t i = 0; i < model.feature_ids.size(); ++i) {
    const float* w = &model.weights[i * kColumns];
    float top = 0;
    for (size_t k = 0; k < kColumns; ++k) top = std::max(top, std::fabs(w[k]));
    if (top < options.min_weight) continue;
    pruned.feature_ids.push_back(model.feature_ids[i]);
    pruned.idf.push_back(model.idf[i]);
    pruned.weights.insert(pruned.weights.end(), w, w + kColumns);
  }
  return pruned;
}

std::string ModelToCpp(const ClassifierModel& model) {
  std::string out;
  out.reserve(model.weights.size() * 12 + model.feature_ids.size() * 20);
  out +=
      "// Generated by nunchi_train_classifier from data/train/congestion-train.jsonl. Do not "
      "edit.\n#include \"judges/classifier.h\"\n\nnamespace nunchi::judges {\nnamespace {\n";
  char buf[48];
  auto floats = [&](const char* name, const float* v, size_t n) {
    out += "constexpr float ";
    out += name;
    out += "[] = {";
    for (size_t i = 0; i < n; ++i) {
      std::snprintf(buf, sizeof buf, "%.6g,", static_cast<double>(v[i]));
      out += buf;
      if (i % 12 == 11) out += '\n';
    }
    out += "};\n";
  };
  out += "constexpr uint32_t kIds[] = {";
  for (size_t i = 0; i < model.feature_ids.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%uu,", model.feature_ids[i]);
    out += buf;
    if (i % 16 == 15) out += '\n';
  }
  out += "};\n";
  floats("kIdf", model.idf.data(), model.idf.size());
  floats("kWeights", model.weights.data(), model.weights.size());
  floats("kBias", model.bias.data(), model.bias.size());
  out +=
      "}  // namespace\n\nModelView EmbeddedClassifierModel() {\n  return {kIds, kIdf, kWeights, "
      "kBias};\n}\n\n}  // namespace nunchi::judges\n";
  return out;
}

}  // namespace nunchi::judges
