#include "judges/eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "judges/rules.h"

namespace nunchi::judges {
namespace {

size_t Idx(Level l) {
  return static_cast<size_t>(std::find(kAllLevels.begin(), kAllLevels.end(), l) -
                             kAllLevels.begin());
}

double Ratio(size_t a, size_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / b; }

// Macro-F1 over the classes that occur in labels or predictions.
template <size_t N>
double MacroF1(const std::array<std::array<size_t, N>, N>& m) {
  double sum = 0;
  int classes = 0;
  for (size_t c = 0; c < N; ++c) {
    size_t tp = m[c][c], fp = 0, fn = 0;
    for (size_t k = 0; k < N; ++k) {
      if (k == c) continue;
      fp += m[k][c];
      fn += m[c][k];
    }
    if (tp + fp + fn == 0) continue;
    sum += 2.0 * tp / (2.0 * tp + fp + fn);
    ++classes;
  }
  return classes ? sum / classes : 0.0;
}

std::string Pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * v);
  return buf;
}

std::string Describe(const SignalLabel& l) {
  return std::string(ToString(l.relevance)) + "/" + std::string(ToString(l.level)) + "/" +
         std::string(ToString(l.cause));
}
std::string Describe(const Judgment& j) {
  return std::string(ToString(j.relevance)) + "/" + std::string(ToString(j.level)) + "/" +
         std::string(ToString(j.cause));
}

CalibrationStats Calibrate(std::vector<std::pair<double, bool>> v) {
  CalibrationStats c;
  c.n = v.size();
  if (v.empty()) return c;
  std::sort(v.begin(), v.end());
  std::array<double, 10> bin_conf{}, bin_ok{};
  std::array<size_t, 10> bin_n{};
  double sum_conf = 0, sum_ok = 0;
  for (auto [conf, ok] : v) {
    size_t b = std::min<size_t>(9, static_cast<size_t>(std::max(0.0, conf) * 10));
    bin_conf[b] += conf, bin_ok[b] += ok, bin_n[b]++;
    sum_conf += conf, sum_ok += ok;
  }
  for (size_t b = 0; b < 10; ++b)
    if (bin_n[b]) c.ece += std::fabs(bin_conf[b] - bin_ok[b]) / static_cast<double>(c.n);
  c.mean_confidence = sum_conf / c.n;
  c.accuracy = sum_ok / c.n;
  size_t parts = std::min<size_t>(10, v.size());
  for (size_t d = 0; d < parts; ++d) {
    size_t lo = d * v.size() / parts, hi = (d + 1) * v.size() / parts;
    CalibrationStats::Decile dec;
    dec.n = hi - lo;
    dec.min_confidence = v[lo].first;
    dec.max_confidence = v[hi - 1].first;
    double s = 0;
    for (size_t k = lo; k < hi; ++k) s += v[k].first, dec.correct += v[k].second;
    dec.mean_confidence = s / dec.n;
    c.deciles.push_back(dec);
  }
  return c;
}

bool Measured(double c) { return c >= 0; }

// Ratios, calibration; everything derived from the counts and cases.
void Finish(EvalReport& r, const std::array<std::array<size_t, 2>, 2>& rel_conf) {
  r.relevance_accuracy = Ratio(r.relevance_correct, r.signals);
  r.relevance_macro_f1 = MacroF1(rel_conf);
  r.level_accuracy_on_relevant = Ratio(r.level_correct_on_relevant, r.relevant_signals);
  r.level_macro_f1 = MacroF1(r.level_confusion);
  r.cause_accuracy_on_relevant = Ratio(r.cause_correct_on_relevant, r.relevant_signals);
  r.signals_per_second = r.seconds > 0 ? r.judged_signals / r.seconds : 0;
  std::vector<std::pair<double, bool>> rel, lvl, joint;
  for (const auto& c : r.cases) {
    const Judgment& j = c.judged;
    bool lrel = c.label.relevance == Relevance::kRelevant,
         jrel = j.relevance == Relevance::kRelevant;
    if (Measured(j.relevance_confidence)) rel.emplace_back(j.relevance_confidence, lrel == jrel);
    if (lrel && jrel && Measured(j.level_confidence))
      lvl.emplace_back(j.level_confidence, j.level == c.label.level);
    if (auto jc = JointConfidence(j)) joint.emplace_back(*jc, JointCorrect(c.label, j));
  }
  r.relevance_calibration = Calibrate(std::move(rel));
  r.level_calibration = Calibrate(std::move(lvl));
  r.joint_calibration = Calibrate(std::move(joint));
}

