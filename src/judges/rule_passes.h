// The named passes of Rules::Analyze, one idea each, run in this order on one
// RuleState: injection (instructions, adverts, symbol-only noise), place
// (another place vs this spot), time (past, future, guesses; "어제보다" is now; the
// past perfect), question (asking, with "15분 정도?" a hedge; a claim quoted back with
// 다니, a '?' after an exclamation), negation-irony (expectations,
// sarcasm, plenty-of-room, cannot-tell), context (drop the cues of clauses
// about elsewhere/then/asking), reply (agreement takes the parent), quantity
// (rule_quantity.h: waits and queues decide the level), lexicon (level words
// score the level), cause (cause words, the post's, the venue's). Each pass
// that decides names the RuleRow it decided by; rule_confidence.h turns that
// into measured per-field confidence. Internal to the judges module; the
// passes are pure functions of their input, safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "judges/rules.h"
#include "judges/rules_scan.h"
#include "judges/text_util.h"

namespace nunchi::judges {

// Every way a pass can decide a verdict: the unit the confidence is measured on.
// Keep in step with kRuleRowNames (rule_confidence.cpp).
enum class RuleRow : uint8_t {
  kInjection,         // injection: text that instructs the judge
  kAdvert,            // injection: links, adverts, spam
  kSymbols,           // noise: laughter jamo, punctuation and emoji only
  kArrival,           // noise: "가는 중", "올릴게요"
  kReaction,          // noise: "헐 대박" with no level word
  kPlaceWord,         // place: a lexicon word for another place ("옆 카페", "주차장")
  kPlaceNumbered,     // place: another numbered exit/gate ("5번 게이트")
  kPlaceSide,         // place: a named side ("송정 쪽은")
  kPlaceNamed,        // place: a named place of a kind ("해운대역은")
  kPlaceElsewhere,    // place: the whole text points elsewhere ("거긴", "대신")
  kPlaceNoCue,        // place: another place named, no level word anywhere
  kTimePast,          // time: a past clause ("어제는 …")
  kTimeFuture,        // time: a future clause ("주말엔 …")
  kTimeGuess,         // time: a guess ("붐비겠죠", "몰릴 거예요")
  kTimeStory,         // time: a story about then with no word of now
  kTimeNoCue,         // time: a past word, no level word anywhere
  kQuestion,          // question: the clauses with level words ask
  kReplyParent,       // reply: agreement with a relevant parent takes its level
  kReplyNoReport,     // reply: agreement with nothing to agree with
  kQuantityDigits,    // quantity: "40분", "대기 12팀"
  kQuantityKorean,    // quantity: "삼십 분", "한 시간 반"
  kQuantityRange,     // quantity: "20~30분", "두세 시간"
  kQuantityAhead,     // quantity: "번호표 87번 … 지금 52번"
  kQuantityConflict,  // quantity: a figure against level words or figures of another level
  kNegated,           // negation-irony: the deciding word was negated ("안 붐벼요")
  kIrony,             // negation-irony: sarcasm voided quiet words ("여유롭네요^^ 40분째")
  kExpect,            // negation-irony: an expectation voided the words before it
  kLexiconClear,      // lexicon: the live level words agree
  kLexiconMixed,      // lexicon: level words of several levels, the strongest wins
  kLexiconUnknown,    // lexicon: "애매", "모르겠어요": relevant, level unknown
  kLexiconWeak,       // lexicon: one weak word ("많아", "복잡해") and nothing else
  kLexiconTopic,      // lexicon: clear words, but the text opens with a topic the spot lacks
  kCount
};

// Where an other-place marker came from (MarkerHit::origin).
enum class PlaceOrigin : uint8_t { kWord = 0, kNumbered = 1, kSide = 2, kNamed = 3 };

// Why a clause is set aside (its level words and figures do not count).
enum class ClauseDrop : uint8_t {
  kNone,
  kPlace,
  kElsewhere,
  kPast,
  kFuture,
  kGuess,
  kStory,
  kQuestion
};

struct RuleState {
  std::string_view text;  // as written
  CompactText c;
  ScanHits hits;
  size_t nc = 0;  // clauses
  // Per clause.
  std::vector<char> past, future, guess, now, other, question;
  std::vector<PlaceOrigin> other_origin;
  std::vector<ClauseDrop> drop;
  bool elsewhere = false;
  bool foreign_topic = false;  // OpensWithForeignTopic
  bool story = false;          // about then throughout: every clause counts as past
  // What the negation-irony pass did.
  bool irony_dropped = false, expect_dropped = false;
  // "아주 여유롭네요^^" with no other word: the label guide's sarcasm form, HIGH (ContextPass).
  bool sarcasm = false;
  // Cues dropped by the context pass, by the reason of their clause.
  size_t dropped_for_context = 0;
  ClauseDrop main_drop = ClauseDrop::kNone;
  PlaceOrigin main_origin = PlaceOrigin::kWord;

