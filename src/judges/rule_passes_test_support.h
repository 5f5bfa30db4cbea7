// The rule passes' test fixture (rule_passes.h): the state after the context pass, and
// whole verdicts, for one spot. Shared by the rule passes' test files; test threads only.
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "judges/rule_passes.h"

namespace nunchi::judges {

class RulePassesTest : public ::testing::Test {
 protected:
  // The state after the passes up to and including the context pass.
  RuleState State(std::string_view text) {
    RuleState s;
    RuleContext ctx;
    ctx.spot = &spot_;
    PrepareState(GetScanIndex(), text, ctx, &s);
    PlacePass(&s);
    TimePass(&s);
    PastPerfectPass(&s);
    QuestionPass(&s);
    QuotedClaimPass(&s);
    ExclaimedQuestionPass(&s);
    NegationIronyPass(&s);
    ContextPass(&s);
    return s;
  }
  // A relevant parent judged at level.
  static Judgment Parent(Level level) {
    Judgment j;
    j.relevance = Relevance::kRelevant;
    j.level = level;
    return j;
  }
  RuleVerdict Run(std::string_view text, const Judgment* parent = nullptr) {
    RuleContext ctx;
    ctx.spot = &spot_;
    ctx.parent = parent;
    return rules_.Analyze(text, ctx);
  }
  std::string_view Row(std::string_view text) { return Run(text).row; }
  static bool Any(const std::vector<char>& v) {
    for (char x : v)
      if (x) return true;
    return false;
  }
  Rules rules_;
  SpotInfo spot_{"s1", "성수 팝업스토어 입구", "성수동 팝업스토어 입구 대기줄"};
};

}  // namespace nunchi::judges