std::array<std::array<size_t, 2>, 2> RelevanceConfusion(const std::vector<EvalCase>& cases) {
  std::array<std::array<size_t, 2>, 2> m{};
  for (const auto& c : cases)
    m[c.label.relevance == Relevance::kRelevant ? 0 : 1]
     [c.judged.relevance == Relevance::kRelevant ? 0 : 1]++;
  return m;
}

}  // namespace

std::optional<double> JointConfidence(const Judgment& j) {
  if (!Measured(j.relevance_confidence)) return std::nullopt;
  if (j.relevance != Relevance::kRelevant) return j.relevance_confidence;
  if (!Measured(j.level_confidence)) return std::nullopt;
  return j.relevance_confidence * j.level_confidence;
}

bool JointCorrect(const SignalLabel& label, const Judgment& j) {
  bool lrel = label.relevance == Relevance::kRelevant, jrel = j.relevance == Relevance::kRelevant;
  return lrel == jrel && (!lrel || j.level == label.level);
}

EvalReport Evaluate(Judge& judge, const std::vector<LabeledBundle>& bundles, TimeMs analyzed_at,
                    const std::set<std::string>* annotated_injections) {
  EvalReport r;
  r.injections_annotated = annotated_injections != nullptr;
  Rules rules;
  std::array<std::array<size_t, 2>, 2> rel_conf{};
  double seconds = 0;
  for (const auto& b : bundles) {
    JudgeTask task;
    task.spot = b.spot;
    task.bundle = b.bundle;
    task.analyzed_at = analyzed_at;
    task.request_id = "eval-" + b.bundle_id;
    for (size_t i = 0; i < b.bundle.size(); ++i) task.targets.push_back(i);
    auto t0 = std::chrono::steady_clock::now();
    JudgeOutput out = judge.JudgeBundle(task);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++r.bundles;
    for (size_t i = 0; i < b.bundle.size(); ++i) {
      Judgment j;  // a failed target counts as IRRELEVANT/UNKNOWN/NONE
      if (i < out.size() && out[i].ok()) {
        j = out[i].value();
      } else {
        ++r.failed;
        j.judge = "failed";
      }
      r.answered_by[j.judge]++;
      if (j.judge == "prefilter") ++r.prefilter_removed;
      if (i >= b.labels.size() || !b.labels[i]) continue;
      const SignalLabel& l = *b.labels[i];
      EvalCase ec{b.bundle.at(i).signal_id, b.bundle.at(i).text, l, j};
      r.cases.push_back(ec);
      ++r.signals;
      bool lrel = l.relevance == Relevance::kRelevant, jrel = j.relevance == Relevance::kRelevant;
      rel_conf[lrel ? 0 : 1][jrel ? 0 : 1]++;
      if (lrel == jrel) ++r.relevance_correct;
      Level jl = jrel ? j.level : Level::kUnknown;
      r.level_confusion[Idx(l.level)][Idx(jl)]++;
      if (l.level == Level::kHigh && jl == Level::kLow) ++r.high_judged_low;
      if (lrel) {
        ++r.relevant_signals;
        if (jl == l.level) ++r.level_correct_on_relevant;
        if ((jrel ? j.cause : Cause::kNone) == l.cause) ++r.cause_correct_on_relevant;
      }
      if (j.judge == "prefilter" && lrel) ++r.prefilter_false_exclusions;
      if (annotated_injections ? annotated_injections->count(ec.signal_id) > 0
                               : rules.LooksLikeInjection(ec.text)) {
        if (!jrel) ++r.injections_judged_irrelevant;
        r.injections.push_back(ec);
      }
      if (lrel != jrel || (lrel && jl != l.level)) {
        r.mistakes.push_back(std::move(ec));
      } else if (lrel && j.cause != l.cause) {
        r.cause_mistakes.push_back(std::move(ec));
      }
    }
  }
  r.seconds = seconds;
  for (const auto& b : bundles) r.judged_signals += b.bundle.size();
  Finish(r, rel_conf);
  return r;
}