  bool Has(lex::Marker k) const;
  bool AnyQuestion() const;
  bool AnyPast() const;
};

// Only laughter or crying jamo, punctuation and emoji (compact text): noise.
bool OnlyJamoOrSymbols(std::string_view compact);
// "ㄹㅇ", "ㅇㅇ", "ㅇㅈ" alone, with laughter or punctuation at most: agreement like "222".
bool BareJamoAgreement(std::string_view compact);
// A question about the crowd ("지금도 로비 꽉 차 있어요?"): the one level its words ask about
// (after ContextPass), else UNKNOWN.
Level AskedLevel(const RuleState& s);
// "ㅇㅇ" to a question that asked about a level (RuleContext::parent_asked): a report of
// that level, v filled; false otherwise (twentieth round of issue 13: spent blind-56..61
// two signals more right, none fewer; data/train/written and the dev set unchanged).
bool AnswersTheAskedLevel(const RuleState& s, const RuleContext& ctx, RuleVerdict* v);
// "방파제는 널널해요", "여기 아니고 신평점은 한산": the text opens with a topic noun (one of
// its first two words, with 은/는) that the spot's compact name and description do not
// contain, or says it is not here. Such a report may be about another place.
bool OpensWithForeignTopic(std::string_view text, std::string_view compact,
                           const std::string* spot_compact);

// Builds the state: compact text and the lexicon scan.
void PrepareState(const Rules::Index& index, std::string_view text, const RuleContext& ctx,
                  RuleState* s);

// Decides IRRELEVANT for injection, adverts and symbol-only noise; nullopt otherwise.
std::optional<RuleRow> InjectionPass(const RuleState& s);
// Marks the clauses about another place (and the whole text when it points elsewhere).
void PlacePass(RuleState* s);
// Marks past, future and guess clauses, and stories about then.
void TimePass(RuleState* s);
// Marks the clauses that ask (a figure with a question mark is a hedge).
void QuestionPass(RuleState* s);
// Negation's aftermath, expectation, irony, plenty-of-room, cannot-tell, neutral phrases.
void NegationIronyPass(RuleState* s);
// rule_pass_tone.cpp: a claim quoted back with 다니/라니 ("자리 많다니") is someone else's,
// its level words and figures drop; a '?' after an exclamative ending with a live level
// word ("한산하네??") asks nothing. Run after the question pass.
void QuotedClaimPass(RuleState* s);
void ExclaimedQuestionPass(RuleState* s);
// rule_pass_tone.cpp: level words and figures before a past perfect ("미어터졌었음") are
// about then unless 지금, 현재 … come before it in its clause. Run after the time pass.
void PastPerfectPass(RuleState* s);
// Drops the level words and figures of clauses set aside by place, time and question.
void ContextPass(RuleState* s);
// Agreement replies: kDecided (v filled) when the text is a bare one; kOwnReport when it
// agrees with nothing but says the writer is there now with crowd words the lexicon does
// not score ("저도 지금 정류장인데 벤치 자리도 남아요"): no opinion, the classifier reads it.
enum class ReplyOutcome : uint8_t { kNotReply, kDecided, kOwnReport };
ReplyOutcome ReplyPass(const RuleState& s, const RuleContext& ctx, RuleVerdict* v);
// With no live cue: IRRELEVANT by the pass that set the cues aside, or no opinion.
std::optional<RuleRow> NoCuePass(const RuleState& s);
// The level from live figures; nullopt when there is none.
std::optional<RuleRow> QuantityPass(const RuleState& s, RuleVerdict* v);
// The level from live level words; nullopt when there is none.
std::optional<RuleRow> LexiconPass(const RuleState& s, RuleVerdict* v);
// "아 여유롭고 좋네요 ㅎㅎ" under a packed post: praise of the quiet, with a laugh or a
// tilde and no word of change ("이제", "빠졌어요") or figure, in a thread whose post or
// parent was judged HIGH, is sarcasm: true when the LOW verdict should read HIGH.
bool ThreadIrony(const RuleState& s, const RuleContext& ctx);
// The cause and cause text of a RELEVANT verdict.
void CausePass(const RuleState& s, const RuleContext& ctx, RuleVerdict* v);

// The cause cue that wins among hits, skipping clauses marked in dropped (may be null).
// With skip_spot, words that are the spot's own name do not count.
const lex::CauseCue* PickCause(const std::vector<CauseHit>& hits, const std::vector<char>* dropped,
                               bool skip_spot = false);

// The pass a row belongs to ("quantity"), and the row's own name ("quantity/korean").
std::string_view RulePassName(RuleRow row);
std::string_view RuleRowName(RuleRow row);

}  // namespace nunchi::judges
