#include "judges/rule_confidence.h"

#include <algorithm>
#include <cmath>

namespace nunchi::judges {
namespace {

struct RowName {
  std::string_view pass, row;
};
// Indexed by RuleRow.
constexpr RowName kRuleRowNames[] = {
    {"injection", "injection/instruction"},
    {"injection", "injection/advert"},
    {"noise", "noise/symbols"},
    {"noise", "noise/arrival"},
    {"noise", "noise/reaction"},
    {"place", "place/word"},
    {"place", "place/numbered"},
    {"place", "place/side"},
    {"place", "place/named"},
    {"place", "place/elsewhere"},
    {"place", "place/no-cue"},
    {"time", "time/past"},
    {"time", "time/future"},
    {"time", "time/guess"},
    {"time", "time/story"},
    {"time", "time/no-cue"},
    {"question", "question/asks"},
    {"reply", "reply/parent"},
    {"reply", "reply/no-report"},
    {"quantity", "quantity/digits"},
    {"quantity", "quantity/korean"},
    {"quantity", "quantity/range"},
    {"quantity", "quantity/ahead"},
    {"quantity", "quantity/conflict"},
    {"negation-irony", "negation-irony/negated"},
    {"negation-irony", "negation-irony/irony"},
    {"negation-irony", "negation-irony/expect"},
    {"lexicon", "lexicon/clear"},
    {"lexicon", "lexicon/mixed"},
    {"lexicon", "lexicon/unknown"},
    {"lexicon", "lexicon/weak"},
    {"lexicon", "lexicon/topic"},
};
static_assert(std::size(kRuleRowNames) == static_cast<size_t>(RuleRow::kCount));

// MEASURED: see docs/quality.md "## Rule passes" for the command, the data and the date.
// {relevance, level, fires}: 95 % Wilson lower bounds of the precision of each row.
// BEGIN MEASURED TABLE
constexpr RowConfidence kMeasured[] = {
    {0.99f, 0.99f, 752},   // injection/instruction
    {0.96f, 0.96f, 390},   // injection/advert
    {0.98f, 0.98f, 1146},  // noise/symbols
    {0.96f, 0.96f, 347},   // noise/arrival
    {0.96f, 0.96f, 2217},  // noise/reaction
    {0.92f, 0.92f, 330},   // place/word
    {0.59f, 0.59f, 64},    // place/numbered
    {0.68f, 0.68f, 142},   // place/side
    {0.75f, 0.75f, 494},   // place/named
    {0.53f, 0.53f, 492},   // place/elsewhere
    {0.89f, 0.89f, 350},   // place/no-cue
    {0.97f, 0.97f, 207},   // time/past
    {0.76f, 0.76f, 81},    // time/future
    {0.76f, 0.76f, 180},   // time/guess
    {0.75f, 0.75f, 133},   // time/story
    {0.96f, 0.96f, 466},   // time/no-cue
    {0.97f, 0.97f, 3507},  // question/asks
    {0.79f, 0.98f, 960},   // reply/parent
    {0.91f, 0.91f, 330},   // reply/no-report
    {0.92f, 0.95f, 4533},  // quantity/digits
    {0.96f, 0.91f, 1168},  // quantity/korean
    {0.96f, 0.93f, 213},   // quantity/range
    {0.96f, 0.87f, 132},   // quantity/ahead
    {0.97f, 0.36f, 648},   // quantity/conflict
    {0.94f, 0.94f, 338},   // negation-irony/negated
    {0.95f, 0.88f, 169},   // negation-irony/irony
    {0.98f, 0.87f, 247},   // negation-irony/expect
    {0.89f, 0.97f, 5877},  // lexicon/clear
    {0.90f, 0.68f, 274},   // lexicon/mixed
    {0.96f, 0.95f, 493},   // lexicon/unknown
    {0.63f, 0.67f, 253},   // lexicon/weak
    {0.32f, 0.85f, 199},   // lexicon/topic
};
// END MEASURED TABLE
static_assert(std::size(kMeasured) == static_cast<size_t>(RuleRow::kCount));

}  // namespace

std::string_view RulePassName(RuleRow row) { return kRuleRowNames[static_cast<size_t>(row)].pass; }
std::string_view RuleRowName(RuleRow row) { return kRuleRowNames[static_cast<size_t>(row)].row; }

RowConfidence MeasuredConfidence(RuleRow row) { return kMeasured[static_cast<size_t>(row)]; }

void ApplyConfidence(RuleRow row, RuleVerdict* v) {
  RowConfidence c = MeasuredConfidence(row);
  v->pass = std::string(RulePassName(row));
  v->row = RuleRowName(row);
  v->relevance_confidence = c.relevance;
  // An IRRELEVANT verdict's level (UNKNOWN) is right exactly when its relevance is; a
  // RELEVANT verdict's is the precision of its level where its relevance was right.
  v->level_confidence = v->judgment.relevance == Relevance::kIrrelevant ? c.relevance : c.level;
  v->confidence = std::min(v->relevance_confidence, v->level_confidence);
}

double WilsonLower(size_t correct, size_t n) {
  if (n == 0) return 0;
  constexpr double z = 1.96;
  double p = static_cast<double>(correct) / n;
  double nn = static_cast<double>(n);
  double centre = p + z * z / (2 * nn);
  double margin = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
  return std::max(0.0, (centre - margin) / (1 + z * z / nn));
}

}  // namespace nunchi::judges