EvalReport PoolReports(const std::vector<EvalReport>& reports) {
  EvalReport p;
  p.injections_annotated = !reports.empty();  // pooled: annotated when every file is
  for (const auto& r : reports) {
    p.bundles += r.bundles;
    p.signals += r.signals;
    p.failed += r.failed;
    p.relevance_correct += r.relevance_correct;
    p.relevant_signals += r.relevant_signals;
    p.level_correct_on_relevant += r.level_correct_on_relevant;
    for (size_t a = 0; a < 4; ++a)
      for (size_t b = 0; b < 4; ++b) p.level_confusion[a][b] += r.level_confusion[a][b];
    p.high_judged_low += r.high_judged_low;
    p.cause_correct_on_relevant += r.cause_correct_on_relevant;
    p.prefilter_removed += r.prefilter_removed;
    p.prefilter_false_exclusions += r.prefilter_false_exclusions;
    p.injections.insert(p.injections.end(), r.injections.begin(), r.injections.end());
    p.injections_judged_irrelevant += r.injections_judged_irrelevant;
    p.injections_annotated = p.injections_annotated && r.injections_annotated;
    for (const auto& [who, n] : r.answered_by) p.answered_by[who] += n;
    p.seconds += r.seconds;
    p.judged_signals += r.judged_signals;
    p.mistakes.insert(p.mistakes.end(), r.mistakes.begin(), r.mistakes.end());
    p.cause_mistakes.insert(p.cause_mistakes.end(), r.cause_mistakes.begin(),
                            r.cause_mistakes.end());
    p.cases.insert(p.cases.end(), r.cases.begin(), r.cases.end());
  }
  Finish(p, RelevanceConfusion(p.cases));
  return p;
}

std::optional<double> ConfidenceThreshold(const std::vector<EvalCase>& cases, double target) {
  std::vector<std::pair<double, bool>> v;
  for (const auto& c : cases)
    if (auto jc = JointConfidence(c.judged)) v.emplace_back(*jc, JointCorrect(c.label, c.judged));
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::optional<double> best;
  size_t n = 0, ok = 0;
  for (size_t k = 0; k < v.size(); ++k) {
    ++n, ok += v[k].second;
    bool last_of_value = k + 1 == v.size() || v[k + 1].first < v[k].first;
    if (last_of_value && static_cast<double>(ok) >= target * static_cast<double>(n))
      best = v[k].first;
  }
  return best;
}

AboveThreshold ShareAbove(const std::vector<EvalCase>& cases, std::optional<double> threshold) {
  AboveThreshold a;
  a.n = cases.size();
  if (threshold) {
    for (const auto& c : cases) {
      auto jc = JointConfidence(c.judged);
      if (!jc || *jc < *threshold) continue;
      ++a.above;
      a.correct_above += JointCorrect(c.label, c.judged);
    }
  }
  a.share = Ratio(a.above, a.n);
  a.accuracy = Ratio(a.correct_above, a.above);
  return a;
}

