#include "judges/text_util.h"

#include <array>

namespace nunchi::judges {

char32_t NextCodePoint(std::string_view s, size_t& i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  i += n;
  return cp;
}

void AppendUtf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool IsHangulSyllable(char32_t cp) { return cp >= 0xAC00 && cp <= 0xD7A3; }
bool IsHangulJamo(char32_t cp) {
  return (cp >= 0x3131 && cp <= 0x318E) || (cp >= 0x1100 && cp <= 0x11FF);
}

bool IsEmojiOrSymbol(char32_t cp) {
  return (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) ||
         (cp >= 0x2190 && cp <= 0x21FF) || (cp >= 0x2B00 && cp <= 0x2BFF) ||
         (cp >= 0x2500 && cp <= 0x25FF) || (cp >= 0x3000 && cp <= 0x303F) ||
         (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0x200D || cp == 0x20E3 ||
         (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0x2000 && cp <= 0x206F) || cp == 0xFFFD;
}

bool IsSpace(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0xA0 || cp == 0x3000 ||
         cp == 0x200B;
}

bool HasFinalConsonant(char32_t cp) { return IsHangulSyllable(cp) && (cp - 0xAC00) % 28 != 0; }

namespace {
bool IsBreakChar(char32_t cp) {
  return cp == '.' || cp == '!' || cp == '?' || cp == ',' || cp == '~' || cp == ';' || cp == '\n' ||
         cp == 0x2026 || cp == 0xFF1F || cp == 0xFF01 || cp == '^';
}
// Connectives after which a new clause starts ("어제는 붐볐는데 | 지금은 한산"); "주차장은
// 모르겠고 | 대합실은 …" sets one place aside and reports on another.
constexpr std::array<std::string_view, 10> kConnectives = {
    "는데", "은데", "인데", "던데", "지만", "ㄴ데", "니까", "한데", "모르겠고", "모르겠지만"};
// 필요, 중요, 수요, 주요: 요 inside a word, not an ending.
bool IsWordBeforeYo(char32_t prev) {
  return prev == U'필' || prev == U'중' || prev == U'수' || prev == U'주' || prev == U'개';
}
// 요즘, 요금, 요일, 요리 …: 요 starting a word.
bool IsWordAfterYo(char32_t next) {
  for (char32_t w :
       {U'즘', U'금', U'일', U'리', U'청', U'소', U'구', U'약', U'인', U'가', U'령', U'양'})
    if (next == w) return true;
  return false;
}
// 유모차, 유명, 예약, 예정 …: 유/예 starting a word after what looked like a dialect ending.
bool IsWordAfterDialect(char32_t next) {
  for (char32_t w : {U'모', U'명', U'료', U'리', U'행', U'약', U'정', U'매', U'상', U'치', U'전',
                     U'원', U'일', U'턴', U'외', U'효'})
    if (next == w) return true;
  return false;
}
// Dialect sentence endings: 충청 "…있어유, 해유, 많아유", 경상 "…많네예, 있어예" (not 아예 "at
// all", 여유 "room"), "…합니더, 있심더".
bool IsDialectEnding(char32_t prev, char32_t cp) {
  if (cp == U'더') return prev == U'니' || prev == U'심';
  if (cp != U'유' && cp != U'예') return false;
  for (char32_t p : {U'어', U'해', U'봐', U'네', U'지', U'와', U'워', U'래', U'돼', U'져', U'셔'})
    if (prev == p) return true;
  return cp == U'유' && (prev == U'아' || prev == U'혀');
}
// A '~' between a figure ("20", "20분", "1시간") and a digit joins a range.
bool RangeSign(std::string_view before, std::string_view text, size_t next) {
  if (before.empty()) return false;
  bool figure = (before.back() >= '0' && before.back() <= '9') || before.ends_with("분") ||
                before.ends_with("시간") || before.ends_with("명") || before.ends_with("팀");
  if (!figure) return false;
  while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
  return next < text.size() && text[next] >= '0' && text[next] <= '9';
}
// Endings that make a clause a question even without '?'.
// "들어갈수있나유", "갈까유": 충청 speech (twenty-fourth round, spent blind-68).
constexpr std::array<std::string_view, 16> kQuestionEnds = {
    "나요",  "까요",  "어때", "을까", "ㄹ까",   "인가요", "한가요", "은가요",
    "있음?", "많음?", "냐",   "니",   "습니까", "ㅂ니까", "나유",   "까유"};
}  // namespace

CompactText MakeCompact(std::string_view text) {
  CompactText c;
  c.text.reserve(text.size());
  c.clause.reserve(text.size());
  uint16_t clause = 0;
  bool clause_has_text = false;
  bool question = false;
  auto close_clause = [&]() {
    if (!clause_has_text) {
      question = false;  // "??": the mark belonged to the clause already closed
      return;
    }
    // A clause that ends in a question ending asks; '?' is noted where it appears.
    size_t start = c.text.size();
    while (start > 0 && c.clause[start - 1] == clause) --start;
    std::string_view body(c.text.data() + start, c.text.size() - start);
    for (auto q : kQuestionEnds)
      if (body.size() >= q.size() && body.substr(body.size() - q.size()) == q) question = true;
    c.clause_is_question.push_back(question);
    ++clause;
    clause_has_text = false;
    question = false;
  };
  // A sentence ending ("…어요", "…니다") or a run of laughter jamo followed by more words
  // starts a new clause even without punctuation: "텅 비었네요 다들 어디 감?".
  bool ended = false, ended_dialect = false, digit_gap = false;
  char32_t prev = 0;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = NextCodePoint(text, i);
    if (IsSpace(cp) && cp != '\n') {
      // "222 20분": figures apart stay apart (one space kept between two digits).
      digit_gap = !c.text.empty() && c.text.back() >= '0' && c.text.back() <= '9';
      continue;
    }
    if (digit_gap && cp >= '0' && cp <= '9') {
      c.text += ' ';
      c.clause.resize(c.text.size(), clause);
    }
    digit_gap = false;
    if ((cp == '~' || cp == 0xFF5E) && RangeSign(c.text, text, i)) {
      c.text += '~';  // "20~30분", "20분~30분": a range, not a clause break
      c.clause.resize(c.text.size(), clause);
      continue;
    }
    if (IsBreakChar(cp) || (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF)) {
      if (cp == '?' || cp == 0xFF1F) question = true;
      close_clause();
      ended = false;
      continue;
    }
    if (cp >= 'A' && cp <= 'Z') cp = cp - 'A' + 'a';
    if (ended && IsHangulSyllable(cp) && !IsWordAfterYo(cp) &&
        !(ended_dialect && IsWordAfterDialect(cp)))
      close_clause();
    ended = false;
    ended_dialect = false;
    AppendUtf8(c.text, cp);
    c.clause.resize(c.text.size(), clause);
    clause_has_text = true;
    if (cp == U'요') {
      ended = !IsWordBeforeYo(prev);
    } else if (cp == U'다' && prev == U'니') {
      ended = true;
    } else if (IsDialectEnding(prev, cp)) {
      ended = ended_dialect = true;
    } else if (cp == U'ㅋ' || cp == U'ㅎ' || cp == U'ㅠ' || cp == U'ㅜ' || cp == U'ㄷ') {
      ended = true;  // laughter, crying, trembling; "ㄹㅇ", "ㅇㅈ" are words inside a clause
    }
    prev = cp;
    if (cp != U'데' && cp != U'만' && cp != U'까' && cp != U'고') continue;
    for (auto conn : kConnectives) {
      std::string_view t = c.text;
      if (t.size() >= conn.size() && t.substr(t.size() - conn.size()) == conn) {
        close_clause();
        break;
      }
    }
  }
  close_clause();
  if (c.clause_is_question.empty()) c.clause_is_question.push_back(false);
  return c;
}

std::string_view ClauseBody(const CompactText& c, size_t k) {
  size_t from = 0;
  while (from < c.text.size() && c.clause[from] != k) ++from;
  size_t to = from;
  while (to < c.text.size() && c.clause[to] == k) ++to;
  return std::string_view(c.text.data() + from, to - from);
}

}  // namespace nunchi::judges
