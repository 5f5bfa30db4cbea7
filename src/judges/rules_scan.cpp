#include "judges/rules_scan.h"

#include <algorithm>
#include <initializer_list>

namespace nunchi::judges {

using lex::Marker;

namespace {

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

Rules::Index Build() {
  Rules::Index idx;
  idx.hangul.resize(11172);
  idx.ascii.resize(128);
  auto add = [&](std::string_view pat, uint8_t table, size_t i) {
    size_t p = 0;
    char32_t first = NextCodePoint(pat, p);
    char32_t second = p < pat.size() ? NextCodePoint(pat, p) : 0;
    Rules::Index::Ref ref{pat, table, static_cast<uint16_t>(i), second};
    if (IsHangulSyllable(first)) {
      idx.hangul[first - 0xAC00].push_back(ref);
    } else if (first < 128) {
      idx.ascii[first].push_back(ref);
    } else {
      idx.other[first].push_back(ref);
    }
  };
  for (size_t i = 0; i < std::size(lex::kLevelCues); ++i) add(lex::kLevelCues[i].pat, 0, i);
  for (size_t i = 0; i < std::size(lex::kMarkers); ++i) add(lex::kMarkers[i].pat, 1, i);
  for (size_t i = 0; i < std::size(lex::kCauseCues); ++i) add(lex::kCauseCues[i].pat, 2, i);
  auto longest_first = [](std::vector<Rules::Index::Ref>& refs) {
    std::stable_sort(refs.begin(), refs.end(),
                     [](const auto& a, const auto& b) { return a.pat.size() > b.pat.size(); });
  };
  for (auto& refs : idx.hangul) longest_first(refs);
  for (auto& refs : idx.ascii) longest_first(refs);
  for (auto& [cp, refs] : idx.other) longest_first(refs);
  return idx;
}

// "안 붐벼요" negates a verb; "매장 안 줄 미쳤어요" is "inside", not "not".
bool IsVerbLike(char32_t first) {
  for (char32_t v : {U'붐', U'밀', U'막', U'복', U'혼', U'많', U'북', U'길', U'기', U'적', U'한',
                     U'널', U'여', U'조', U'쾌'})
    if (first == v) return true;
  return false;
}

// "붐비지 않아요", "한산하진 않고": the cue is negated by what follows.
bool NegatedAfter(std::string_view t, size_t end) {
  size_t p = end;
  if (At(t, p, "하")) p += 3;
  for (auto n : {"지않", "진않", "지는않", "지도않", "진않"})
    if (At(t, p, n)) return true;
  return false;
}

// Syllables before 비 that make it part of another word (준비, 설비, 장비 ...).
bool RainFalsePositive(std::string_view t, size_t pos) {
  if (pos < 3) return false;
  std::string_view prev = t.substr(pos - 3, 3);
  for (auto s :
       {"준", "설", "장", "경", "예", "대", "무", "낭", "소", "공", "회", "실", "방", "모", "관"})
    if (prev == s) return true;
  return false;
}

bool CauseFalsePositive(std::string_view t, size_t pos, const lex::CauseCue& cue) {
  if (cue.pat.starts_with("비")) return RainFalsePositive(t, pos);
  if (cue.pat == "통제" && pos >= 6 && t.substr(pos - 6, 6) == "입장") return true;
  if (cue.pat == "방송" && pos >= 6 && t.substr(pos - 6, 6) == "안내") return true;
  if (cue.pat == "사고" && At(t, pos + 6, "싶")) return true;
  if (cue.pat == "날씨" && (At(t, pos + 6, "는") || At(t, pos + 6, "은")))
    return true;  // 날씨는 맑아요
  return false;
}

struct Numeral {
  std::string_view word;
  double value;
};
constexpr Numeral kNumerals[] = {
    {"한두", 2},  {"두세", 3},  {"서너", 4},  {"몇십", 30}, {"수십", 30}, {"다섯", 5},
    {"여섯", 6},  {"일곱", 7},  {"여덟", 8},  {"아홉", 9},  {"스무", 20}, {"서른", 30},
    {"마흔", 40}, {"이십", 20}, {"삼십", 30}, {"사십", 40}, {"오십", 50}, {"육십", 60},
    {"한", 1},    {"두", 2},    {"세", 3},    {"네", 4},    {"열", 10},   {"십", 10},
    {"몇", 2},    {"반", 0.5},
};

bool IsNumeralStart(char32_t cp) {
  static const std::vector<bool> table = [] {
    std::vector<bool> v(11172, false);
    for (const auto& n : kNumerals) {
      size_t p = 0;
      char32_t c = NextCodePoint(n.word, p);
      if (IsHangulSyllable(c)) v[c - 0xAC00] = true;
    }
    return v;
  }();
  return IsHangulSyllable(cp) && table[cp - 0xAC00];
}

// Parses a waiting-time or queue figure starting at pos; returns bytes consumed (0 if none).
size_t ParseFigure(std::string_view t, size_t pos, WaitInfo* out) {
  if (pos > 0 && t[pos - 1] >= '0' && t[pos - 1] <= '9') return 0;  // inside a number
  double value = 0;
  size_t p = pos;
  bool digits = false, is_few = false;
  while (p < t.size() && t[p] >= '0' && t[p] <= '9') {
    value = value * 10 + (t[p] - '0');
    ++p;
    digits = true;
  }
  if (!digits) {
    size_t probe = pos;
    char32_t first = NextCodePoint(t, probe);
    if (!IsNumeralStart(first)) return 0;
    for (const auto& n : kNumerals)
      if (At(t, p, n.word)) {
        value = n.value;
        is_few = n.word == "몇";
        p += n.word.size();
        break;
      }
    if (p == pos) return 0;
  }
  // Units.
  size_t before_lo = pos >= 24 ? pos - 24 : 0;
  if (At(t, p, "시간")) {
    size_t q = p + 6;
    double hours = value;
    if (At(t, q, "반")) hours += 0.5, q += 3;
    if (At(t, q, "전") || At(t, q, "뒤") || At(t, q, "후") ||
        Near(t, before_lo, pos, {"걸어서", "차로", "운전"}))
      return 0;
    if (At(t, q, "거리") || At(t, q, "마다") || At(t, q, "동안운") || At(t, q, "정도전") ||
        At(t, q, "쯤전") || At(t, q, "남"))
      return 0;
    bool ctx = digits || is_few ||
               Near(t, before_lo, pos, {"대기", "웨이팅", "기다", "줄", "예상"}) ||
               Near(t, q, q + 30,
                    {"째", "기다", "대기", "웨이팅", "줄", "걸", "기본", "각", "넘게", "서있"});
    if (!ctx) return 0;
    out->unit = WaitInfo::kMinutes;
    out->amount = hours * 60;
    return q - pos;
  }
  if (At(t, p, "분")) {
    size_t q = p + 3;
    if (pos >= 3 && At(t, pos - 3, "시")) return 0;  // "8시 40분": a clock time
    if (At(t, q, "들") || At(t, q, "께")) return 0;  // 세 분들: people
    if (is_few) return 0;                            // "몇 분째": an unknown number of minutes
    if (!digits && value < 10) {
      // "세분" is three people; accept Korean numerals for minutes only with clear context.
      if (!Near(t, q, q + 12, {"째", "기다", "대기"})) return 0;
    }
    if (At(t, q, "전") || At(t, q, "뒤") || At(t, q, "후") || At(t, q, "거리") ||
        At(t, q, "마다") || At(t, q, "간격") || At(t, q, "남") || At(t, q, "늦") ||
        At(t, q, "쯤뒤") || At(t, q, "쯤전") || At(t, q, "정도걸어") || At(t, q, "걸어") ||
        At(t, q, "정도전") || At(t, q, "정도뒤") || At(t, q, "동안쉬") ||
        Near(t, before_lo, pos, {"걸어서", "도보", "차로", "마다", "배차", "역에서", "운전"}))
      return 0;
    // A bare "N분" is a wait in these texts unless it says otherwise (거리, 전, 뒤 …);
    // Korean numerals need context because "세 분" is also three people.
    bool ctx = digits || Near(t, before_lo, pos, {"대기", "웨이팅", "기다", "줄", "예상"}) ||
               Near(t, q, q + 30,
                    {"째", "기다", "대기", "웨이팅", "줄서", "줄섰", "걸렸", "걸림", "걸려", "걸리",
                     "컷", "만에", "이면", "기본", "각", "서있", "잡"});
    if (!ctx) return 0;
    out->unit = WaitInfo::kMinutes;
    out->amount = value;
    return q - pos;
  }
  if (digits && (At(t, p, "min") || At(t, p, "hour") || At(t, p, "hr"))) {
    bool hours = At(t, p, "h");
    size_t q = p;
    while (q < t.size() && t[q] >= 'a' && t[q] <= 'z') ++q;
    out->unit = WaitInfo::kMinutes;
    out->amount = hours ? value * 60 : value;
    return q - pos;
  }
  if (At(t, p, "팀")) {
    out->unit = WaitInfo::kTeams;
    out->amount = value;
    return p + 3 - pos;
  }
  if (At(t, p, "명")) {
    size_t q = p + 3;
    bool ctx = Near(t, before_lo, pos, {"줄", "앞에", "대기", "웨이팅"}) ||
               Near(t, q, q + 18, {"대기", "줄", "서있", "기다", "넘게"});
    if (!ctx || !digits) return 0;
    out->unit = WaitInfo::kPeople;
    out->amount = value;
    return q - pos;
  }
  if (digits && (At(t, p, "미터") || At(t, p, "m"))) {
    size_t q = p + (At(t, p, "m") ? 1 : 6);
    if (!Near(t, before_lo, pos, {"줄"}) && !Near(t, q, q + 12, {"줄"})) return 0;
    out->unit = WaitInfo::kMeters;
    out->amount = value;
    return q - pos;
  }
  if (digits && At(t, p, "번") && Near(t, before_lo, pos, {"대기번호", "번호표", "대기표"})) {
    out->unit = WaitInfo::kTicket;
    out->amount = value;
    return p + 3 - pos;
  }
  if (At(t, p, "대") && Near(t, p + 3, p + 24, {"보냈", "놓쳤", "못타", "그냥보", "지나"})) {
    out->unit = WaitInfo::kVehicles;
    out->amount = value;
    return p + 3 - pos;
  }
  return 0;
}

}  // namespace

const std::vector<Rules::Index::Ref>* Rules::Index::Find(char32_t cp) const {
  if (IsHangulSyllable(cp)) return hangul[cp - 0xAC00].empty() ? nullptr : &hangul[cp - 0xAC00];
  if (cp < 128) return ascii[cp].empty() ? nullptr : &ascii[cp];
  auto it = other.find(cp);
  return it == other.end() ? nullptr : &it->second;
}

const Rules::Index& GetScanIndex() {
  static const Rules::Index index = Build();
  return index;
}

Level WaitLevel(WaitInfo::Unit unit, double a) {
  switch (unit) {
    case WaitInfo::kMinutes:
      return a <= 3 ? Level::kLow : a <= 25 ? Level::kMedium : Level::kHigh;
    case WaitInfo::kTeams:
      return a <= 2 ? Level::kLow : a <= 14 ? Level::kMedium : Level::kHigh;
    case WaitInfo::kPeople:
      return a <= 5 ? Level::kLow : a <= 49 ? Level::kMedium : Level::kHigh;
    case WaitInfo::kMeters:
      return a < 10 ? Level::kLow : a < 50 ? Level::kMedium : Level::kHigh;
    case WaitInfo::kTicket:
      return a <= 2 ? Level::kLow : a <= 30 ? Level::kMedium : Level::kHigh;
    case WaitInfo::kVehicles:
      return a >= 2 ? Level::kHigh : Level::kMedium;
  }
  return Level::kUnknown;
}

ScanHits Scan(const Rules::Index& index, const CompactText& c, const std::string* spot_compact) {
  ScanHits hits;
  std::string_view t = c.text;
  size_t level_until = 0, number_until = 0;
  for (size_t pos = 0; pos < t.size();) {
    size_t next = pos;
    char32_t cp = NextCodePoint(t, next);
    uint16_t clause = c.clause[pos];
    if (pos >= number_until) {
      WaitInfo w;
      if (size_t n = ParseFigure(t, pos, &w)) {
        w.level = WaitLevel(w.unit, w.amount);
        hits.numbers.push_back({pos, w, clause, false});
        number_until = pos + n;
        level_until = std::max(level_until, pos + n);
      }
    }
    if (const auto* refs = index.Find(cp)) {
      bool level_done = pos < level_until, cause_done = false;
      size_t after = next;
      char32_t cp2 = next < t.size() ? NextCodePoint(t, after) : 0;
      for (const auto& ref : *refs) {
        if (ref.second != 0 && ref.second != cp2) continue;
        if (!At(t, pos, ref.pat)) continue;
        size_t end = pos + ref.pat.size();
        if (ref.table == 0 && !level_done) {
          const auto& cue = lex::kLevelCues[ref.idx];
          bool neg =
              NegatedAfter(t, end) || (pos >= 3 && t.substr(pos - 3, 3) == "안" && IsVerbLike(cp));
          hits.levels.push_back(
              {pos, end, neg ? cue.negated : cue.level, cue.weight, clause, false});
          level_done = true;
          level_until = end;
        } else if (ref.table == 1) {
          const auto& m = lex::kMarkers[ref.idx];
          if (m.kind == Marker::kOtherPlace && spot_compact &&
              spot_compact->find(m.pat) != std::string::npos)
            continue;  // the spot's own description names it
          if (m.kind == Marker::kOtherPlace &&
              t.substr(end, 12).find("까지") != std::string_view::npos)
            continue;  // "줄이 주차장 입구까지": a landmark the queue reaches, not the topic
          hits.markers.push_back({pos, end, m.kind, clause});
        } else if (ref.table == 2 && !cause_done) {
          const auto& cue = lex::kCauseCues[ref.idx];
          if (CauseFalsePositive(t, pos, cue)) continue;
          hits.causes.push_back({pos, &cue, clause});
          cause_done = true;
        }
      }
    }
    pos = next;
  }
  ScanNumberedPlaces(t, spot_compact, c, &hits);
  ScanSides(t, spot_compact, c, &hits);
  ScanNamedPlaces(t, spot_compact, c, &hits);
  return hits;
}

}  // namespace nunchi::judges
