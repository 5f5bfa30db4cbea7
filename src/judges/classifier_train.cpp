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
#include "judges/rules.h"

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
// `extra` multiplies the weight of one class (class value, factor; factor 1: none).
Status TrainHead(const Vectorized& vec, const std::vector<size_t>& which, const std::vector<int>& y,
                 double c, bool balanced, int n_features,
                 const std::vector<std::pair<int, size_t>>& class_to_col, ClassifierModel* model,
                 std::pair<int, double> extra = {0, 1.0}) {
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
  std::vector<int> weight_label;
  std::vector<double> weight;
  if (balanced || extra.second != 1.0) {  // balanced: n / (k * n_c), every class as much
    for (auto [cls, n] : seen) {
      weight_label.push_back(cls);
      double w = balanced ? static_cast<double>(which.size()) /
                                (static_cast<double>(seen.size()) * static_cast<double>(n))
                          : 1.0;
      weight.push_back(cls == extra.first ? w * extra.second : w);
    }
    param.nr_weight = static_cast<int>(weight.size());
    param.weight_label = weight_label.data();
    param.weight = weight.data();
  }
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

Result<ClassifierModel> TrainClassifier(const std::vector<TrainExample>& given,
                                        const TrainOptions& options) {
  set_print_string_function(&Quiet);
  // Written examples weigh written_weight times (liblinear 2.3 has no instance weights:
  // they are repeated).
  std::vector<TrainExample> repeated;
  int repeat = std::max(1, static_cast<int>(std::lround(options.written_weight)));
  if (repeat > 1) {
    for (const auto& ex : given)
      for (int k = 0; k < (ex.group >= 0 ? repeat : 1); ++k) repeated.push_back(ex);
  }
  const std::vector<TrainExample>& examples = repeat > 1 ? repeated : given;
  // Document frequencies over the hashed ids; compact index = rank of the id.
  std::vector<std::vector<std::pair<uint32_t, float>>> counts;
  std::map<uint32_t, int> df;
  for (const auto& ex : examples) {
    counts.push_back(CountFeatures(ex.text, options.features));
    for (auto [id, n] : counts.back()) df[id]++;
  }
  ClassifierModel model;
  model.features = options.features;
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

  if (Status s = TrainHead(vec, all, y_rel, options.c_relevance, options.balanced, n_features,
                           rel_cols, &model);
      !s.ok())
    return s;
  const std::pair<int, double> high = {static_cast<int>(LevelIndex(Level::kHigh)),
                                       options.high_weight};
  if (Status s = TrainHead(vec, level_rows, y_level, options.c_level, options.balanced, n_features,
                           level_cols, &model, high);
      !s.ok())
    return s;
  if (Status s = TrainHead(vec, cause_rows, y_cause, options.c_cause, options.balanced, n_features,
                           cause_cols, &model);
      !s.ok())
    return s;

  // Drop features that carry no weight anywhere.
  ClassifierModel pruned;
  pruned.bias = model.bias;
  pruned.features = model.features;
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

std::vector<TrainExample> TrainingExamples(const std::vector<LabeledBundle>& bundles, int group) {
  static const Rules rules;
  std::vector<TrainExample> examples;
  for (const auto& b : bundles) {
    for (size_t i = 0; i < b.bundle.size(); ++i) {
      if (i >= b.labels.size() || !b.labels[i]) continue;
      const std::string& text = b.bundle.at(i).text;
      if (i > 0 && rules.IsAgreementReply(text)) continue;
      TrainExample ex;
      ex.text = text;
      ex.relevance = b.labels[i]->relevance;
      ex.level = b.labels[i]->level;
      ex.cause = b.labels[i]->cause;
      ex.group = group;
      if (i > 0 && ex.cause != Cause::kNone)
        ex.train_cause = rules.DetectCause(text, nullptr) != Cause::kNone;
      examples.push_back(std::move(ex));
    }
  }
  return examples;
}

Result<TrainOptions> VariantOptions(std::string_view name) {
  TrainOptions o;
  if (name == "base") return o;  // character 1-3-grams and words, as before issue 13
  if (name == "bigram") {        // character 1-4-grams, words and word bigrams
    o.features.char_max = 4;
    o.features.word_bigrams = true;
    return o;
  }
  if (name == "balanced") {  // base features, class weights inverse to frequency
    o.balanced = true;
    return o;
  }
  if (name == "written2") {  // base features, written examples weigh twice the generated
    o.written_weight = 2;
    return o;
  }
  if (name == "bigram-written2") {
    o.features.char_max = 4;
    o.features.word_bigrams = true;
    o.written_weight = 2;
    return o;
  }
  // Fourth round of issue 13 (docs/quality.md): alternatives measured on blind-7..9 held out.
  if (name == "written3" || name == "written4") {  // written text weighs more still
    o.written_weight = name == "written3" ? 3 : 4;
    return o;
  }
  if (name == "char4-written2") {  // character 1-4-grams and words, no word bigrams
    o.features.char_max = 4;
    o.written_weight = 2;
    return o;
  }
  if (name == "balanced-written2") {  // class weights inverse to frequency, per head
    o.balanced = true;
    o.written_weight = 2;
    return o;
  }
  if (name == "high2-written2") {  // HIGH weighs twice in the level head
    o.high_weight = 2;
    o.written_weight = 2;
    return o;
  }
  // Stronger regularisation: every head at C = 1 (or 2, 0.5); with word bigrams too.
  if (name == "c1-written2" || name == "c2-written2" || name == "c05-written2" ||
      name == "c1-bigram-written2") {
    o.c_relevance = o.c_level = o.c_cause = name == "c2-written2"    ? 2
                                            : name == "c05-written2" ? 0.5
                                                                     : 1;
    o.written_weight = 2;
    if (name == "c1-bigram-written2") {
      o.features.char_max = 4;
      o.features.word_bigrams = true;
    }
    return o;
  }
  return Status(ErrorCode::kNotFound, "unknown classifier variant " + std::string(name));
}

std::vector<std::string> VariantNames() {
  return {"base",           "bigram",      "balanced",     "written2",          "bigram-written2",
          "written3",       "written4",    "c1-written2",  "char4-written2",    "balanced-written2",
          "high2-written2", "c2-written2", "c05-written2", "c1-bigram-written2"};
}

std::pair<float, float> FitPlatt(const std::vector<float>& scores,
                                 const std::vector<bool>& outcomes) {
  // Newton's method with backtracking, after Lin, Lin and Weng (2007), "A note on
  // Platt's probabilistic outputs for support vector machines".
  const size_t n = scores.size();
  double pos = 0;
  for (bool o : outcomes) pos += o;
  double neg = static_cast<double>(n) - pos;
  if (n == 0 || pos == 0 || neg == 0) return {1.0f, 0.0f};
  const double hi = (pos + 1) / (pos + 2), lo = 1 / (neg + 2);
  std::vector<double> t(n);
  for (size_t i = 0; i < n; ++i) t[i] = outcomes[i] ? hi : lo;
  // Platt's parameterisation is P = 1 / (1 + exp(A s + B)); we return a = -A, b = -B.
  double A = 0, B = std::log((neg + 1) / (pos + 1));
  auto objective = [&](double a, double b) {
    double f = 0;
    for (size_t i = 0; i < n; ++i) {
      double fa = scores[i] * a + b;
      f += fa >= 0 ? t[i] * fa + std::log1p(std::exp(-fa))
                   : (t[i] - 1) * fa + std::log1p(std::exp(fa));
    }
    return f;
  };
  double f = objective(A, B);
  for (int it = 0; it < 100; ++it) {
    double h11 = 1e-12, h22 = 1e-12, h21 = 0, g1 = 0, g2 = 0;
    for (size_t i = 0; i < n; ++i) {
      double fa = scores[i] * A + B;
      double p = fa >= 0 ? std::exp(-fa) / (1 + std::exp(-fa)) : 1 / (1 + std::exp(fa));
      double q = 1 - p, d2 = p * q, d1 = t[i] - p;
      h11 += scores[i] * scores[i] * d2;
      h22 += d2;
      h21 += scores[i] * d2;
      g1 += scores[i] * d1;
      g2 += d1;
    }
    if (std::fabs(g1) < 1e-5 && std::fabs(g2) < 1e-5) break;
    double det = h11 * h22 - h21 * h21;
    double dA = -(h22 * g1 - h21 * g2) / det, dB = -(-h21 * g1 + h11 * g2) / det;
    double gd = g1 * dA + g2 * dB, step = 1;
    bool moved = false;
    while (step >= 1e-10) {
      double na = A + step * dA, nb = B + step * dB, nf = objective(na, nb);
      if (nf < f + 1e-4 * step * gd) {
        A = na, B = nb, f = nf, moved = true;
        break;
      }
      step /= 2;
    }
    if (!moved) break;
  }
  return {static_cast<float>(-A), static_cast<float>(-B)};
}

Result<ClassifierModel> TrainCalibrated(const std::vector<TrainExample>& examples,
                                        const TrainOptions& options, int folds) {
  auto full = TrainClassifier(examples, options);
  if (!full.ok()) return full.status();
  std::map<int, int> writers;
  for (const auto& ex : examples)
    if (ex.group >= 0) writers[ex.group]++;
  const bool by_writer = static_cast<int>(writers.size()) >= folds;
  std::vector<int> fold_of(examples.size(), -1);
  for (size_t i = 0; i < examples.size(); ++i) {
    if (by_writer) {
      fold_of[i] = examples[i].group >= 0 ? examples[i].group % folds : -1;
    } else {
      fold_of[i] = static_cast<int>(i % static_cast<size_t>(folds));
    }
  }
  const bool written_only = !writers.empty();
  std::vector<float> rel_s, lvl_s;
  std::vector<bool> rel_y, lvl_y;
  for (int f = 0; f < folds; ++f) {
    std::vector<TrainExample> train;
    std::vector<size_t> held;
    for (size_t i = 0; i < examples.size(); ++i) {
      if (fold_of[i] == f) {
        held.push_back(i);
      } else {
        train.push_back(examples[i]);
      }
    }
    if (held.empty()) continue;
    auto m = TrainClassifier(train, options);
    if (!m.ok()) continue;  // a fold without two classes in some head adds nothing
    Classifier c(std::move(m).value());
    for (size_t i : held) {
      const TrainExample& ex = examples[i];
      if (written_only && ex.group < 0) continue;
      ClassifierPrediction p = c.Predict(ex.text);
      bool rel = ex.relevance == Relevance::kRelevant;
      rel_s.push_back(p.rel_score);
      rel_y.push_back(rel);
      if (rel && ex.train_level) {
        float sh = std::clamp(p.p_level, 1e-4f, 1.0f - 1e-4f);
        lvl_s.push_back(std::log(sh / (1 - sh)));
        lvl_y.push_back(p.level == ex.level);
      }
    }
  }
  ClassifierModel model = std::move(full).value();
  auto [ra, rb] = FitPlatt(rel_s, rel_y);
  auto [la, lb] = FitPlatt(lvl_s, lvl_y);
  model.calibration = {ra, rb, la, lb, !rel_s.empty() && !lvl_s.empty()};
  return model;
}

std::string ModelToCpp(const ClassifierModel& model) {
  std::string out;
  out.reserve(model.weights.size() * 12 + model.feature_ids.size() * 20);
  out +=
      "// Generated by nunchi_train_classifier from data/train/. Do not "
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
  const Calibration& c = model.calibration;
  char tail[512];
  std::snprintf(tail, sizeof tail,
                "}  // namespace\n\nModelView EmbeddedClassifierModel() {\n  return {kIds, kIdf, "
                "kWeights, kBias, FeatureConfig{%d, %s},\n          Calibration{%.9g, %.9g, %.9g, "
                "%.9g, %s}};\n}\n\n}  // namespace nunchi::judges\n",
                model.features.char_max, model.features.word_bigrams ? "true" : "false",
                static_cast<double>(c.rel_a), static_cast<double>(c.rel_b),
                static_cast<double>(c.lvl_a), static_cast<double>(c.lvl_b),
                c.fitted ? "true" : "false");
  out += tail;
  return out;
}

}  // namespace nunchi::judges
