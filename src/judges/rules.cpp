#include "judges/rules.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <unordered_map>
#include <vector>

#include "judges/cause_text.h"
#include "judges/lexicon.h"
#include "judges/rules_scan.h"
#include "judges/text_util.h"

namespace nunchi::judges {

using lex::Marker;

namespace {

// Which cause words win: a named breakdown or works first, then the earliest
// specific word, then vague words (멈춰, 통제, 행사 …) that often describe the crowd itself.
int CauseRank(const lex::CauseCue& cue) {
  for (std::string_view weak :
       {"멈춰", "멈췄", "멈춤", "오류", "장애", "배차", "통제", "차단", "우회", "날씨", "방송",
        "소문", "단체", "행사", "이벤트", "경찰", "점검중"})
    if (cue.pat == weak) return 2;
  if (cue.cause == Cause::kIncident || cue.cause == Cause::kConstruction) return 0;
  return 1;
}

const lex::CauseCue* PickCause(const std::vector<CauseHit>& hits,
                               const std::vector<char>* dropped) {
  const CauseHit* best = nullptr;
  for (const auto& h : hits) {
    if (dropped && h.clause < dropped->size() && (*dropped)[h.clause]) continue;
    if (!best || CauseRank(*h.cue) < CauseRank(*best->cue)) best = &h;
  }
  return best ? best->cue : nullptr;
}

int Rank(Level l) {
  switch (l) {
    case Level::kLow:
      return 1;
    case Level::kMedium:
      return 2;
    case Level::kHigh:
      return 3;
    case Level::kUnknown:
      return 0;
  }
  return 0;
}

// Only laughter/crying jamo, digits-free punctuation and emoji: a reaction.
bool OnlyJamoOrSymbols(std::string_view compact) {
  for (size_t i = 0; i < compact.size();) {
    char32_t cp = NextCodePoint(compact, i);
    if (IsHangulSyllable(cp) || (cp < 0x80 && std::isalnum(static_cast<int>(cp)))) return false;
  }
  return true;
}

}  // namespace

bool IsEventSpot(const SpotInfo& spot) {
  for (auto w : lex::kEventSpotWords)
    if (spot.name.find(w) != std::string::npos || spot.description.find(w) != std::string::npos)
      return true;
  return false;
}

Rules::Rules() : index_(&GetScanIndex()) {}

Cause Rules::DetectCause(std::string_view text, std::string* key) const {
  CompactText c = MakeCompact(text);
  ScanHits hits = Scan(*index_, c, nullptr);
  const lex::CauseCue* best = PickCause(hits.causes, nullptr);
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

RuleVerdict Rules::Analyze(std::string_view text, const RuleContext& ctx) const {
  RuleVerdict v;
  CompactText c = MakeCompact(text);
  std::string own_compact;
  const std::string* spot_compact = nullptr;
  if (!ctx.spot_compact.empty()) {
    spot_compact = &ctx.spot_compact;
  } else if (ctx.spot) {
    own_compact = MakeCompact(ctx.spot->name + " " + ctx.spot->description).text;
    spot_compact = &own_compact;
  }
  ScanHits hits = Scan(*index_, c, spot_compact);

  auto has = [&](Marker k) {
    return std::any_of(hits.markers.begin(), hits.markers.end(),
                       [k](const MarkerHit& m) { return m.kind == k; });
  };
  auto irrelevant = [&](float conf, std::string reason) {
    v.decided = true;
    v.confidence = conf;
    v.judgment.relevance = Relevance::kIrrelevant;
    v.judgment.level = Level::kUnknown;
    v.judgment.cause = Cause::kNone;
    v.reason = std::move(reason);
    return v;
  };

  if (has(Marker::kInjection)) return irrelevant(0.97f, "injection");
  if (has(Marker::kAd)) return irrelevant(0.95f, "advert");
  if (OnlyJamoOrSymbols(c.text)) return irrelevant(0.95f, "reaction");

  // Which clauses speak about somewhere else or some other time, or ask.
  size_t nc = c.clause_count();
  std::vector<char> past(nc, 0), future(nc, 0), fverb(nc, 0), now(nc, 0), other(nc, 0);
  for (const auto& m : hits.markers) {
    size_t k = m.clause;
    if (k >= nc) continue;
    switch (m.kind) {
      case Marker::kPast: {
        bool compare = false;  // "어제보다 많아요" is about now
        for (const auto& m2 : hits.markers)
          if (m2.kind == Marker::kCompare && m2.pos >= m.end && m2.pos <= m.end + 6) compare = true;
        if (!compare) past[k] = 1;
        break;
      }
      case Marker::kFuture:
        future[k] = 1;
        break;
      case Marker::kFutureVerb: {
        // "모르겠어요": the 겠 of a level phrase is not a guess about later.
        bool inside = std::any_of(hits.levels.begin(), hits.levels.end(), [&](const LevelHit& h) {
          return h.pos <= m.pos && m.pos < h.end;
        });
        bool dunno = m.pos >= 6 && (c.text.compare(m.pos - 6, 6, "모르") == 0);
        if (!inside && !dunno) fverb[k] = 1;
        break;
      }
      case Marker::kNow:
        now[k] = 1;
        break;
      case Marker::kOtherPlace:
        other[k] = 1;
        break;
      default:
        break;
    }
  }
  // "15분 정도?", "한 45분?": a figure with a question mark is a hedge, not a question.
  std::vector<char> question(c.clause_is_question.begin(), c.clause_is_question.end());
  for (const auto& n : hits.numbers) {
    size_t k = n.clause;
    if (k >= nc || !question[k]) continue;
    size_t end = n.pos;
    while (end < c.text.size() && c.clause[end] == k) ++end;
    if (end - n.pos <= 24) question[k] = 0;
  }
  bool elsewhere = has(Marker::kElsewhere);
  // A story told about yesterday or next week with no word of now is about then throughout:
  // "그제 갔는데 입장 마감이었어요".
  bool any_now = std::any_of(now.begin(), now.end(), [](char x) { return x; });
  bool any_then = false;
  for (size_t k = 0; k < nc; ++k) any_then = any_then || past[k] || future[k];
  if (any_then && !any_now) std::fill(past.begin(), past.end(), 1);
  // "모르겠어요" says the level is unclear only when the text is about the crowd at all.
  bool crowd_words = false;
  for (std::string_view w : {"사람", "줄", "혼잡", "붐", "많", "적", "대기", "웨이팅", "자리"})
    crowd_words = crowd_words || c.text.find(w) != std::string::npos;
  if (!crowd_words)
    for (auto& h : hits.levels)
      if (h.level == Level::kUnknown && h.weight < 1.0f) h.dropped = true;
  std::vector<char> dropped_clause(nc, 0);
  for (size_t k = 0; k < nc; ++k)
    dropped_clause[k] =
        elsewhere || question[k] || fverb[k] || other[k] || ((past[k] || future[k]) && !now[k]);

  // "많은지 적은지 애매": a clause that says it cannot tell voids its own level words.
  for (const auto& u : hits.levels)
    if (u.level == Level::kUnknown && !u.dropped && u.weight > 0)
      for (auto& h : hits.levels)
        if (h.clause == u.clause && h.level != Level::kUnknown) h.dropped = true;
  // "자리 많아요", "여유 많음": plenty of room is quiet, not crowded.
  for (auto& h : hits.levels) {
    if (h.level != Level::kHigh || h.weight > 0.7f) continue;
    size_t from = h.pos >= 12 ? h.pos - 12 : 0;
    std::string_view before(c.text.data() + from, h.pos - from);
    for (std::string_view room : {"자리", "여유", "좌석", "빈"})
      if (before.find(room) != std::string_view::npos) h.level = Level::kLow;
  }

  for (auto& h : hits.levels)
    if (h.weight <= 0) h.dropped = true;  // neutral phrases (lexicon weight 0)

  // Expectation ("…줄 알았는데") and sarcasm ("…는 개뿔") void the cues before them.
  for (const auto& m : hits.markers) {
    if (m.kind == Marker::kExpect) {
      for (auto& h : hits.levels)
        if (h.clause == m.clause && h.pos < m.pos) h.dropped = true;
      for (auto& n : hits.numbers)
        if (n.clause == m.clause && n.pos < m.pos) n.dropped = true;
    } else if (m.kind == Marker::kIrony) {
      for (auto& h : hits.levels)
        if (h.pos < m.pos) h.dropped = true;
    }
  }
  size_t dropped_for_context = 0;
  for (auto& h : hits.levels)
    if (!h.dropped && dropped_clause[h.clause]) h.dropped = true, ++dropped_for_context;
  for (auto& n : hits.numbers)
    if (!n.dropped && dropped_clause[n.clause]) n.dropped = true, ++dropped_for_context;

  // "아주 여유롭네요^^ 40분째 줄": a quiet word next to crowd evidence is sarcasm.
  bool caret = text.find("^^") != std::string_view::npos;
  bool busy_evidence = false;
  for (const auto& h : hits.levels)
    if (!h.dropped && (h.level == Level::kHigh || h.level == Level::kMedium)) busy_evidence = true;
  for (const auto& n : hits.numbers)
    if (!n.dropped && Rank(n.info.level) >= 2) busy_evidence = true;
  if (busy_evidence && (caret || has(Marker::kIrony)))
    for (auto& h : hits.levels)
      if (h.level == Level::kLow) h.dropped = true;

  std::vector<const LevelHit*> live;
  for (const auto& h : hits.levels)
    if (!h.dropped) live.push_back(&h);
  std::vector<const NumberHit*> live_num;
  for (const auto& n : hits.numbers)
    if (!n.dropped) live_num.push_back(&n);

  // Bare agreement replies take their meaning from the parent.
  float strongest = 0;
  for (const auto* h : live) strongest = std::max(strongest, h->weight);
  bool weak_own = live_num.empty() && strongest < 0.8f;
  if (weak_own && has(Marker::kAgree) && !has(Marker::kNotAgree)) {
    v.reason = "reply";
    if (!ctx.parent || ctx.parent->relevance == Relevance::kIrrelevant) {
      v.decided = true;
      v.confidence = ctx.parent ? 0.85f : 0.7f;
      v.judgment.relevance = Relevance::kIrrelevant;
      return v;
    }
    v.decided = true;
    v.confidence = 0.85f;
    v.judgment.relevance = Relevance::kRelevant;
    v.judgment.level = ctx.parent->level;
    bool busy = v.judgment.level == Level::kMedium || v.judgment.level == Level::kHigh;
    if (busy) {
      v.judgment.cause = ctx.parent->cause != Cause::kNone ? ctx.parent->cause : ctx.post_cause;
      v.cause_key = ctx.parent->cause != Cause::kNone ? "" : ctx.post_cause_key;
    }
    v.judgment.cause_text = MakeCauseText(Relevance::kRelevant, v.judgment.level, v.judgment.cause,
                                          v.cause_key, std::nullopt);
    return v;
  }

  if (live.empty() && live_num.empty()) {
    if (dropped_for_context > 0) return irrelevant(0.85f, "context");
    if (std::any_of(question.begin(), question.end(), [](char q) { return q; }))
      return irrelevant(0.85f, "question");
    if (has(Marker::kArrival)) return irrelevant(0.8f, "arrival");
    if (has(Marker::kReaction)) return irrelevant(0.75f, "reaction");
    if (elsewhere || has(Marker::kOtherPlace) ||
        std::any_of(past.begin(), past.end(), [](char x) { return x; }))
      return irrelevant(0.6f, "context");
    return v;  // no opinion
  }

  // The level.
  Level level = Level::kUnknown;
  float conf = 0;
  if (!live_num.empty()) {
    const NumberHit* best = live_num.front();
    for (const auto* n : live_num)
      if (Rank(n->info.level) > Rank(best->info.level)) best = n;
    level = best->info.level;
    v.wait = best->info;
    conf = 0.93f;
    // "10분째 제자리": a strong crowd word outranks a middling figure.
    for (const auto* h : live)
      if (h->level == Level::kHigh && h->weight >= 1.3f && level == Level::kMedium)
        level = Level::kHigh;
    v.reason = "wait";
  } else {
    uint16_t last_clause = 0;
    for (const auto* h : live) last_clause = std::max(last_clause, h->clause);
    std::array<float, 4> score{};  // by Rank
    float total = 0;
    for (const auto* h : live) {
      float w = h->weight * (h->clause == last_clause ? 1.5f : 1.0f);
      score[Rank(h->level)] += w;
      total += w;
    }
    int best = 0;
    for (int r = 1; r <= 3; ++r)
      if (score[r] > 0 && score[r] >= score[best]) best = r;
    if (best == 0 && score[0] == 0) best = 0;
    level = best == 1   ? Level::kLow
            : best == 2 ? Level::kMedium
            : best == 3 ? Level::kHigh
                        : Level::kUnknown;
    float share = score[best] / std::max(total, 1e-6f);
    conf = 0.45f + 0.35f * share + 0.15f * std::min(1.0f, score[best] / 1.5f);
    v.reason = best == 0 ? "unknown" : "lexicon";
  }

  v.decided = true;
  v.confidence = std::min(conf, 0.97f);
  v.judgment.relevance = Relevance::kRelevant;
  v.judgment.level = level;

  // The cause: words in the clauses that count, else the post's, else the venue's.
  // Cause words count in every clause about here and now, questions and guesses included
  // ("이 날씨에 누가 오겠어요").
  std::vector<char> cause_dropped(nc, 0);
  for (size_t k = 0; k < nc; ++k)
    cause_dropped[k] = elsewhere || other[k] || ((past[k] || future[k]) && !now[k]);
  const lex::CauseCue* cause = PickCause(hits.causes, &cause_dropped);
  bool busy = level == Level::kMedium || level == Level::kHigh;
  if (cause && (busy || level == Level::kUnknown || cause->cause == Cause::kWeather)) {
    v.judgment.cause = cause->cause;
    v.cause_key = std::string(cause->display);
  } else if (busy && ctx.parent && ctx.post_cause != Cause::kNone) {
    v.judgment.cause = ctx.post_cause;
    v.cause_key = ctx.post_cause_key;
  } else if (busy && ctx.spot && IsEventSpot(*ctx.spot)) {
    v.judgment.cause = Cause::kEvent;
  }
  v.judgment.cause_text =
      MakeCauseText(Relevance::kRelevant, level, v.judgment.cause, v.cause_key, v.wait);
  return v;
}

}  // namespace nunchi::judges
