#include "judges/rules.h"

#include <algorithm>

#include "judges/lexicon.h"
#include "judges/rule_confidence.h"
#include "judges/rule_passes.h"
#include "judges/rules_scan.h"
#include "judges/text_util.h"

namespace nunchi::judges {

using lex::Marker;

bool IsEventSpot(const SpotInfo& spot) {
  for (auto w : lex::kEventSpotWords)
    if (spot.name.find(w) != std::string::npos || spot.description.find(w) != std::string::npos)
      return true;
  return false;
}

Rules::Rules() : index_(&GetScanIndex()) {}

Cause Rules::DetectCause(std::string_view text, std::string* key) const {
  return DetectCause(text, key, std::string());
}

Cause Rules::DetectCause(std::string_view text, std::string* key,
                         const std::string& spot_compact) const {
  CompactText c = MakeCompact(text);
  ScanHits hits = Scan(*index_, c, spot_compact.empty() ? nullptr : &spot_compact);
  const lex::CauseCue* best = PickCause(hits.causes, nullptr, !spot_compact.empty());
  if (!best) return Cause::kNone;
  if (key) *key = std::string(best->display);
  return best->cause;
}

bool Rules::LooksLikeInjection(std::string_view text) const {
  CompactText c = MakeCompact(text);
  ScanHits hits = Scan(*index_, c, nullptr);
  return std::any_of(hits.markers.begin(), hits.markers.end(),
                     [](const MarkerHit& m) { return m.kind == Marker::kInjection; });
}

bool Rules::IsAgreementReply(std::string_view text) const {
  RuleContext ctx;
  Judgment parent;
  parent.relevance = Relevance::kRelevant;
  ctx.parent = &parent;
  return Analyze(text, ctx).reason == "reply";
}

namespace {

RuleVerdict Irrelevant(RuleRow row, std::string_view reason) {
  RuleVerdict v;
  v.decided = true;
  v.judgment.relevance = Relevance::kIrrelevant;
  v.judgment.level = Level::kUnknown;
  v.judgment.cause = Cause::kNone;
  v.reason = std::string(reason);
  ApplyConfidence(row, &v);
  return v;
}

// The short reason tag of an IRRELEVANT row (kept stable for logs and tests).
std::string_view ReasonOf(RuleRow row) {
  switch (row) {
    case RuleRow::kInjection:
      return "injection";
    case RuleRow::kAdvert:
      return "advert";
    case RuleRow::kSymbols:
    case RuleRow::kReaction:
      return "reaction";
    case RuleRow::kArrival:
      return "arrival";
    case RuleRow::kQuestion:
      return "question";
    default:
      return "context";
  }
}

}  // namespace

RuleVerdict Rules::Analyze(std::string_view text, const RuleContext& ctx) const {
  RuleState s;
  PrepareState(*index_, text, ctx, &s);
  if (auto row = InjectionPass(s)) return Irrelevant(*row, ReasonOf(*row));

  PlacePass(&s);
  TimePass(&s);
  PastPerfectPass(&s);
  QuestionPass(&s);
  QuotedClaimPass(&s);
  ExclaimedQuestionPass(&s);
  NegationIronyPass(&s);
  ContextPass(&s);

  RuleVerdict v;
  if (AnswersTheAskedLevel(s, ctx, &v)) {
    ApplyConfidence(RuleRow::kReplyParent, &v);
    return v;
  }
  ReplyOutcome reply = ReplyPass(s, ctx, &v);
  if (reply == ReplyOutcome::kOwnReport) return v;  // no opinion
  if (reply == ReplyOutcome::kDecided) {
    ApplyConfidence(v.judgment.relevance == Relevance::kRelevant ? RuleRow::kReplyParent
                                                                 : RuleRow::kReplyNoReport,
                    &v);
    return v;
  }

  std::optional<RuleRow> row = QuantityPass(s, &v);
  if (!row) row = LexiconPass(s, &v);
  if (!row && s.sarcasm) {  // "아주 여유롭네요^^" and nothing else
    v.reason = "irony";
    v.judgment.relevance = Relevance::kRelevant;
    v.judgment.level = Level::kHigh;
    row = RuleRow::kIrony;
  }
  if (!row) {
    if (auto why = NoCuePass(s)) {
      RuleVerdict q = Irrelevant(*why, ReasonOf(*why));
      if (*why == RuleRow::kQuestion) q.asked = AskedLevel(s);
      return q;
    }
    return v;  // no opinion
  }
  // Sarcasm or an expectation changed what the words say: that is the pattern to trust.
  if (v.judgment.level == Level::kLow && !s.irony_dropped && ThreadIrony(s, ctx)) {
    v.judgment.level = Level::kHigh;
    v.reason = "irony";
    row = RuleRow::kIrony;
  } else if (s.irony_dropped) {
    row = RuleRow::kIrony;
  } else if (s.expect_dropped) {
    row = RuleRow::kExpect;
  }
  v.decided = true;
  CausePass(s, ctx, &v);
  ApplyConfidence(*row, &v);
  return v;
}

}  // namespace nunchi::judges
