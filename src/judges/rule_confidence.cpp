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
    {0.99f, 0.99f, 413},   // injection/instruction
    {0.89f, 0.89f, 302},   // injection/advert
    {0.99f, 0.99f, 637},   // noise/symbols
    {0.95f, 0.95f, 236},   // noise/arrival
    {0.96f, 0.96f, 1476},  // noise/reaction
    {0.92f, 0.92f, 215},   // place/word
    {0.65f, 0.65f, 52},    // place/numbered
    {0.67f, 0.67f, 115},   // place/side
    {0.71f, 0.71f, 249},   // place/named
    {0.51f, 0.51f, 400},   // place/elsewhere
    {0.87f, 0.87f, 198},   // place/no-cue
    {0.96f, 0.96f, 147},   // time/past
    {0.77f, 0.77f, 52},    // time/future
    {0.76f, 0.76f, 135},   // time/guess
    {0.76f, 0.76f, 76},    // time/story
    {0.96f, 0.96f, 309},   // time/no-cue
    {0.97f, 0.97f, 2039},  // question/asks
    {0.77f, 0.98f, 538},   // reply/parent
    {0.88f, 0.88f, 167},   // reply/no-report
    {0.93f, 0.95f, 2952},  // quantity/digits
    {0.95f, 0.90f, 583},   // quantity/korean
    {0.93f, 0.93f, 118},   // quantity/range
    {0.92f, 0.85f, 63},    // quantity/ahead
    {0.97f, 0.36f, 385},   // quantity/conflict
    {0.92f, 0.93f, 238},   // negation-irony/negated
    {0.93f, 0.89f, 108},   // negation-irony/irony
    {0.98f, 0.87f, 187},   // negation-irony/expect
    {0.87f, 0.97f, 3949},  // lexicon/clear
    {0.92f, 0.68f, 150},   // lexicon/mixed
    {0.97f, 0.95f, 370},   // lexicon/unknown
    {0.58f, 0.68f, 141},   // lexicon/weak
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