MultiEval MakeMultiEval(std::vector<std::pair<std::string, EvalReport>> files, double target) {
  MultiEval m;
  m.target = target;
  std::vector<EvalReport> all;
  for (const auto& [path, r] : files) all.push_back(r);
  m.pooled = PoolReports(all);
  m.files = std::move(files);
  m.threshold = ConfidenceThreshold(m.pooled.cases, target);
  return m;
}

std::string EvalReportText(const EvalReport& r, size_t max_mistakes) {
  std::string s;
  char buf[256];
  auto line = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    s += buf;
    s += '\n';
  };
  line("bundles %zu, labeled signals %zu (relevant %zu), failed targets %zu", r.bundles, r.signals,
       r.relevant_signals, r.failed);
  s += "relevance accuracy      " + Pct(r.relevance_accuracy) + "  (" +
       std::to_string(r.relevance_correct) + "/" + std::to_string(r.signals) + ")\n";
  s += "relevance macro-F1      " + Pct(r.relevance_macro_f1) + "\n";
  s += "level accuracy (rel.)   " + Pct(r.level_accuracy_on_relevant) + "  (" +
       std::to_string(r.level_correct_on_relevant) + "/" + std::to_string(r.relevant_signals) +
       ")\n";
  s += "level macro-F1 (all)    " + Pct(r.level_macro_f1) + "\n";
  s += "cause accuracy (rel.)   " + Pct(r.cause_accuracy_on_relevant) + "  (" +
       std::to_string(r.cause_correct_on_relevant) + "/" + std::to_string(r.relevant_signals) +
       ")\n";
  line("HIGH judged LOW         %zu", r.high_judged_low);
  line("prefilter removed %zu, false exclusions %zu", r.prefilter_removed,
       r.prefilter_false_exclusions);
  line(r.injections_annotated ? "injection texts (annotated) %zu, judged IRRELEVANT %zu"
                              : "injection-like texts (detector) %zu, judged IRRELEVANT %zu",
       r.injections.size(), r.injections_judged_irrelevant);
  for (const auto& c : r.injections)
    s += "  " + c.signal_id + " -> " + Describe(c.judged) + " (" + c.judged.judge + "): " + c.text +
         "\n";
  s += "level confusion (rows label, columns judged): LOW MEDIUM HIGH UNKNOWN\n";
  for (size_t a = 0; a < 4; ++a) {
    line("  %-8s %5zu %6zu %5zu %7zu", std::string(ToString(kAllLevels[a])).c_str(),
         r.level_confusion[a][0], r.level_confusion[a][1], r.level_confusion[a][2],
         r.level_confusion[a][3]);
  }
  auto calib = [&](const char* what, const CalibrationStats& c) {
    if (c.n == 0) {
      s += std::string("confidence (") + what + "): not measured\n";
      return;
    }
    line("confidence (%s): %zu signals, mean %.3f, accuracy %.3f, ECE %.3f", what, c.n,
         c.mean_confidence, c.accuracy, c.ece);
    s += "  accuracy per decile:";
    for (const auto& d : c.deciles) {
      std::snprintf(buf, sizeof buf, " [%.2f-%.2f] %.0f%%", d.min_confidence, d.max_confidence,
                    100.0 * Ratio(d.correct, d.n));
      s += buf;
    }
    s += "\n";
  };
  calib("relevance", r.relevance_calibration);
  calib("level", r.level_calibration);
  calib("joint", r.joint_calibration);
  s += "answered by:";
  for (const auto& [who, n] : r.answered_by) s += " " + who + "=" + std::to_string(n);
  s += "\n";
  line("throughput %.0f signals/s (%.3f s judging)", r.signals_per_second, r.seconds);
  if (!r.mistakes.empty()) {
    line("mistakes (%zu, first %zu):", r.mistakes.size(),
         std::min(max_mistakes, r.mistakes.size()));
    for (size_t k = 0; k < r.mistakes.size() && k < max_mistakes; ++k) {
      const auto& c = r.mistakes[k];
      s += "  " + c.signal_id + " label " + Describe(c.label) + " judged " + Describe(c.judged) +
           " by " + c.judged.judge + ": " + c.text + "\n";
    }
  }
  if (!r.cause_mistakes.empty()) {
    line("cause mistakes with the level right (%zu, first %zu):", r.cause_mistakes.size(),
         std::min(max_mistakes, r.cause_mistakes.size()));
    for (size_t k = 0; k < r.cause_mistakes.size() && k < max_mistakes; ++k) {
      const auto& c = r.cause_mistakes[k];
      s += "  " + c.signal_id + " label " + Describe(c.label) + " judged " + Describe(c.judged) +
           " by " + c.judged.judge + ": " + c.text + "\n";
    }
  }
  return s;
}

