// Measuring the rule passes on labeled bundles: per RuleRow (rule_passes.h),
// how often it decided, how often its relevance was right, and how often its
// level was right where both it and the label said RELEVANT. The source of
// the figures in rule_confidence.cpp and docs/quality.md "## Rule passes";
// printed by nunchi_rule_passes. Pure functions; safe from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "judges/bundles_jsonl.h"
#include "judges/rule_passes.h"
#include "judges/rules.h"

namespace nunchi::judges {

struct RowTally {
  size_t fires = 0;
  size_t relevance_correct = 0;
  size_t level_judged = 0;  // fires where verdict and label are both RELEVANT
  size_t level_correct = 0;
};

struct PassTally {
  size_t signals = 0;    // labeled signals seen
  size_t undecided = 0;  // signals the rules left to the classifier
  std::array<RowTally, static_cast<size_t>(RuleRow::kCount)> rows{};
};

// Runs Rules::Analyze over every labeled signal in bundle order. A reply's parent is the
// label of the signal before it (so each pass is measured on its own, not on earlier
// mistakes); the post's cause is its label's, else the words of the post.
// mistakes, when set, receives one line per wrong decision: row, label, verdict, text.
PassTally MeasurePasses(const Rules& rules, const std::vector<LabeledBundle>& bundles,
                        std::string* mistakes = nullptr);
void AddTally(const PassTally& from, PassTally* to);

// Markdown table: one row per pass (the sum of its rows), then one per row that fired:
// fires, relevance precision, level precision, and their 95 % Wilson lower bounds.
std::string PassTableMarkdown(const PassTally& tally);
// The kMeasured initialiser of rule_confidence.cpp. Per row: the 95 % Wilson lower bound
// of its precision over all source groups pooled, lowered to the precision on any one group
// (the generated training file; the files of independent writers) that saw it fire at least
// kMinGroupFires times and did worse: no source may find a row worse than its figure.
inline constexpr size_t kMinGroupFires = 5;
std::string PassTableCpp(const std::vector<PassTally>& groups);

}  // namespace nunchi::judges
