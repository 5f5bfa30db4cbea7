// Text shapes the rule passes read (rule_passes.h): symbol-only noise, agreement written
// in jamo, a yes to a question about the crowd, and a report that opens with a topic the
// spot does not name. Pure functions
// of their input, safe from any thread.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "judges/cause_text.h"
#include "judges/rule_passes.h"
#include "judges/text_util.h"

namespace nunchi::judges {

// Only laughter/crying jamo, digits-free punctuation and emoji: a reaction.
bool OnlyJamoOrSymbols(std::string_view compact) {
  for (size_t i = 0; i < compact.size();) {
    char32_t cp = NextCodePoint(compact, i);
    if (IsHangulSyllable(cp) || (cp < 0x80 && std::isalnum(static_cast<int>(cp)))) return false;
  }
  return true;
}

// "ㄹㅇ", "ㅇㅇ", "ㅇㅈ" alone, with laughter or punctuation at most: agreement written in
// jamo, read like "222" (the guide: a reply that only makes sense with its parent takes
// its meaning from it). Written files before blind-45 label it IRRELEVANT 19 times of 22
// under a relevant parent, blind-45..52 RELEVANT 15 of 16 (their brief names ㄹㅇ and ㅇㅇ
// among parent-dependent replies); see docs/quality.md, seventeenth round.
bool BareJamoAgreement(std::string_view compact) {
  std::u32string core;
  for (size_t i = 0; i < compact.size();) {
    char32_t cp = NextCodePoint(compact, i);
    if (cp == U'ㄹ' || cp == U'ㅇ' || cp == U'ㅈ') {
      core.push_back(cp);
    } else if (IsHangulSyllable(cp) || (cp >= 0x3131 && cp <= 0x318E && cp != U'ㅋ' &&
                                        cp != U'ㅎ' && cp != U'ㅠ' && cp != U'ㅜ')) {
      return false;
    } else if (cp < 0x80 && std::isalnum(static_cast<int>(cp))) {
      return false;
    }
  }
  for (std::u32string_view form : {U"ㄹㅇ", U"ㅇㅇ", U"ㅇㅇㅇ", U"ㅇㅈ", U"ㄹㅇㄹㅇ", U"ㅇㅈㅇㅈ"})
    if (core == form) return true;
  return false;
}

namespace {

// Topic nouns that are the spot, the writer or the time, never another place.
bool HereTopic(std::string_view noun) {
  for (std::string_view w :
       {"여기", "지금",   "오늘", "이제",   "요즘",   "현재",   "사람",   "사람들", "줄",
        "대기", "웨이팅", "자리", "안",     "안쪽",   "내부",   "분위기", "상황",   "저",
        "나",   "전",     "난",   "우리",   "저희",   "우린",   "저흰",   "평일",   "주말",
        "오전", "오후",   "아침", "점심",   "저녁",   "밤",     "새벽",   "아까",   "방금",
        "입구", "계산대", "매장", "여긴",   "오늘은", "그래도", "근데",   "일단",   "생각보다",
        "주차", "차",     "손님", "대기줄", "사정",   "시간",   "입장",   "줄은"})
    if (noun == w) return true;
  return false;
}

}  // namespace

bool OpensWithForeignTopic(std::string_view text, std::string_view compact,
                           const std::string* spot_compact) {
  // "여기 아니고 한가득마트 신평점은 한산해요": the writer says it is not the spot.
  if (compact.find("여기아니고") != std::string_view::npos) return true;
  if (!spot_compact) return false;
  // The first two words: "방파제는 널널해요", "10층 머신은 비어있음".
  size_t pos = 0;
  for (int word = 0; word < 2 && pos < text.size(); ++word) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n')) ++pos;
    size_t end = text.find_first_of(" \n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view w = text.substr(pos, end - pos);
    pos = end;
    if (!w.ends_with("은") && !w.ends_with("는")) continue;
    std::string_view noun = w.substr(0, w.size() - 3);
    size_t syllables = 0, letters = 0;
    for (size_t i = 0; i < noun.size();) {
      char32_t cp = NextCodePoint(noun, i);
      syllables += IsHangulSyllable(cp) ? 1 : 0;
      letters += cp < 0x80 && std::isalpha(static_cast<int>(cp)) ? 1 : 0;
    }
    // A noun of two to six syllables, or Latin letters ("ATM은"), the spot does not name.
    if ((syllables < 2 && letters < 2) || syllables > 6 || HereTopic(noun)) return false;
    std::string compact = MakeCompact(noun).text;
    return !compact.empty() && spot_compact->find(compact) == std::string::npos;
  }
  return false;
}

// "ㅇㅇ", "네", "넵", "응", "맞아요" alone (laughter and punctuation aside).
bool BareYes(std::string_view compact) {
  std::string core;
  for (size_t i = 0; i < compact.size();) {
    size_t at = i;
    char32_t cp = NextCodePoint(compact, i);
    if (cp == U'ㅋ' || cp == U'ㅎ' || cp == U'~' || cp == U'!' || cp == U'.' || cp == U'^')
      continue;
    core.append(compact.substr(at, i - at));
  }
  for (std::string_view y : {"ㅇㅇ", "ㅇㅇㅇ", "네", "네네", "넵", "넹", "응", "웅", "맞아요",
                             "네맞아요", "ㅇㅇ맞아요", "yes", "yep", "Yes"})
    if (core == y) return true;
  return false;
}

Level AskedLevel(const RuleState& s) {
  Level asked = Level::kUnknown;
  for (const auto& h : s.hits.levels) {
    if (h.clause >= s.nc || s.drop[h.clause] != ClauseDrop::kQuestion || h.weight < 1.0f ||
        h.negated || h.level == Level::kUnknown)
      continue;
    if (asked != Level::kUnknown && asked != h.level) return Level::kUnknown;
    asked = h.level;
  }
  return asked;
}

bool AnswersTheAskedLevel(const RuleState& s, const RuleContext& ctx, RuleVerdict* v) {
  if (ctx.parent_asked == Level::kUnknown || !BareYes(s.c.text)) return false;
  v->decided = true;
  v->reason = "reply";
  v->judgment.relevance = Relevance::kRelevant;
  v->judgment.level = ctx.parent_asked;
  if (ctx.parent_asked != Level::kLow) v->judgment.cause = ctx.post_cause;
  v->cause_key = ctx.post_cause_key;
  v->judgment.cause_text = MakeCauseText(Relevance::kRelevant, v->judgment.level, v->judgment.cause,
                                         v->cause_key, std::nullopt);
  return true;
}

}  // namespace nunchi::judges
