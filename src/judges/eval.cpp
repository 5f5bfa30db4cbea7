#include "judges/eval.h"

#include <algorithm>
#include <chrono>
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

}  // namespace

EvalReport Evaluate(Judge& judge, const std::vector<LabeledBundle>& bundles, TimeMs analyzed_at) {
  EvalReport r;
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
      if (rules.LooksLikeInjection(ec.text)) {
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
  r.relevance_accuracy = Ratio(r.relevance_correct, r.signals);
  r.relevance_macro_f1 = MacroF1(rel_conf);
  r.level_accuracy_on_relevant = Ratio(r.level_correct_on_relevant, r.relevant_signals);
  r.level_macro_f1 = MacroF1(r.level_confusion);
  r.cause_accuracy_on_relevant = Ratio(r.cause_correct_on_relevant, r.relevant_signals);
  r.seconds = seconds;
  size_t judged = 0;
  for (const auto& b : bundles) judged += b.bundle.size();
  r.signals_per_second = seconds > 0 ? judged / seconds : 0;
  return r;
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
  line("injection-like texts %zu, judged IRRELEVANT %zu", r.injections.size(),
       r.injections_judged_irrelevant);
  for (const auto& c : r.injections)
    s += "  " + c.signal_id + " -> " + Describe(c.judged) + " (" + c.judged.judge + "): " + c.text +
         "\n";
  s += "level confusion (rows label, columns judged): LOW MEDIUM HIGH UNKNOWN\n";
  for (size_t a = 0; a < 4; ++a) {
    line("  %-8s %5zu %6zu %5zu %7zu", std::string(ToString(kAllLevels[a])).c_str(),
         r.level_confusion[a][0], r.level_confusion[a][1], r.level_confusion[a][2],
         r.level_confusion[a][3]);
  }
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

std::string EvalReportJson(const EvalReport& r, size_t max_mistakes) {
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
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace nunchi::judges
