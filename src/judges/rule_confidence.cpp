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
    {0.99f, 0.99f, 530},   // injection/instruction
    {0.93f, 0.93f, 325},   // injection/advert
    {0.99f, 0.99f, 776},   // noise/symbols
    {0.95f, 0.95f, 284},   // noise/arrival
    {0.96f, 0.96f, 1784},  // noise/reaction
    {0.91f, 0.91f, 255},   // place/word
    {0.62f, 0.62f, 58},    // place/numbered
    {0.64f, 0.64f, 126},   // place/side
    {0.72f, 0.72f, 311},   // place/named
    {0.50f, 0.50f, 430},   // place/elsewhere
    {0.86f, 0.86f, 245},   // place/no-cue
    {0.97f, 0.97f, 177},   // time/past
    {0.79f, 0.79f, 65},    // time/future
    {0.77f, 0.77f, 154},   // time/guess
    {0.81f, 0.81f, 102},   // time/story
    {0.96f, 0.96f, 348},   // time/no-cue
    {0.97f, 0.97f, 2590},  // question/asks
    {0.76f, 0.98f, 686},   // reply/parent
    {0.89f, 0.89f, 225},   // reply/no-report
    {0.93f, 0.96f, 3500},  // quantity/digits
    {0.96f, 0.91f, 797},   // quantity/korean
    {0.94f, 0.92f, 153},   // quantity/range
    {0.94f, 0.88f, 93},    // quantity/ahead
    {0.97f, 0.36f, 478},   // quantity/conflict
    {0.93f, 0.92f, 276},   // negation-irony/negated
    {0.95f, 0.88f, 132},   // negation-irony/irony
    {0.98f, 0.79f, 202},   // negation-irony/expect
    {0.89f, 0.97f, 4585},  // lexicon/clear
    {0.91f, 0.69f, 196},   // lexicon/mixed
    {0.97f, 0.96f, 406},   // lexicon/unknown
    {0.58f, 0.65f, 177},   // lexicon/weak
    {0.32f, 0.85f, 156},   // lexicon/topic
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
