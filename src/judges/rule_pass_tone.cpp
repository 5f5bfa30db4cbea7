// Three tones the other rule passes would misread (rule_passes.h): a claim quoted back with
// 다니/라니 ("자리 많다니 ㅋㅋ"), which is someone else's report; a question mark after an
// exclamative ending ("널널하네?", "줄이 하나도 없네??"), which reports and asks nothing; and
// the past perfect ("미어터졌었음"), which tells of then.
// Pure functions of their input, safe from any thread.
#include <string>
#include <string_view>

#include "judges/rule_passes.h"
#include "judges/text_util.h"

namespace nunchi::judges {

using lex::Marker;
namespace {

// "많다니", "마감이라니", "15분이라니" right at pos, the quoting ending and not the verb
// 다니다 ("많이 다니네요") or "…다니까요" (the writer insisting).
bool QuotedAt(const CompactText& c, size_t pos) {
  const std::string& t = c.text;
  size_t q = pos;
  for (std::string_view lead : {"하", "이"})
    if (t.compare(q, lead.size(), lead) == 0) {
      q += lead.size();
      break;
    }
  bool ends_da = pos >= 3 && t.compare(pos - 3, 3, "다") == 0 && t.compare(pos, 3, "니") == 0;
  size_t after;
  if (ends_da) {
    after = pos + 3;
  } else if (t.compare(q, 6, "다니") == 0 || t.compare(q, 6, "라니") == 0) {
    after = q + 6;
  } else {
    return false;
  }
  if (after >= t.size() || c.clause[after] != c.clause[pos]) return true;
  size_t i = after;
  char32_t next = NextCodePoint(t, i);
  for (char32_t verb : {U'기', U'네', U'는', U'면', U'고', U'다', U'며', U'던', U'지', U'세',
                        U'시', U'까', U'요', U'깐', U'엔', U'까', U'신', U'셔', U'냐', U'니'})
    if (next == verb) return false;
  return true;
}

}  // namespace

// Every labeled file: texts with "…다니/라니" are IRRELEVANT 22 times of 42; the relevant
// ones carry the writer's own report elsewhere ("자리 많다니 ㅋㅋ 지금 빈자리 하나도 없는데요").
void QuotedClaimPass(RuleState* s) {
  for (auto& h : s->hits.levels)
    if (!h.dropped && QuotedAt(s->c, h.end)) h.dropped = true;
  for (auto& n : s->hits.numbers)
    if (!n.dropped && QuotedAt(s->c, n.pos + n.len)) n.dropped = true;
}

// Every labeled file: a level word under "…네?", "…없다?" is a relevant report 6 times of 6
// ("생각보다 한산하네??", "계산대 줄이 하나도 없네??"); the clause asks nothing.
void ExclaimedQuestionPass(RuleState* s) {
  for (size_t k = 0; k < s->nc; ++k) {
    if (!s->question[k]) continue;
    std::string_view body = ClauseBody(s->c, k);
    bool exclaims = body.size() >= 9 && (body.ends_with("네") || body.ends_with("없다") ||
                                         body.ends_with("많다") || body.ends_with("구나"));
    if (!exclaims) continue;
    for (const auto& h : s->hits.levels)
      if (h.clause == k && !h.dropped) s->question[k] = 0;
  }
}

// Every labeled file: a past perfect after "오늘 아침엔 …" ("미어터졌었음", "한산했었는데") is
// IRRELEVANT 24 times of 31; the relevant ones say 지금 after it.
void PastPerfectPass(RuleState* s) {
  const std::string& t = s->c.text;
  // "오늘 아침엔 미어터졌었음 지금은 모르겠고": what comes before a past perfect (…었었) is
  // about then, unless 지금, 현재, 방금 … ("오늘" is the day) come before it in its clause.
  for (const auto& m : s->hits.markers) {
    if (m.kind != Marker::kPast ||
        !std::string_view(t).substr(m.pos, m.end - m.pos).ends_with("었"))
      continue;
    bool now_before = false;
    for (const auto& n : s->hits.markers)
      now_before = now_before || (n.kind == Marker::kNow && n.clause == m.clause && n.pos < m.pos &&
                                  t.compare(n.pos, n.end - n.pos, "오늘") != 0);
    if (now_before) continue;
    for (auto& h : s->hits.levels)
      if (h.clause == m.clause && h.pos < m.end) h.dropped = true;
    for (auto& n : s->hits.numbers)
      if (n.clause == m.clause && n.pos < m.end) n.dropped = true;
  }
}

}  // namespace nunchi::judges
