// Evaluation of any Judge on labeled bundles (the data-set JSONL format):
// relevance accuracy, level accuracy on relevant signals, macro-F1 of level
// (incl. UNKNOWN, over all signals) and of relevance, the level confusion
// matrix, HIGH judged LOW, cause accuracy on relevant signals, how
// injection-like texts were judged, prefilter false exclusions, who answered,
// signals per second, and how well the judgments' confidences are calibrated
// (expected calibration error, accuracy per confidence decile, the share of
// signals above a confidence threshold). Several files are evaluated one by
// one and pooled; two JSON reports can be compared (a regression diff).
// No CLI parsing here; the app wraps it.
// Evaluate() calls the judge from the calling thread only; the rest are pure.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "judges/bundles_jsonl.h"
#include "judges/judge.h"

namespace nunchi::judges {

struct EvalCase {  // one judged signal, kept for mistakes and injection listings
  std::string signal_id;
  std::string text;
  SignalLabel label;
  Judgment judged;
};

// One kind of confidence against whether what it is about was right.
struct CalibrationStats {
  size_t n = 0;    // signals with a measured confidence
  double ece = 0;  // expected calibration error over 10 equal-width bins
  double mean_confidence = 0, accuracy = 0;
  struct Decile {  // a tenth of the signals, by rising confidence
    size_t n = 0, correct = 0;
    double min_confidence = 0, max_confidence = 0, mean_confidence = 0;
  };
  std::vector<Decile> deciles;  // 10 when n >= 10, fewer otherwise
};

// Confidence of a judgment as a whole (relevance, and the level when RELEVANT):
// relevance_confidence * level_confidence; nullopt when either is not measured.
std::optional<double> JointConfidence(const Judgment& j);
// Whether the judgment as a whole is right: relevance, and the level on relevant.
bool JointCorrect(const SignalLabel& label, const Judgment& j);

struct EvalReport {
  size_t bundles = 0;
  size_t signals = 0;  // labeled signals
  size_t failed = 0;   // targets the judge could not answer (counted as IRRELEVANT/UNKNOWN/NONE)
  size_t relevance_correct = 0;
  double relevance_accuracy = 0;
  double relevance_macro_f1 = 0;
  size_t relevant_signals = 0;  // labeled RELEVANT
  size_t level_correct_on_relevant = 0;
  double level_accuracy_on_relevant = 0;
  double level_macro_f1 = 0;
  // level_confusion[label][judged], levels in kAllLevels order, all signals.
  std::array<std::array<size_t, 4>, 4> level_confusion{};
  size_t high_judged_low = 0;
  size_t cause_correct_on_relevant = 0;
  double cause_accuracy_on_relevant = 0;
  size_t prefilter_removed = 0;
  size_t prefilter_false_exclusions = 0;  // prefilter said IRRELEVANT, label RELEVANT
  // Injection texts: the annotated ones when the set has an annotation file
  // (written by an annotator who has not seen the rules; injections_annotated),
  // else those Rules::LooksLikeInjection finds, a figure that cannot show what
  // the detector misses.
  std::vector<EvalCase> injections;
  size_t injections_judged_irrelevant = 0;
  bool injections_annotated = false;
  std::map<std::string, size_t> answered_by;  // Judgment.judge -> count
  double seconds = 0;
  size_t judged_signals = 0;  // labeled or not
  double signals_per_second = 0;
  std::vector<EvalCase> mistakes;        // relevance or level wrong, in data order
  std::vector<EvalCase> cause_mistakes;  // relevant by label, level right, cause wrong
  std::vector<EvalCase> cases;           // every labeled signal, in data order
  // relevance_confidence vs relevance right (all signals); level_confidence vs level
  // right (signals labeled and judged RELEVANT); JointConfidence vs JointCorrect.
  CalibrationStats relevance_calibration, level_calibration, joint_calibration;
};

// annotated_injections: the signal ids of the set's injection texts, from
// ReadInjectionIds (null: none annotated; the detector's finds are listed).
EvalReport Evaluate(Judge& judge, const std::vector<LabeledBundle>& bundles,
                    TimeMs analyzed_at = kDataSetAnalyzedAtMs,
                    const std::set<std::string>* annotated_injections = nullptr);

// Sums reports (of several files) into one, recomputing every ratio and calibration.
EvalReport PoolReports(const std::vector<EvalReport>& reports);

// The lowest joint-confidence threshold t such that the judgments with
// JointConfidence >= t are right at least `target` of the time (nullopt: none is).
std::optional<double> ConfidenceThreshold(const std::vector<EvalCase>& cases, double target = 0.97);
struct AboveThreshold {
  size_t n = 0, above = 0, correct_above = 0;
  double share = 0, accuracy = 0;  // share of signals at or above t; their accuracy
};
AboveThreshold ShareAbove(const std::vector<EvalCase>& cases, std::optional<double> threshold);

// Several files: each report by its path, the pooled one, and the threshold found on
// the pooled cases (what a cascade would escalate below).
struct MultiEval {
  std::vector<std::pair<std::string, EvalReport>> files;
  EvalReport pooled;
  double target = 0.97;
  std::optional<double> threshold;
};
MultiEval MakeMultiEval(std::vector<std::pair<std::string, EvalReport>> files,
                        double target = 0.97);
std::string MultiEvalText(const MultiEval& m, size_t max_mistakes = 30);
// {"files":[{"path":..., figures..., "judgments":[every signal]}], "pooled":{...},
//  "confidence_threshold":{...}}
std::string MultiEvalJson(const MultiEval& m, size_t max_mistakes = 100);
// Difference of two MultiEvalJson outputs: per file (matched by path) and pooled, each
// figure old -> new (delta), then every signal whose relevance, level or cause changed.
// kInvalidArgument when either is not such a report.
Result<std::string> CompareEvalJson(std::string_view old_json, std::string_view new_json);

// Human-readable report; lists at most max_mistakes mistakes.
std::string EvalReportText(const EvalReport& report, size_t max_mistakes = 30);
// The same figures as one JSON object (mistakes included, at most max_mistakes).
std::string EvalReportJson(const EvalReport& report, size_t max_mistakes = 100);

}  // namespace nunchi::judges
