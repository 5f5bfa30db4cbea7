// The Korean rule judge, run as named passes (rule_passes.h): injection,
// place, time, question, negation-irony, context, reply, quantity
// (rule_quantity.h), lexicon and cause. The verdict names the pass and the
// row ("quantity/korean") that decided, and carries that row's measured
// precision as per-field confidence (rule_confidence.h), so a caller knows
// when to trust it and when a confident classifier should outvote it.
// Rules is immutable after construction; Analyze() is safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract.h"

namespace nunchi::judges {

// What a signal is judged against besides its own text.
struct RuleContext {
  const SpotInfo* spot = nullptr;
  // The judgment of the signal it answers (the previous one in the bundle); null for a post.
  const Judgment* parent = nullptr;
  // The judgment of the bundle's post; null for the post itself (or when not known).
  const Judgment* post = nullptr;
  // The cause the post gives the bundle (a comment's MEDIUM/HIGH report inherits it).
  Cause post_cause = Cause::kNone;
  std::string post_cause_key;  // the words behind post_cause, for cause texts
  // The spot's name and description in compact form (text_util.h). Filled from spot
  // when empty; callers judging many signals of one spot set it once.
  std::string spot_compact;
  // The places the description says are not the spot (spot_scope.h), compact form; with
  // spot_compact filled from MakeSpotScope, set together.
  std::vector<std::string> spot_excluded;
  // The level the previous signal asked about when it was a question ("지금도 로비 꽉 차
  // 있어요?": HIGH; RuleVerdict::asked); a bare yes to it reports that level.
  Level parent_asked = Level::kUnknown;
};

// A waiting time or queue size found in a text.
struct WaitInfo {
  enum Unit { kMinutes, kTeams, kPeople, kMeters, kTicket, kVehicles } unit = kMinutes;
  double amount = 0;  // minutes for kMinutes (hours converted)
  Level level = Level::kUnknown;
};

struct RuleVerdict {
  bool decided = false;  // false: the rules have no opinion, ask the classifier
  float confidence = 0;  // 0..1, meaningful when decided: min of the two below
  // Per field, 0..1, meaningful when decided: the measured precision of the
  // pass that decided (on the project's own training data), so a caller can
  // weigh a rule against the classifier field by field.
  float relevance_confidence = 0;
  float level_confidence = 0;
  std::string pass;  // the named pass that decided: "injection", "place", "time", "quantity", ...
  // The way it decided, "pass/variant" ("quantity/korean", "place/named"): the unit the
  // confidence is measured on (rule_confidence.h). Static storage; empty when undecided.
  std::string_view row;
  Judgment judgment;      // relevance, level, cause, cause_text; judge/model left empty
  std::string reason;     // short tag: "injection", "wait", "lexicon", "reply", "past-future", ...
  std::string cause_key;  // words behind the cause, if any
  // True when the cause is the text's own words (not the post's, the parent's or the
  // venue's): a caller may prefer another reading of the text only when this is false.
  bool cause_stated = false;
  // True when a quiet report names a cause only as what the writer expected ("비 와서 다들
  // 올 줄 알았는데 한산"): no cause, and no other reading of the text should give one.
  bool cause_denied = false;
  std::optional<WaitInfo> wait;  // the decisive wait/queue figure, if any
  // A question about the crowd here ("세무서 지금 줄 길어요??"): the one level its words ask
  // about, else UNKNOWN. The next signal's RuleContext::parent_asked.
  Level asked = Level::kUnknown;
};

// Version recorded on rule judgments.
inline constexpr std::string_view kRulesVersion = "rules-v1";

class Rules {
 public:
  Rules();
  RuleVerdict Analyze(std::string_view text, const RuleContext& ctx) const;

  // The cause the words of text name, if any (used for a post's context cause too).
  Cause DetectCause(std::string_view text, std::string* key) const;
  // Likewise, skipping words that are the spot's own name (spot_compact: compact form).
  Cause DetectCause(std::string_view text, std::string* key, const std::string& spot_compact) const;
  // True when the text tries to instruct the judge.
  bool LooksLikeInjection(std::string_view text) const;
  // True when the text is a bare agreement reply ("저도요", "222") with no report of its own.
  bool IsAgreementReply(std::string_view text) const;

  struct Index;  // the compiled lexicon (rules.cpp)

 private:
  const Index* index_;
};

// True when the spot is an event venue (pop-up, stadium, festival ...).
bool IsEventSpot(const SpotInfo& spot);

}  // namespace nunchi::judges
