// Measured confidence of the rule passes: for every RuleRow (rule_passes.h),
// the precision of its relevance and of its level on the project's own
// training data, as printed by `nunchi_rule_passes` (rule_passes_main.cpp) and
// recorded in docs/quality.md "## Rule passes". The figures are the lower
// bound of a 95 % Wilson interval, lowered to the precision on the texts of
// independent writers where that is worse (rule_measure.h), so a row that fired
// rarely, or that fired on text it was not written for and was wrong there, is
// not trusted. Constant tables; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "judges/rule_passes.h"

namespace nunchi::judges {

struct RowConfidence {
  float relevance = 0;  // 0..1: how often the row's relevance was right
  float level = 0;      // 0..1: how often its level was right (given a right relevance)
  uint32_t fires = 0;   // signals it decided when measured
};

// The measured confidence of a row; rows never seen fire get a low default.
RowConfidence MeasuredConfidence(RuleRow row);

// Fills v->pass, relevance_confidence, level_confidence and confidence (the min) from the row.
void ApplyConfidence(RuleRow row, RuleVerdict* v);

// The lower bound of the 95 % Wilson score interval of correct/n (0 when n is 0).
double WilsonLower(size_t correct, size_t n);

}  // namespace nunchi::judges
