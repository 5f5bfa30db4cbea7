#include "judges/rule_number.h"

#include <algorithm>

#include "judges/text_util.h"

namespace nunchi::judges::numerals {

bool At(std::string_view s, size_t pos, std::string_view w) {
  return pos <= s.size() && s.substr(pos).starts_with(w);
}

bool Near(std::string_view s, size_t from, size_t to, std::initializer_list<std::string_view> ws) {
  from = std::min(from, s.size());
  to = std::min(to, s.size());
  if (to <= from) return false;
  std::string_view win = s.substr(from, to - from);
  for (auto w : ws)
    if (win.find(w) != std::string_view::npos) return true;
  return false;
}

namespace {

// "20", "20~30", "20-30".
Number ParseDigits(std::string_view t, size_t pos) {
  Number n;
  size_t p = pos;
  double v = 0;
  while (p < t.size() && IsDigit(t[p])) v = v * 10 + (t[p++] - '0');
  if (p == pos) return n;
  n.value = v;
  n.digits = true;
  if (p + 1 < t.size() && (t[p] == '~' || t[p] == '-') && IsDigit(t[p + 1])) {
    size_t q = p + 1;
    double w = 0;
    while (q < t.size() && IsDigit(t[q])) w = w * 10 + (t[q++] - '0');
    if (w > v && w <= v * 4 + 10) {  // a range, not a phone number or a date
      n.value = (v + w) / 2;
      n.range = true;
      p = q;
    }
  }
  n.len = p - pos;
  return n;
}

struct Word {
  std::string_view word;
  double value;
  bool range;
};
// Native Korean numerals, longest first where one is the start of another.
constexpr Word kNativeRanges[] = {
    {"한두", 1.5, true},   {"두세", 2.5, true},   {"서너", 3.5, true},   {"너덧", 4.5, true},
    {"네다섯", 4.5, true}, {"대여섯", 5.5, true}, {"예닐곱", 6.5, true}, {"두어", 2, true}};
constexpr Word kNativeTens[] = {{"스무", 20, false}, {"스물", 20, false}, {"서른", 30, false},
                                {"마흔", 40, false}, {"쉰", 50, false},   {"열", 10, false}};
constexpr Word kNativeUnits[] = {{"하나", 1, false}, {"다섯", 5, false}, {"여섯", 6, false},
                                 {"일곱", 7, false}, {"여덟", 8, false}, {"아홉", 9, false},
                                 {"한", 1, false},   {"둘", 2, false},   {"두", 2, false},
                                 {"셋", 3, false},   {"세", 3, false},   {"넷", 4, false},
                                 {"네", 4, false}};

int SinoDigit(char32_t cp) {
  switch (cp) {
    case U'일':
      return 1;
    case U'이':
      return 2;
    case U'삼':
      return 3;
    case U'사':
      return 4;
    case U'오':
      return 5;
    case U'육':
      return 6;
    case U'칠':
      return 7;
    case U'팔':
      return 8;
    case U'구':
      return 9;
    default:
      return 0;
  }
}

// "삼십", "삼십오", "이삼십" (20-30), "오륙십" (50-60), "일이" (1-2), "백".
Number ParseSino(std::string_view t, size_t pos) {
  Number n;
  size_t p = pos;
  double total = 0;
  int d1 = 0, d2 = 0;
  bool any = false;
  while (p < t.size()) {
    size_t q = p;
    char32_t cp = NextCodePoint(t, q);
    // 륙 is 육 after another digit ("오륙십", 50-60); alone it is a syllable (착륙, 대륙).
    int d = SinoDigit(cp);
    if (cp == U'륙' && d1 == 5 && d2 == 0) d = 6;
    if (d != 0) {
      if (d1 == 0) {
        d1 = d;
      } else if (d2 == 0 && d == d1 + 1) {
        d2 = d;
      } else {
        break;
      }
    } else if (cp == U'십' || cp == U'백') {
      double mult = cp == U'십' ? 10 : 100;
      double digit = d1 == 0 ? 1 : d2 == 0 ? d1 : (d1 + d2) / 2.0;
      if (d2 != 0) n.range = true;
      total += digit * mult;
      d1 = d2 = 0;
    } else {
      break;
    }
    any = true;
    p = q;
  }
  if (!any) return n;
  if (d1 != 0) {
    if (d2 != 0) n.range = true;
    total += d2 == 0 ? d1 : (d1 + d2) / 2.0;
  }
  n.value = total;
  n.len = p - pos;
  return n;
}

Number ParseNative(std::string_view t, size_t pos) {
  Number n;
  for (const auto& w : kNativeRanges)
    if (At(t, pos, w.word)) {
      n.value = w.value;
      n.range = true;
      n.len = w.word.size();
      return n;
    }
  size_t p = pos;
  for (const auto& w : kNativeTens)
    if (At(t, p, w.word)) {
      n.value = w.value;
      p += w.word.size();
      break;
    }
  for (const auto& w : kNativeUnits)
    if (At(t, p, w.word)) {
      n.value += w.value;
      p += w.word.size();
      break;
    }
  n.len = p - pos;
  return n;
}

// The syllables a Korean numeral can start with (a cheap test before the word tables).
bool IsNumeralStart(char32_t cp) {
  static const std::vector<bool> table = [] {
    std::vector<bool> v(11172, false);
    auto mark = [&](std::string_view w) {
      size_t p = 0;
      char32_t c = NextCodePoint(w, p);
      if (IsHangulSyllable(c)) v[c - 0xAC00] = true;
    };
    for (const auto& w : kNativeRanges) mark(w.word);
    for (const auto& w : kNativeTens) mark(w.word);
    for (const auto& w : kNativeUnits) mark(w.word);
    for (std::string_view w :
         {"일", "이", "삼", "사", "오", "육", "칠", "팔", "구", "십", "백", "몇", "수", "반"})
      mark(w);
    return v;
  }();
  return IsHangulSyllable(cp) && table[cp - 0xAC00];
}

}  // namespace

Number ParseNumber(std::string_view t, size_t pos) {
  if (pos > 0 && IsDigit(t[pos - 1])) return {};  // inside a number
  if (IsDigit(t[pos])) return ParseDigits(t, pos);
  size_t q = pos;
  char32_t cp = NextCodePoint(t, q);
  if (!IsNumeralStart(cp)) return {};
  if (pos >= 3) {  // inside a Sino-Korean number ("삼|십", "이십|오")
    size_t b = pos - 3;
    char32_t prev = NextCodePoint(t, b);
    bool tens = cp == U'십' || cp == U'백';
    bool prev_tens = prev == U'십' || prev == U'백';
    if ((tens && SinoDigit(prev)) || (prev_tens && SinoDigit(cp))) return {};
  }
  if (At(t, pos, "몇십") || At(t, pos, "수십")) return {30, 6, false, false, true};
  if (At(t, pos, "몇")) return {2, 3, false, false, true};
  if (At(t, pos, "반")) return {0.5, 3, false, false, false};
  Number native = ParseNative(t, pos);
  Number sino = ParseSino(t, pos);
  return sino.len > native.len ? sino : native;
}

bool IsHedgedCount(std::string_view clause) {
  if (std::none_of(clause.begin(), clause.end(), IsDigit)) return false;
  for (std::string_view e : {"명쯤", "명정도", "팀쯤", "팀정도"})
    if (clause.ends_with(e)) return true;
  if (!clause.ends_with("people") && !clause.ends_with("ppl")) return false;
  for (std::string_view h : {"maybe", "like", "about", "around"})
    if (clause.find(h) != std::string_view::npos) return true;
  return false;
}

}  // namespace nunchi::judges::numerals