namespace {

nlohmann::json CalibrationJson(const CalibrationStats& c) {
  nlohmann::json d = nlohmann::json::array();
  for (const auto& x : c.deciles)
    d.push_back({{"n", x.n},
                 {"correct", x.correct},
                 {"accuracy", Ratio(x.correct, x.n)},
                 {"min_confidence", x.min_confidence},
                 {"max_confidence", x.max_confidence},
                 {"mean_confidence", x.mean_confidence}});
  return {{"n", c.n},
          {"ece", c.ece},
          {"mean_confidence", c.mean_confidence},
          {"accuracy", c.accuracy},
          {"deciles", d}};
}

nlohmann::json ReportJson(const EvalReport& r, size_t max_mistakes) {
  using nlohmann::json;
  auto case_json = [](const EvalCase& c) {
    return json{{"signal_id", c.signal_id},
                {"text", c.text},
                {"label",
                 {{"relevance", ToString(c.label.relevance)},
                  {"level", ToString(c.label.level)},
                  {"cause", ToString(c.label.cause)}}},
                {"judged",
                 {{"relevance", ToString(c.judged.relevance)},
                  {"level", ToString(c.judged.level)},
                  {"cause", ToString(c.judged.cause)},
                  {"cause_text", c.judged.cause_text},
                  {"judge", c.judged.judge}}}};
  };
  json j;
  j["bundles"] = r.bundles;
  j["signals"] = r.signals;
  j["failed"] = r.failed;
  j["relevance_accuracy"] = r.relevance_accuracy;
  j["relevance_macro_f1"] = r.relevance_macro_f1;
  j["relevant_signals"] = r.relevant_signals;
  j["level_accuracy_on_relevant"] = r.level_accuracy_on_relevant;
  j["level_macro_f1"] = r.level_macro_f1;
  json conf = json::object();
  for (size_t a = 0; a < 4; ++a) {
    json row = json::object();
    for (size_t b = 0; b < 4; ++b)
      row[std::string(ToString(kAllLevels[b]))] = r.level_confusion[a][b];
    conf[std::string(ToString(kAllLevels[a]))] = row;
  }
  j["level_confusion"] = conf;
  j["high_judged_low"] = r.high_judged_low;
  j["cause_accuracy_on_relevant"] = r.cause_accuracy_on_relevant;
  j["prefilter_removed"] = r.prefilter_removed;
  j["prefilter_false_exclusions"] = r.prefilter_false_exclusions;
  j["injections_judged_irrelevant"] = r.injections_judged_irrelevant;
  j["injections_annotated"] = r.injections_annotated;
  j["injections"] = json::array();
  for (const auto& c : r.injections) j["injections"].push_back(case_json(c));
  j["answered_by"] = r.answered_by;
  j["seconds"] = r.seconds;
  j["signals_per_second"] = r.signals_per_second;
  j["mistakes"] = json::array();
  for (size_t k = 0; k < r.mistakes.size() && k < max_mistakes; ++k)
    j["mistakes"].push_back(case_json(r.mistakes[k]));
  j["cause_mistakes"] = json::array();
  for (size_t k = 0; k < r.cause_mistakes.size() && k < max_mistakes; ++k)
    j["cause_mistakes"].push_back(case_json(r.cause_mistakes[k]));
  j["calibration"] = {{"relevance", CalibrationJson(r.relevance_calibration)},
                      {"level", CalibrationJson(r.level_calibration)},
                      {"joint", CalibrationJson(r.joint_calibration)}};
  j["judgments"] = json::array();
  for (const auto& c : r.cases)
    j["judgments"].push_back(
        {{"signal_id", c.signal_id},
         {"label", {ToString(c.label.relevance), ToString(c.label.level), ToString(c.label.cause)}},
         {"judged",
          {ToString(c.judged.relevance), ToString(c.judged.level), ToString(c.judged.cause)}},
         {"judge", c.judged.judge},
         {"relevance_confidence", c.judged.relevance_confidence},
         {"level_confidence", c.judged.level_confidence}});
  return j;
}

nlohmann::json AboveJson(const AboveThreshold& a) {
  return {{"signals", a.n}, {"above", a.above}, {"share", a.share}, {"accuracy_above", a.accuracy}};
}

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string EvalReportJson(const EvalReport& r, size_t max_mistakes) {
  return Dump(ReportJson(r, max_mistakes));
}

std::string MultiEvalText(const MultiEval& m, size_t max_mistakes) {
  std::string s;
  char buf[256];
  auto above = [&](const std::vector<EvalCase>& cases) {
    AboveThreshold a = ShareAbove(cases, m.threshold);
    if (m.threshold) {
      std::snprintf(buf, sizeof buf,
                    "above the pooled %.0f %% threshold (joint confidence >= %.4f): %.1f %% of "
                    "signals (%zu/%zu), accuracy %.1f %%\n",
                    100 * m.target, *m.threshold, 100 * a.share, a.above, a.n, 100 * a.accuracy);
    } else {
      std::snprintf(buf, sizeof buf,
                    "no joint-confidence threshold reaches %.0f %% on the pooled files\n",
                    100 * m.target);
    }
    s += buf;
  };
  for (const auto& [path, r] : m.files) {
    s += "== " + path + " ==\n" + EvalReportText(r, max_mistakes);
    above(r.cases);
    s += "\n";
  }
  if (m.files.size() != 1) {
    s += "== pooled (" + std::to_string(m.files.size()) + " files) ==\n" +
         EvalReportText(m.pooled, 0);
    above(m.pooled.cases);
  }
  return s;
}

std::string MultiEvalJson(const MultiEval& m, size_t max_mistakes) {
  using nlohmann::json;
  json j;
  j["files"] = json::array();
  for (const auto& [path, r] : m.files) {
    json f = ReportJson(r, max_mistakes);
    f["path"] = path;
    f["above_threshold"] = AboveJson(ShareAbove(r.cases, m.threshold));
    j["files"].push_back(std::move(f));
  }
  json pooled = ReportJson(m.pooled, max_mistakes);
  pooled.erase("judgments");  // each file has its own
  pooled["above_threshold"] = AboveJson(ShareAbove(m.pooled.cases, m.threshold));
  j["pooled"] = std::move(pooled);
  j["confidence_threshold"] = {{"target_accuracy", m.target},
                               {"kind", "joint"},
                               {"threshold", m.threshold ? json(*m.threshold) : json(nullptr)}};
  return Dump(j);
}

Result<std::string> CompareEvalJson(std::string_view old_json, std::string_view new_json) {
  using nlohmann::json;
  json a = json::parse(old_json, nullptr, false), b = json::parse(new_json, nullptr, false);
  auto valid = [](const json& j) {
    return j.is_object() && j.contains("files") && j["files"].is_array() && j.contains("pooled");
  };
  if (!valid(a) || !valid(b))
    return Status(ErrorCode::kInvalidArgument,
                  "not a `nunchi eval --json` report of several files");
  static const std::vector<std::pair<const char*, std::vector<const char*>>> kFigures = {
      {"relevance_accuracy", {"relevance_accuracy"}},
      {"relevance_macro_f1", {"relevance_macro_f1"}},
      {"level_accuracy_on_relevant", {"level_accuracy_on_relevant"}},
      {"level_macro_f1", {"level_macro_f1"}},
      {"cause_accuracy_on_relevant", {"cause_accuracy_on_relevant"}},
      {"high_judged_low", {"high_judged_low"}},
      {"injections_judged_irrelevant", {"injections_judged_irrelevant"}},
      {"prefilter_false_exclusions", {"prefilter_false_exclusions"}},
      {"relevance_ece", {"calibration", "relevance", "ece"}},
      {"level_ece", {"calibration", "level", "ece"}},
      {"joint_ece", {"calibration", "joint", "ece"}},
      {"share_above_threshold", {"above_threshold", "share"}},
      {"accuracy_above_threshold", {"above_threshold", "accuracy_above"}}};
  auto get = [](const json& r, const std::vector<const char*>& path) -> std::optional<double> {
    const json* p = &r;
    for (const char* k : path) {
      if (!p->is_object() || !p->contains(k)) return std::nullopt;
      p = &(*p)[k];
    }
    if (!p->is_number()) return std::nullopt;
    return p->get<double>();
  };
  std::string s;
  char buf[256];
  auto figures = [&](const std::string& title, const json& x, const json& y) {
    s += "== " + title + " ==\n";
    for (const auto& [name, path] : kFigures) {
      auto u = get(x, path), v = get(y, path);
      if (!u || !v) continue;
      std::snprintf(buf, sizeof buf, "  %-30s %10.4f -> %10.4f  (%+.4f)\n", name, *u, *v, *v - *u);
      s += buf;
    }
  };
  std::map<std::string, const json*> old_files;
  for (const auto& f : a["files"]) old_files[f.value("path", "")] = &f;
  size_t changed = 0;
  std::string listing;
  for (const auto& f : b["files"]) {
    std::string path = f.value("path", "");
    auto it = old_files.find(path);
    if (it == old_files.end()) {
      s += "== " + path + " == (not in the old report)\n";
      continue;
    }
    figures(path, *it->second, f);
    std::map<std::string, const json*> before;
    if (it->second->contains("judgments"))
      for (const auto& g : (*it->second)["judgments"]) before[g.value("signal_id", "")] = &g;
    if (!f.contains("judgments")) continue;
    for (const auto& g : f["judgments"]) {
      auto o = before.find(g.value("signal_id", ""));
      if (o == before.end() || (*o->second)["judged"] == g["judged"]) continue;
      ++changed;
      auto triple = [](const json& t) {
        std::string out;
        for (const auto& x : t) out += (out.empty() ? "" : "/") + x.get<std::string>();
        return out;
      };
      bool was_right = (*o->second)["judged"][0] == g["label"][0] &&
                       (g["label"][0] != "RELEVANT" || (*o->second)["judged"][1] == g["label"][1]);
      bool now_right = g["judged"][0] == g["label"][0] &&
                       (g["label"][0] != "RELEVANT" || g["judged"][1] == g["label"][1]);
      const char* mark = was_right == now_right ? "  " : now_right ? "+ " : "- ";
      listing += std::string("  ") + mark + path + " " + g.value("signal_id", "") + ": " +
                 triple((*o->second)["judged"]) + " -> " + triple(g["judged"]) + " (label " +
                 triple(g["label"]) + ", by " + g.value("judge", "") + ")\n";
    }
  }
  figures("pooled", a["pooled"], b["pooled"]);
  s += "signals whose judgment changed: " + std::to_string(changed) +
       " (+ now right, - now wrong, on relevance and level)\n" + listing;
  return s;
}

}  // namespace nunchi::judges
