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
};
static_assert(std::size(kRuleRowNames) == static_cast<size_t>(RuleRow::kCount));

// MEASURED: see docs/quality.md "## Rule passes" for the command, the data and the date.
// {relevance, level, fires}: 95 % Wilson lower bounds of the precision of each row.
// BEGIN MEASURED TABLE
constexpr RowConfidence kMeasured[] = {
    {0.97f, 0.97f, 111},  // injection/instruction
    {0.98f, 0.98f, 178},  // injection/advert
    {0.92f, 0.92f, 42},  // noise/symbols
    {0.96f, 0.96f, 89},  // noise/arrival
    {0.90f, 0.90f, 186},  // noise/reaction
    {0.93f, 0.93f, 75},  // place/word
    {0.89f, 0.89f, 31},  // place/numbered
    {0.40f, 0.40f, 64},  // place/side
    {0.94f, 0.94f, 92},  // place/named
    {0.99f, 0.99f, 266},  // place/elsewhere
    {0.73f, 0.73f, 17},  // place/no-cue
    {0.93f, 0.93f, 54},  // time/past
    {0.78f, 0.78f, 14},  // time/future
    {0.94f, 0.94f, 94},  // time/guess
    {0.48f, 0.48f, 15},  // time/story
    {0.72f, 0.72f, 10},  // time/no-cue
    {0.98f, 0.98f, 270},  // question/asks
    {0.99f, 0.99f, 273},  // reply/parent
    {0.96f, 0.96f, 191},  // reply/no-report
    {0.94f, 0.96f, 733},  // quantity/digits
    {0.96f, 0.92f, 90},  // quantity/korean
    {0.84f, 0.76f, 20},  // quantity/range
    {0.34f, 0.34f, 2},  // quantity/ahead
    {0.90f, 0.45f, 34},  // quantity/conflict
    {0.88f, 0.92f, 94},  // negation-irony/negated
    {0.91f, 0.91f, 39},  // negation-irony/irony
    {0.98f, 0.98f, 163},  // negation-irony/expect
    {0.83f, 0.93f, 1330},  // lexicon/clear
    {0.87f, 0.76f, 26},  // lexicon/mixed
    {0.98f, 0.96f, 177},  // lexicon/unknown
    {0.60f, 0.75f, 21},  // lexicon/weak
};
// END MEASURED TABLE
static_assert(std::size(kMeasured) == static_cast<size_t>(RuleRow::kCount));

}  // namespace

std::string_view RulePassName(RuleRow row) {
  return kRuleRowNames[static_cast<size_t>(row)].pass;
}
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
