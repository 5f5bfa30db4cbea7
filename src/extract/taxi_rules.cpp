#include "taxi_rules.h"

#include <algorithm>
#include <optional>
#include <regex>

#include "text_rules.h"

namespace nunchi::extract {
namespace {

// The fare on a line whose big number OCR mangled in one of two ways seen on
// app screens: its last digit lost ("₩5,40" for ₩5,400; fares end in 00, so
// a last group of two digits lost a 0) or its comma read as a space
// ("24 600원"). Empty when neither fits a plausible fare.
std::optional<int64_t> RepairedFare(const std::string& norm, const TaxiRules& rules) {
  static const std::regex kLostDigit(R"((^|[^0-9.,])([1-9][0-9]{0,2})[,.] ?([0-9]{2})(?![0-9.,]))");
  static const std::regex kSpaceForComma(R"((^|[^0-9.,])([1-9][0-9]{0,2}) ([0-9]{3})(?![0-9.,]))");
  std::smatch m;
  int64_t value = 0;
  if (std::regex_search(norm, m, kLostDigit)) {
    value = std::stoll(m[2].str()) * 1000 + std::stoll(m[3].str()) * 10;
  } else if (std::regex_search(norm, m, kSpaceForComma)) {
    value = std::stoll(m[2].str()) * 1000 + std::stoll(m[3].str());
  }
  if (!PlausibleFare(value, rules)) return std::nullopt;
  return value;
}

}  // namespace

bool PlausibleFare(int64_t won, const TaxiRules& rules) {
  return won % 100 == 0 && won >= rules.base_fare && won <= rules.max_fare;
}

Field<int64_t> FareFromSevenSegment(const std::vector<SevenSegReading>& rows,
                                    const TaxiRules& rules) {
  Field<int64_t> f;
  if (rows.empty()) return f;
  // The main number is the tallest row that reads as digits; smaller rows
  // are distance and time. A tall row of nonsense (a frame, glare) read
  // with little confidence does not set the height.
  auto readable = [](const SevenSegReading& row) {
    return row.digits.find('?') == std::string::npos && row.digits.size() <= 7;
  };
  double tallest = 0;
  for (const SevenSegReading& row : rows) {
    if (readable(row) && row.confidence >= 0.2) tallest = std::max(tallest, row.digit_height);
  }
  if (tallest == 0) tallest = rows.front().digit_height;
  double best_rank = -1;
  for (const SevenSegReading& row : rows) {
    if (row.digit_height < 0.8 * tallest || row.digit_height > 1.25 * tallest) continue;
    if (!readable(row)) continue;
    int64_t value = std::stoll(row.digits);
    bool plausible = PlausibleFare(value, rules);
    // A sign beside the digits (원 after, ₩ before) read as one more digit:
    // fares end in 00, so 330006 is 33,000 and a sign, never 330,006. The
    // trimmed value is not confirmed: OCR must agree for it to be sure.
    bool trimmed = false;
    if (!plausible && row.digits.size() >= 5) {
      for (const std::string& cut :
           {row.digits.substr(0, row.digits.size() - 1), row.digits.substr(1)}) {
        if (PlausibleFare(std::stoll(cut), rules)) {
          value = std::stoll(cut), plausible = true, trimmed = true;
          break;
        }
      }
    }
    // No fare at all rather than an implausible one (12345, 888): OCR, or
    // nothing, answers instead.
    if (!plausible) continue;
    double conf = row.confidence + (row.confirmed ? 0.5 : 0);
    if (f.value && conf <= best_rank) continue;
    best_rank = conf;
    f.value = value;
    // Sure only when the fare is plausible (a multiple of 100 between the
    // base fare and the cap, so 4 to 6 digits) and a second binarisation
    // read the same digits; otherwise below the accept level, so that an
    // independent OCR reading must agree.
    if (row.confirmed && !trimmed) {
      f.confidence = std::clamp(0.7 + 0.3 * row.confidence, 0.0, 1.0);
    } else {
      f.confidence = std::clamp(0.3 + 0.4 * row.confidence, 0.0, 0.55);
    }
    f.confidence = std::max(f.confidence, 0.0);
    f.evidence = Evidence{"seven_segment", row.digits, row.box};  // as read, sign included
  }
  return f;
}

Field<int64_t> CombineFareReadings(const Field<int64_t>& seg, const Field<int64_t>& ocr,
                                   std::string* method) {
  Field<int64_t> out;
  if (seg.value && ocr.value && *seg.value == *ocr.value) {
    out = seg;  // two independent readings agree
    out.confidence = std::max({seg.confidence, ocr.confidence, 0.85});
    *method = "seven_segment";
  } else if (seg.value && ocr.value) {
    // OCR overrides the display only with a number at least about as tall
    // as the display's digits: a smaller one is a counter under the fare
    // (distance, time, 할증), which OCR reads more easily than the fare.
    bool smaller = seg.evidence.box.h > 0 && ocr.evidence.box.h > 0 &&
                   ocr.evidence.box.h < 0.6 * seg.evidence.box.h;
    bool use_ocr = ocr.confidence >= 0.6 && !smaller;
    out = use_ocr ? ocr : seg;
    out.confidence = std::min(out.confidence, 0.4);
    *method = use_ocr ? "ocr" : "seven_segment";
  } else if (ocr.value || !seg.value) {
    out = ocr;
    *method = "ocr";
  } else {
    out = seg;  // nothing confirmed it
    out.confidence = std::min(seg.confidence, kLowConfidence - 0.05);
    *method = "seven_segment";
  }
  return out;
}

Field<int64_t> FareFromOcr(const std::vector<OcrLine>& lines, const TaxiRules& rules,
                           CandidateChooser* chooser) {
  struct Scored {
    int64_t value;
    double height;
    double score;
    const OcrLine* line;
    bool repaired = false;  // see RepairedFare: a guess, never sure
  };
  std::vector<Scored> found;
  double tallest = 1;
  for (const OcrLine& line : lines) {
    std::string norm = NormalizeOcrText(line.text);
    LabelMatch label = ClassifyAmountLabel(norm);
    if (label.role == AmountRole::kOther) continue;  // 기본요금, 수수료 ...
    double h = line.box.h;                           // the height of the words holding the number
    bool plausible = false;
    for (const MoneyToken& t : FindMoney(norm)) {
      if (!PlausibleFare(t.value, rules)) continue;
      plausible = true;
      found.push_back({t.value, h, 0, &line});
      tallest = std::max(tallest, h);
      found.back().score =
          (t.won_marked ? 10 : 0) + (t.grouped ? 5 : 0) + (HasLabel(norm, "요금") ? 5 : 0);
    }
    if (auto repaired = plausible ? std::nullopt : RepairedFare(norm, rules)) {
      found.push_back({*repaired, h, 0, &line, true});
      tallest = std::max(tallest, h);
    }
  }
  Field<int64_t> f;
  if (found.empty()) return f;
  std::vector<Candidate> cands;
  for (Scored& s : found) {
    s.score += 100 * s.height / tallest;
    cands.push_back({std::to_string(s.value), s.score, Evidence{"ocr", s.line->text, s.line->box}});
  }
  size_t best = 0;
  for (size_t i = 1; i < found.size(); ++i) {
    if (found[i].score > found[best].score) best = i;
  }
  double second = 0;
  for (size_t i = 0; i < found.size(); ++i) {
    if (found[i].value != found[best].value) second = std::max(second, found[i].score);
  }
  if (chooser != nullptr && found[best].score - second < 10) {
    std::string text;
    for (const OcrLine& l : lines) text += l.text + "\n";
    if (auto pick = chooser->Choose("taxi_fare", cands, text); pick && *pick < found.size()) {
      best = *pick;
    }
  }
  const Scored& s = found[best];
  double margin = std::clamp((s.score - second) / 40.0, 0.0, 1.0);
  f.value = s.value;
  f.confidence = std::clamp(0.2 + 0.4 * s.line->confidence + 0.4 * margin, 0.0, 1.0);
  // An app meter shows its fare in the biggest digits on the screen: when
  // a taller line of digits gave no plausible fare (OCR mangled it), the
  // smaller number picked (often the 4,800 base fare) is unsure.
  double tallest_digits = 0;
  for (const OcrLine& line : lines) {
    if (line.text.find_first_of("0123456789") != std::string::npos)
      tallest_digits = std::max(tallest_digits, static_cast<double>(line.box.h));
  }
  if (s.height < 0.7 * tallest_digits || s.repaired) f.confidence = std::min(f.confidence, 0.45);
  f.evidence = cands[best].evidence;
  return f;
}

}  // namespace nunchi::extract
