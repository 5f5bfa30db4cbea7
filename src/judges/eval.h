// Evaluation of any Judge on labeled bundles (the data-set JSONL format):
// relevance accuracy, level accuracy on relevant signals, macro-F1 of level
// (incl. UNKNOWN, over all signals) and of relevance, the level confusion
// matrix, HIGH judged LOW, cause accuracy on relevant signals, how
// injection-like texts were judged, prefilter false exclusions, who answered,
// and signals per second. No CLI parsing here; the app wraps it.
// Evaluate() calls the judge from the calling thread only.
#pragma once

#include <array>
#include <map>
#include <string>
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
  std::vector<EvalCase> injections;       // texts that look like instructions to the judge
  size_t injections_judged_irrelevant = 0;
  std::map<std::string, size_t> answered_by;  // Judgment.judge -> count
  double seconds = 0;
  double signals_per_second = 0;
  std::vector<EvalCase> mistakes;        // relevance or level wrong, in data order
  std::vector<EvalCase> cause_mistakes;  // relevant by label, level right, cause wrong
};

EvalReport Evaluate(Judge& judge, const std::vector<LabeledBundle>& bundles,
                    TimeMs analyzed_at = kDataSetAnalyzedAtMs);

// Human-readable report; lists at most max_mistakes mistakes.
std::string EvalReportText(const EvalReport& report, size_t max_mistakes = 30);
// The same figures as one JSON object (mistakes included, at most max_mistakes).
std::string EvalReportJson(const EvalReport& report, size_t max_mistakes = 100);

}  // namespace nunchi::judges
