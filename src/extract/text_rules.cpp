// Normalisation, money, approval numbers, dates and UTF-8 helpers.
#include "text_rules.h"

#include <regex>

namespace nunchi::extract {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsJoiner(char c) { return c == '-' || c == '/' || c == ':' || c == '*'; }
bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

const std::string kWon = "₩";
const std::string kWonSuffix = "원";

// After a number: nothing, a space or a mark, not a joiner to more digits.
bool grouped_end_ok(std::string_view s, size_t at) {
  return at >= s.size() || !(IsJoiner(s[at]) || s[at] == '.' || s[at] == ',');
}

bool EndsWith(std::string_view s, size_t end, std::string_view what) {
  return end >= what.size() && s.substr(end - what.size(), what.size()) == what;
}

}  // namespace

std::u32string ToU32(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + len > s.size()) len = 1;
    char32_t cp = len == 1 ? c : c & (0x3F >> (len - 1));
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out += cp;
    i += len;
  }
  return out;
}

std::string ToUtf8(std::u32string_view s) {
  std::string out;
  for (char32_t c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

bool HasHangul(std::string_view s) {
  for (char32_t c : ToU32(s)) {
    if (c >= 0xAC00 && c <= 0xD7A3) return true;
  }
  return false;
}

std::string NormalizeOcrText(std::string_view text) {
  std::u32string out;
  for (char32_t c : ToU32(text)) {
    if (c >= 0xFF01 && c <= 0xFF5E) c = c - 0xFF01 + 0x21;  // full-width ASCII
    if (c == U'\\' || c == 0xFFE6) c = 0x20A9;              // every won sign to ₩
    if (c == 0x3000 || c == U'\t') c = U' ';
    if (c == U'，') c = U',';
    if (c == U' ' && !out.empty() && out.back() == U' ') continue;
    out += c;
  }
  while (!out.empty() && out.back() == U' ') out.pop_back();
  size_t first = out.find_first_not_of(U' ');
  return ToUtf8(first == std::u32string::npos ? std::u32string() : out.substr(first));
}

std::vector<MoneyToken> FindMoney(std::string_view s) {
  std::vector<MoneyToken> out;
  size_t i = 0;
  while (i < s.size()) {
    bool won_letter = i > 0 && (s[i - 1] == 'W' || s[i - 1] == 'w');
    if (!IsDigit(s[i]) || (i > 0 && (IsDigit(s[i - 1]) || (IsAsciiAlpha(s[i - 1]) && !won_letter) ||
                                     (s[i - 1] == '.' && i > 1 && IsDigit(s[i - 2]))))) {
      ++i;
      continue;
    }
    size_t begin = i, j = i;
    int64_t value = 0;
    int lead = 0;
    while (j < s.size() && IsDigit(s[j]) && lead < 12) value = value * 10 + (s[j++] - '0'), ++lead;
    bool grouped = false;
    // Thousands groups: ",ddd" or ".ddd"; OCR may add a space or a stray
    // second mark (",." or ", ").
    while (j < s.size() && (s[j] == ',' || s[j] == '.') && lead <= 3) {
      size_t k = j + 1;
      if (k < s.size() && (s[k] == ' ' || s[k] == ',' || s[k] == '.')) ++k;
      if (k + 3 > s.size() || !IsDigit(s[k]) || !IsDigit(s[k + 1]) || !IsDigit(s[k + 2])) break;
      // "138,2001": a last group of four digits is three and a 원 read as a
      // digit (it ends the number); longer runs are no group.
      bool sign_slip = k + 4 <= s.size() && IsDigit(s[k + 3]) &&
                       (k + 4 == s.size() || !IsDigit(s[k + 4])) && grouped_end_ok(s, k + 4);
      if (k + 3 < s.size() && IsDigit(s[k + 3]) && !sign_slip) break;
      value = value * 1000 + (s[k] - '0') * 100 + (s[k + 1] - '0') * 10 + (s[k + 2] - '0');
      j = sign_slip ? k + 4 : k + 3;
      grouped = true;
      if (sign_slip) break;
    }
    size_t end = j;
    i = j;
    // Joined to other numbers (dates, phone or card numbers, decimals)?
    bool joined_after = end + 1 < s.size() &&
                        (IsJoiner(s[end]) || s[end] == '.' || s[end] == ',') && IsDigit(s[end + 1]);
    if (end < s.size() && (s[end] == '*' || IsAsciiAlpha(s[end]))) joined_after = true;
    bool joined_before =
        begin >= 2 && IsJoiner(s[begin - 1]) && (IsDigit(s[begin - 2]) || s[begin - 2] == '*');
    if (begin >= 1 && s[begin - 1] == '*') joined_before = true;
    if (joined_after || joined_before) continue;
    if (!grouped && lead > 7) continue;         // long bare digit runs are identifiers
    if (lead > 1 && s[begin] == '0') continue;  // "02020": amounts never start with 0
    MoneyToken t;
    t.value = value;
    t.grouped = grouped;
    t.begin = begin;
    t.end = end;
    size_t b = begin;
    while (b > 0 && s[b - 1] == ' ') --b;
    if (EndsWith(s, b, kWon) || (b > 0 && (s[b - 1] == 'W' || s[b - 1] == 'w'))) {
      t.won_marked = true;
      b -= EndsWith(s, b, kWon) ? kWon.size() : 1;
      t.begin = b;
      while (b > 0 && s[b - 1] == ' ') --b;
    }
    if (b > 0 && s[b - 1] == '-' && (b < 2 || !IsDigit(s[b - 2]))) t.negative = true;
    size_t a = end;
    while (a < s.size() && s[a] == ' ') ++a;
    if (s.substr(a, kWonSuffix.size()) == kWonSuffix) {
      t.won_marked = true;
      t.end = a + kWonSuffix.size();
    }
    out.push_back(t);
  }
  return out;
}

std::optional<std::string> FindApprovalNumber(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (!IsDigit(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && IsDigit(s[j])) ++j;
    // "승인번호:12345678" is fine; "18:40" or "1234-5678" is not.
    auto joiner = [&](size_t at, bool before) {
      char c = s[at];
      if (c == ':')
        return before ? at > 0 && IsDigit(s[at - 1]) : at + 1 < s.size() && IsDigit(s[at + 1]);
      return IsJoiner(c) || c == '.' || c == ',';
    };
    bool joined = (i > 0 && joiner(i - 1, true)) || (j < s.size() && joiner(j, false));
    if (j - i == 8 && !joined) return std::string(s.substr(i, 8));
    i = j;
  }
  return std::nullopt;
}

namespace {

// The time right after a date, in `rest`. Besides "18:40", "18:40:12" and
// "오후 6:40" it reads the forms an OCR slip leaves: a colon read as a digit
// ("23111" for 23:11, "15:32142" for 15:32:42, "오후 2206" for 2:06 PM),
// lost colons ("0840", "183912", "01:3514"), 일 read as 월.

// A clock time from its parts, with 오전/오후 (AM/PM) applied; none when out of range.
std::optional<DateTime> ClockTime(const std::string& ampm, int h, int mi, int sec) {
  if ((ampm == "오후" || ampm == "PM") && h < 12) h += 12;
  if ((ampm == "오전" || ampm == "AM") && h == 12) h = 0;
  if (h > 23 || mi > 59 || sec > 59) return std::nullopt;
  DateTime dt;
  dt.hour = h, dt.minute = mi, dt.second = sec, dt.has_time = true;
  return dt;
}

std::optional<DateTime> TimeAfterDate(const std::string& rest) {
  // A weekday in brackets, also with its closing bracket lost ("(월14:18");
  // the day's own dot ("2026. 11. 30. 14:05") or ISO's T before it.
  static const std::string kLead =
      R"(^(?:\.|T)? ?(?:일|월)? ?(?:\([^)]{0,9}\)|\([^\d)]{1,3})? ?(오전|오후|AM|PM)? ?)";
  // Seconds after a real colon, or after a slipped or lost one when nothing follows.
  static const std::regex kTime(
      kLead + R"((\d{1,2}) ?(?:[:;-]|시) ?(\d{2})(?: ?(?:[:;]|분) ?(\d{2})|[01]?(\d{2})(?!\d))?)");
  static const std::regex kDigits(kLead + R"((\d{4,7})(?!\d))");
  std::smatch t;
  int h = 0, mi = 0, sec = 0;
  if (std::regex_search(rest, t, kTime)) {
    h = std::stoi(t[2].str()), mi = std::stoi(t[3].str());
    sec = t[4].matched ? std::stoi(t[4].str()) : t[5].matched ? std::stoi(t[5].str()) : 0;
  } else if (std::regex_search(rest, t, kDigits)) {
    const std::string d = t[2].str();
    auto num = [&](size_t at) { return std::stoi(d.substr(at, 2)); };
    auto slip = [&](size_t at) { return d[at] == '0' || d[at] == '1'; };  // was a colon
    if (d.size() == 4 && t[1].matched) {  // "오후 1152": a 12-hour clock prints 1:52
      h = d[0] - '0', mi = num(2);
    } else if (d.size() == 4) {
      h = num(0), mi = num(2);
    } else if (d.size() == 5 && slip(2)) {
      h = num(0), mi = num(3);
    } else if (d.size() == 6) {
      h = num(0), mi = num(2), sec = num(4);
    } else if (d.size() == 7 && slip(2) && slip(5)) {
      h = num(0), mi = num(3), sec = num(6);
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  std::string ampm = t[1].str();
  return ClockTime(ampm, h, mi, sec);
}

}  // namespace

namespace {

// True when `before` ends with a date label (일자, 일시, 날짜), a colon or
// spaces after it allowed.
bool AfterDateLabel(const std::string& before) {
  std::string t = before;
  while (!t.empty() && (t.back() == ' ' || t.back() == ':')) t.pop_back();
  for (const char* label : {"일자", "일시", "날짜"}) {
    std::string l(label);
    if (t.size() >= l.size() && t.compare(t.size() - l.size(), l.size(), l) == 0) return true;
  }
  return false;
}

// "2027년2될21일": after 년 and one or two digits, any other syllable
// before the day's digits is an OCR slip of 월.
std::string MonthSlipsToWol(std::string_view s) {
  std::u32string t = ToU32(s);
  for (size_t at = t.find(U'년'); at != std::u32string::npos; at = t.find(U'년', at + 1)) {
    size_t i = at + 1;
    while (i < t.size() && t[i] == U' ') ++i;
    size_t digits = 0;
    while (i < t.size() && t[i] >= U'0' && t[i] <= U'9') ++i, ++digits;
    while (i < t.size() && t[i] == U' ') ++i;
    bool hangul = i < t.size() && t[i] >= 0xAC00 && t[i] <= 0xD7A3;
    bool day_follows = i + 1 < t.size() && t[i + 1] >= U'0' && t[i + 1] <= U'9';
    if (digits >= 1 && digits <= 2 && hangul && day_follows) t[i] = U'월';
  }
  return ToUtf8(t);
}

}  // namespace

std::optional<DateTime> FindDateTime(std::string_view s) {
  // A separator may come doubled by an OCR slip ("25./09,/13").
  static const std::regex kDate(
      R"((20\d{2}|\d{2}) ?(?:,?[-./][-./,]?|년) ?(\d{1,2}) ?(?:,?[-./][-./,]?|월) ?(\d{1,2}))");
  // "2024 1103 18:39:29": the separators lost; only taken with a time after it.
  static const std::regex kCompactDate(R"((20\d{2}) ?(\d{2})(\d{2}))");
  std::string text = MonthSlipsToWol(s);
  for (const std::regex* re : {&kDate, &kCompactDate}) {
    for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it) {
      const std::smatch& m = *it;
      size_t at = static_cast<size_t>(m.position(0));
      if (at > 0 && IsDigit(text[at - 1])) continue;
      size_t after = at + static_cast<size_t>(m.length(0));
      std::optional<DateTime> time = TimeAfterDate(text.substr(after));
      // "24/06/2002:41": the day runs straight into the time.
      if (after < text.size() && IsDigit(text[after]) && !time) continue;
      // A compact date without a time only right after a date label
      // ("결제일자 20250322"; the time is printed on another line).
      if (re == &kCompactDate && !time && !AfterDateLabel(text.substr(0, at))) continue;
      DateTime dt = time.value_or(DateTime{});
      dt.year = std::stoi(m[1].str());
      if (dt.year < 100) dt.year += 2000;
      dt.month = std::stoi(m[2].str());
      dt.day = std::stoi(m[3].str());
      if (dt.month < 1 || dt.month > 12 || dt.day < 1 || dt.day > 31) continue;
      if (dt.year < 2000 || dt.year > 2099) continue;
      return dt;
    }
  }
  return std::nullopt;
}

std::optional<DateTime> FindTime(std::string_view s) {
  // "14:05", "14:05:22", "오후 2:05", "14시 05분", not inside a longer
  // number run or a date (a date line is read by FindDateTime).
  static const std::regex kTime(
      R"((?:(오전|오후|AM|PM) ?)?(\d{1,2}) ?(?::|;|시) ?(\d{2})(?: ?(?::|;|분) ?(\d{2})|\d(\d{2}))?(?![\d:]))");
  // A labelled time whose colon OCR read as a digit or lost: "시간 11813".
  static const std::regex kLabelled(R"((?:시간|시각) ?:? ?(\d{4,6})(?!\d))");
  std::string text(s);
  int h = -1, mi = 0, sec = 0;
  std::string ampm;
  for (std::sregex_iterator it(text.begin(), text.end(), kTime), end; it != end; ++it) {
    const std::smatch& t = *it;
    auto at = static_cast<size_t>(t.position(0));
    if (at > 0 && IsDigit(text[at - 1])) continue;
    bool joined = at > 1 &&
                  (text[at - 1] == ':' || text[at - 1] == '.' || text[at - 1] == '/' ||
                   text[at - 1] == '-') &&
                  IsDigit(text[at - 2]);
    if (joined) continue;
    h = std::stoi(t[2].str()), mi = std::stoi(t[3].str());
    // The seconds' colon read as a digit ("09:18125", "01:44707").
    sec = t[4].matched ? std::stoi(t[4].str()) : t[5].matched ? std::stoi(t[5].str()) : 0;
    ampm = t[1].str();
    break;
  }
  std::smatch l;
  if (h < 0 && std::regex_search(text, l, kLabelled)) {
    const std::string d = l[1].str();
    auto num = [&](size_t i) { return std::stoi(d.substr(i, 2)); };
    if (d.size() == 4) h = num(0), mi = num(2);                // colon lost
    if (d.size() == 5) h = num(0), mi = num(3);                // colon read as a digit
    if (d.size() == 6) h = num(0), mi = num(2), sec = num(4);  // both lost
  }
  if (h < 0) return std::nullopt;
  return ClockTime(ampm, h, mi, sec);
}

std::string ToIso(const DateTime& dt) {
  char b[32];
  std::snprintf(b, sizeof b, "%04d-%02d-%02dT%02d:%02d:%02d", dt.year, dt.month, dt.day, dt.hour,
                dt.minute, dt.second);
  return b;
}

}  // namespace nunchi::extract
