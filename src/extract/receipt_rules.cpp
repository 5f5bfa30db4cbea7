#include "receipt_rules.h"

#include <algorithm>
#include <cmath>
#include <regex>

#include "text_rules.h"

namespace nunchi::extract {
namespace {

struct AmountCandidate {
  int64_t value = 0;
  AmountRole role = AmountRole::kNone;
  double score = 0;
  bool cross_checked = false;
  size_t line = 0;
  bool bare = false;  // unlabelled, no won sign, no separators
};

// Same number of digits, at most one of them different.
// One OCR slip apart: one digit changed, dropped (135,200 read 15,200) or
// added (a won sign read as a leading digit: 16,500 read 316,500).
bool OneDigitApart(int64_t a, int64_t b) {
  std::string x = std::to_string(a), y = std::to_string(b);
  if (x.size() < y.size()) std::swap(x, y);
  if (x.size() == y.size()) {
    int diff = 0;
    for (size_t i = 0; i < x.size(); ++i) diff += x[i] != y[i];
    return diff <= 1;
  }
  if (x.size() != y.size() + 1) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x.substr(0, i) + x.substr(i + 1) == y) return true;
  }
  return false;
}

// True when a won sign is followed by a non-digit glued to the number, as in
// "₩용800" for ₩8,800: the leading digits were misread.
bool GarbledAfterWonSign(const std::string& norm, size_t begin) {
  std::u32string before = ToU32(norm.substr(0, begin));
  return before.size() >= 2 && before[before.size() - 2] == U'₩' && before.back() != U' ' &&
         !(before.back() >= U'0' && before.back() <= U'9');
}

Evidence OcrEvidence(const OcrLine& line) { return Evidence{"ocr", line.text, line.box}; }

std::string JoinText(const std::vector<OcrLine>& lines) {
  std::string all;
  for (const OcrLine& l : lines) all += l.text + "\n";
  return all;
}

// Picks among scored candidates; asks the chooser when the top two differ
// by less than `margin`.
size_t Pick(const std::string& field, const std::vector<Candidate>& cands, double margin,
            CandidateChooser* chooser, const std::vector<OcrLine>& lines) {
  size_t best = 0;
  for (size_t i = 1; i < cands.size(); ++i) {
    if (cands[i].score > cands[best].score) best = i;
  }
  if (chooser != nullptr && cands.size() > 1) {
    double second = -1e9;
    for (size_t i = 0; i < cands.size(); ++i) {
      if (i != best && cands[i].value != cands[best].value)
        second = std::max(second, cands[i].score);
    }
    if (cands[best].score - second < margin) {
      if (auto pick = chooser->Choose(field, cands, JoinText(lines));
          pick && *pick < cands.size()) {
        best = *pick;
      }
    }
  }
  return best;
}

// Every number printed on the receipt, for the arithmetic cross-checks.
struct Printed {
  int64_t value;
  bool negative;
  size_t line;
};

// value == a + b for two printed numbers where b is the VAT of a (supply
// value + VAT), whatever their labels read as.
bool SumOfSupplyAndVat(int64_t value, const std::vector<Printed>& printed) {
  for (const Printed& a : printed) {
    for (const Printed& b : printed) {
      if (&a != &b && a.value + b.value == value && VatMatchesSupply(a.value, b.value)) return true;
    }
  }
  return false;
}

// value == a - d for a printed number a and a discount d printed with a minus.
bool LessADiscount(int64_t value, const std::vector<Printed>& printed) {
  for (const Printed& d : printed) {
    if (!d.negative) continue;
    for (const Printed& a : printed) {
      if (&a != &d && !a.negative && a.value - d.value == value) return true;
    }
  }
  return false;
}

void ReadAmount(const std::vector<OcrLine>& lines, CandidateChooser* chooser, ReceiptResult* r) {
  std::vector<AmountCandidate> all;
  std::vector<Printed> printed;
  std::vector<bool> consumed(lines.size(), false);  // the amount of the label above
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    std::vector<MoneyToken> money = FindMoney(norm);
    bool printed_a_number = !money.empty();  // "부가세 0" has its amount
    std::erase_if(money, [](const MoneyToken& t) { return t.value <= 0; });
    // A stray bare digit after the amount ("765,000(8"): the amount is the
    // last grouped or won-marked number, not the speck after it.
    auto marked = [](const MoneyToken& t) { return t.grouped || t.won_marked; };
    while (money.size() > 1 && !marked(money.back()) && money.back().value < 100 &&
           std::any_of(money.begin(), money.end() - 1, marked)) {
      money.pop_back();
    }
    for (const MoneyToken& t : money) printed.push_back({t.value, t.negative, i});
    LabelMatch label =
        ClassifyAmountLabel(money.empty() ? norm : norm.substr(0, money.back().begin));
    if (money.empty()) {
      // A label alone on its line: the amount may sit on the next line
      // (totals, and supply, VAT, tendered and change for the cross-checks).
      // A weak label (금액 alone, also a column heading) needs its amount
      // on its own line.
      bool weak = label.role == AmountRole::kTotal && label.priority < 85;
      if (label.role == AmountRole::kNone || label.role == AmountRole::kOther || weak ||
          label.role == AmountRole::kPayment || printed_a_number || i + 1 >= lines.size()) {
        continue;
      }
      std::string next = NormalizeOcrText(lines[i + 1].text);
      if (ClassifyAmountLabel(next).role != AmountRole::kNone) continue;
      money = FindMoney(next);
      std::erase_if(money, [](const MoneyToken& t) { return t.value <= 0; });
      if (money.empty()) continue;
      label.priority -= 10;
      consumed[i + 1] = true;
    } else if (consumed[i] && label.role == AmountRole::kNone) {
      continue;  // already read as the amount of the label line above
    }
    const MoneyToken& t = money.back();  // amounts are right-aligned
    AmountCandidate c{t.value, label.role, static_cast<double>(label.priority), false, i};
    if (label.role == AmountRole::kNone) {
      // A bare number without label, sign or separators stays only if the
      // arithmetic cross-checks below confirm it.
      c.bare = !t.won_marked && !t.grouped;
      c.score = c.bare ? 0 : 20;
    }
    c.score += (t.won_marked || t.grouped ? 3 : 0) + 2 * lines[i].confidence - 2 * label.distance;
    if (GarbledAfterWonSign(norm, t.begin)) c.score -= 30;  // "₩용800": a digit became a letter
    all.push_back(c);
  }
  auto find = [&](AmountRole role) -> const AmountCandidate* {
    for (const AmountCandidate& c : all) {
      if (c.role == role) return &c;
    }
    return nullptr;
  };
  const AmountCandidate* supply = find(AmountRole::kSupply);
  const AmountCandidate* vat = find(AmountRole::kVat);
  const AmountCandidate* tendered = find(AmountRole::kTendered);
  const AmountCandidate* change = find(AmountRole::kChange);
  const AmountCandidate* subtotal = find(AmountRole::kSubtotal);
  const AmountCandidate* discount = find(AmountRole::kDiscount);
  std::vector<AmountCandidate> totals;
  for (const AmountCandidate& c : all) {
    bool eligible = c.role == AmountRole::kTotal || c.role == AmountRole::kPayment ||
                    c.role == AmountRole::kSubtotal || c.role == AmountRole::kNone;
    if (eligible) totals.push_back(c);
  }
  for (AmountCandidate& c : totals) {
    if (supply && vat && supply->value + vat->value == c.value) {
      c.score += 30, c.cross_checked = true;
    }
    if (tendered && change && tendered->value - change->value == c.value) {
      c.score += 30, c.cross_checked = true;
    }
    if (subtotal && discount && subtotal->value - discount->value == c.value) c.score += 10;
    // A labelled total less a discount printed without its minus ("총액
    // 25,000 / 할인 5,000 / 내실금액 20,000"): the amount paid.
    bool less_discount =
        discount && std::any_of(all.begin(), all.end(), [&](const auto& o) {
          return o.role == AmountRole::kTotal && o.value - discount->value == c.value;
        });
    if (less_discount) c.score += 10;
    // The same checks on the numbers alone: OCR often mangles the labels of
    // supply value, VAT and discount lines while their numbers survive.
    if (!c.cross_checked && c.value >= 100 && SumOfSupplyAndVat(c.value, printed)) {
      c.score += 30, c.cross_checked = true;
    } else if (!c.cross_checked && c.value >= 100 && LessADiscount(c.value, printed)) {
      c.score += 25, c.cross_checked = true;
    }
    for (const AmountCandidate& o : totals) {
      if (&o != &c && o.value == c.value && o.role != c.role) c.score += 5;
    }
  }
  std::erase_if(totals, [](const AmountCandidate& c) { return c.bare && !c.cross_checked; });
  // Unlabelled amounts: the largest and the most repeated is most likely the
  // total (item prices are smaller, and the total is printed several times).
  int64_t largest = 1;
  for (const AmountCandidate& c : totals) largest = std::max(largest, c.value);
  for (AmountCandidate& c : totals) {
    if (c.role == AmountRole::kNone) c.score += 8.0 * static_cast<double>(c.value) / largest;
    if (c.value < 100) c.score -= 50;  // a stray digit, not a receipt total
  }
  double best_labelled = 0;
  for (const AmountCandidate& c : totals) {
    if (c.role == AmountRole::kTotal) best_labelled = std::max(best_labelled, c.score);
  }
  auto rescue = [&](int64_t value, size_t line) {
    bool seen = std::any_of(totals.begin(), totals.end(),
                            [&](const AmountCandidate& c) { return c.value == value; });
    if (seen || value < 500) return;  // no receipt total; digits OCR lost
    // A labelled total one digit away is an OCR slip of this sum: beat it.
    bool near_miss = std::any_of(totals.begin(), totals.end(), [&](const AmountCandidate& c) {
      return c.role == AmountRole::kTotal && OneDigitApart(c.value, value);
    });
    totals.push_back({value, AmountRole::kTotal, near_miss ? best_labelled + 2 : 50, true, line});
  };
  if (supply && vat && VatMatchesSupply(supply->value, vat->value)) {
    // No readable total, or a misread one: supply value + VAT stands in.
    rescue(supply->value + vat->value, vat->line);
  } else if (vat) {
    // The VAT line read, the supply label not: a number whose VAT it is.
    for (const Printed& p : printed) {
      if (VatMatchesSupply(p.value, vat->value) && p.value != vat->value) {
        rescue(p.value + vat->value, vat->line);
        break;
      }
    }
  }
  if (tendered && change && tendered->value > change->value) {
    rescue(tendered->value - change->value, change->line);
  }
  if (totals.empty()) return;
  std::vector<Candidate> cands;
  for (const AmountCandidate& c : totals) {
    cands.push_back({std::to_string(c.value), c.score, OcrEvidence(lines[c.line])});
  }
  size_t best = Pick("amount", cands, 5, chooser, lines);
  const AmountCandidate& c = totals[best];
  double strength = c.cross_checked                  ? 1.0
                    : c.role == AmountRole::kTotal   ? 0.85
                    : c.role == AmountRole::kPayment ? 0.6
                                                     : 0.35;
  for (size_t i = 0; i < totals.size(); ++i) {
    if (i != best && totals[i].value != c.value && totals[i].score > c.score - 5) strength -= 0.2;
  }
  r->amount.value = c.value;
  r->vat_consistent = supply && vat && supply->value + vat->value == c.value &&
                      VatMatchesSupply(supply->value, vat->value);
  r->amount.confidence = std::clamp(0.3 * lines[c.line].confidence + 0.7 * strength, 0.0, 1.0);
  // Under 1,000 won a total is rare and a lost-digits reading common.
  if (c.value < 1000) r->amount.confidence = std::min(r->amount.confidence, 0.45);
  r->amount.evidence = OcrEvidence(lines[c.line]);
}

void ReadApproval(const std::vector<OcrLine>& lines, ReceiptResult* r) {
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    if (!HasLabel(norm, "승인번호") && !HasLabel(norm, "승인No") && !HasLabel(norm, "승인"))
      continue;
    auto number = FindApprovalNumber(norm);
    size_t at = i;
    if (!number && i + 1 < lines.size())
      number = FindApprovalNumber(NormalizeOcrText(lines[++at].text));
    if (!number) continue;
    r->approval_number.value = *number;
    r->approval_number.confidence = std::clamp(0.2 + 0.75 * lines[at].confidence, 0.0, 1.0);
    r->approval_number.evidence = OcrEvidence(lines[at]);
    return;
  }
}

void ReadDate(const std::vector<OcrLine>& lines, ReceiptResult* r) {
  static const char* kLabels[] = {"거래일시", "승인일시", "이체일시",
                                  "거래일자", "결제일시", "일시"};
  std::optional<DateTime> fallback;
  size_t fallback_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    auto dt = FindDateTime(norm);
    if (!dt) continue;
    bool labelled = std::any_of(std::begin(kLabels), std::end(kLabels),
                                [&](const char* l) { return HasLabel(norm, l); });
    if (labelled || (!fallback && dt->has_time)) {
      if (labelled || !fallback) fallback = dt, fallback_line = i;
      if (labelled) break;
    } else if (!fallback) {
      fallback = dt, fallback_line = i;
    }
  }
  if (!fallback) return;
  if (!fallback->has_time) {
    // The time printed apart: later on the date's line ("거래일자 2026-11-30
    // 시간 14:05"), or on a line near it (거래시간, 승인시각).
    std::string norm = NormalizeOcrText(lines[fallback_line].text);
    std::optional<DateTime> time;
    size_t at = norm.find_first_of("0123456789");
    for (size_t skip = 0; at != std::string::npos && skip < 3; ++skip) {
      at = norm.find_first_not_of("0123456789", at);
      if (at != std::string::npos) at = norm.find_first_of("0123456789", at);
    }
    if (at != std::string::npos) time = FindTime(norm.substr(at > 0 ? at - 1 : 0));
    for (size_t d : {size_t{1}, size_t{2}, size_t{3}}) {
      for (size_t i : {fallback_line + d, fallback_line - d}) {
        if (time || i >= lines.size()) continue;
        std::string other = NormalizeOcrText(lines[i].text);
        if (FindDateTime(other)) continue;
        time = FindTime(other);
      }
    }
    if (time) {
      fallback->hour = time->hour, fallback->minute = time->minute;
      fallback->second = time->second, fallback->has_time = true;
    }
  }
  r->paid_at.value = ToIso(*fallback);
  double c = 0.3 + 0.6 * lines[fallback_line].confidence - (fallback->has_time ? 0 : 0.2);
  r->paid_at.confidence = std::clamp(c, 0.0, 1.0);
  r->paid_at.evidence = OcrEvidence(lines[fallback_line]);
}

void ReadIssuer(const std::vector<OcrLine>& lines, ReceiptResult* r) {
  static const char* kLabels[] = {"카드종류", "카드사", "카드명", "발급사", "매입사"};
  std::optional<std::string> first;
  size_t first_line = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    if (HasLabel(norm, "입금") || HasLabel(norm, "받는")) continue;  // the payee's bank
    auto issuer = FindIssuer(norm);
    const char* label = nullptr;
    for (const char* l : kLabels) {
      if (!label && HasLabel(norm, l)) label = l;
    }
    if (!issuer && label)
      issuer = IssuerFromBareName(TextAfterLabel(norm, label));  // "카드사: 신한"
    if (!issuer) continue;
    bool labelled = label != nullptr;
    if (labelled || !first) first = issuer, first_line = i;
    if (labelled) break;
  }
  if (!first) return;
  r->issuer.value = *first;
  r->issuer.confidence = std::clamp(0.3 + 0.6 * lines[first_line].confidence, 0.0, 1.0);
  r->issuer.evidence = OcrEvidence(lines[first_line]);
}

std::string CleanName(std::string s) {
  auto junk = [](char c) { return c == ' ' || c == '|' || c == '.' || c == '_'; };
  while (!s.empty() && junk(s.back())) s.pop_back();
  // A trailing word of digits and marks only ("남산 돈까스 00") is a speck
  // or the start of the next field, not part of a name.
  size_t space = s.rfind(' ');
  if (space != std::string::npos && space > 0 &&
      s.find_first_not_of("0123456789-,.:;*()[]'\"~", space + 1) == std::string::npos) {
    s.erase(space);
    while (!s.empty() && junk(s.back())) s.pop_back();
  }
  size_t lead = 0;
  while (lead < s.size() && (junk(s[lead]) || s[lead] == ':' || s[lead] == '"')) ++lead;
  return s.substr(lead);
}

bool IsHangul(char32_t c) { return c >= 0xAC00 && c <= 0xD7A3; }

// The name after a transfer's recipient label read with one slip at the
// start of the line ("받는 부 정하늘"; the exact labels are matched first).
// Names hold no digits, which keeps out 받는계좌 and amounts.
std::optional<std::string> RecipientAfterSlippedLabel(const std::string& norm) {
  static const std::u32string kLabel = U"받는분";
  std::u32string text = ToU32(norm);
  size_t at = 0, matched = 0;
  int slips = 0;
  for (; at < text.size() && matched < kLabel.size(); ++at) {
    if (text[at] == U' ') continue;
    slips += text[at] != kLabel[matched++];
  }
  if (matched < kLabel.size() || slips > 1) return std::nullopt;
  std::u32string rest = text.substr(at);
  bool hangul = false;
  for (char32_t c : rest) {
    if (c >= U'0' && c <= U'9') return std::nullopt;
    hangul = hangul || IsHangul(c);
  }
  if (!hangul) return std::nullopt;
  std::string name = CleanName(ToUtf8(rest));
  if (name.empty()) return std::nullopt;
  return name;
}

// More digits than Hangul: an account, phone or business number line.
bool MostlyDigits(const std::string& norm) {
  int digits = 0, hangul = 0;
  for (char32_t c : ToU32(norm)) {
    digits += c >= U'0' && c <= U'9';
    hangul += IsHangul(c);
  }
  return digits >= hangul;
}

// The name up to the next field printed on the same line ("상호: 명동칼국수
// 대표자: 김민수", "가맹점명 OO점 TEL 02-..."), without trailing digits.
std::string CutAtNextField(const std::string& name) {
  static const char* kFields[] = {"대표자", "대표", "사업자", "TEL", "전화", "주소", "가맹점번호"};
  std::u32string text = ToU32(name);
  size_t cut = text.size();
  for (const char* f : kFields) {
    std::u32string k = ToU32(f);
    size_t at = text.find(k);
    if (at != std::u32string::npos && at > 0) cut = std::min(cut, at);
  }
  // A colon further on starts another field.
  size_t colon = text.find(U':');
  if (colon != std::u32string::npos && colon > 1) cut = std::min(cut, colon);
  return CleanName(ToUtf8(text.substr(0, cut)));
}

// A line that is a name and nothing else: Hangul, no amount, no date, no
// label of another field.
bool NameOnly(const std::string& norm) {
  static const char* kFieldWords[] = {"은행", "계좌", "번호", "일시", "금액", "카드"};
  for (const char* word : kFieldWords) {
    if (HasLabel(norm, word)) return false;
  }
  return HasHangul(norm) && !MostlyDigits(norm) && FindMoney(norm).empty() && !FindDateTime(norm) &&
         !FindIssuer(norm) && ClassifyAmountLabel(norm).role == AmountRole::kNone &&
         norm.find(':') == std::string::npos;
}

// A street address: labelled, a region and its district ("서울 성동구 ...",
// "경기도 성남시 ..."; not 서울우유), or a road or street with its number
// ("뚝섬로 379", "역삼로12길 5").
bool LooksLikeAddress(const std::string& norm) {
  static const char* kRegions[] = {"서울", "부산", "대구", "인천", "광주", "대전",
                                   "울산", "세종", "경기", "강원", "충북", "충남",
                                   "전북", "전남", "경북", "경남", "제주"};
  static const std::regex kDistrict(R"(^\S+ \S+(구|시|군)( |$))");
  static const std::regex kRoad(R"((로|길) ?\d+(-\d+)?(,| |$))");  // not 종로2가점
  std::u32string text = ToU32(norm);
  if (text.compare(0, 2, U"주소") == 0 || std::regex_search(norm, kRoad)) return true;
  for (const char* region : kRegions) {
    std::u32string k = ToU32(region);
    if (text.compare(0, k.size(), k) == 0 && std::regex_search(norm, kDistrict)) return true;
  }
  return false;
}

void ReadMerchant(const std::vector<OcrLine>& lines, ReceiptResult* r) {
  static const char* kLabels[] = {"가맹점명", "상호명", "상호",   "매장명",   "가맹점",
                                  "점포명",   "업체명", "받는분", "받는사람", "예금주",
                                  "받는 분",  "수취인", "받는이"};
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    if (HasLabel(norm, "번호") || HasLabel(norm, "주소") || HasLabel(norm, "전화")) continue;
    if (HasLabel(norm, "정보") || HasLabel(norm, "안내")) continue;  // "가맹점 정보": a heading
    for (const char* label : kLabels) {
      // Short labels must match exactly: 상호명 is one slip from 상품명.
      bool exact_only = ToU32(label).size() <= 3;
      if (exact_only ? LabelDistance(norm, label) != 0 : !HasLabel(norm, label)) continue;
      std::string name = CutAtNextField(TextAfterLabel(norm, label));
      const OcrLine* at = &lines[i];
      if (name.empty() && i + 1 < lines.size()) {
        // The label alone on its line: the name on the next one.
        std::string next = NormalizeOcrText(lines[i + 1].text);
        if (NameOnly(next)) name = CutAtNextField(next), at = &lines[i + 1];
      }
      if (name.empty()) continue;
      r->merchant.value = name;
      r->merchant.confidence = std::clamp(0.2 + 0.7 * at->confidence, 0.0, 1.0);
      r->merchant.evidence = OcrEvidence(*at);
      return;
    }
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    auto name = RecipientAfterSlippedLabel(NormalizeOcrText(lines[i].text));
    if (!name) continue;
    r->merchant.value = *name;
    r->merchant.confidence = std::clamp(0.1 + 0.6 * lines[i].confidence, 0.0, 1.0);
    r->merchant.evidence = OcrEvidence(lines[i]);
    return;
  }
  // POS receipts print the store name as the tallest of the first lines.
  // A transfer's heading is the sending bank, never the recipient.
  for (const OcrLine& line : lines) {
    std::string norm = NormalizeOcrText(line.text);
    if (HasLabel(norm, "이체") || HasLabel(norm, "송금") || HasLabel(norm, "입금계좌")) return;
  }
  static const char* kHeadings[] = {"영수증", "매출전표", "이체", "확인증", "카드", "사업자",
                                    "대표",   "TEL",      "전화", "계좌",   "송금", "전표",
                                    "승인",   "고객용",   "품명", "수량",   "단가", "은행"};
  const OcrLine* best = nullptr;
  for (size_t i = 0; i < lines.size() && i < 4; ++i) {
    std::string norm = NormalizeOcrText(lines[i].text);
    if (!HasHangul(norm) || FindIssuer(norm) || FindDateTime(norm) || MostlyDigits(norm)) continue;
    // No address, and no amount line ("포인트 사용 -5,000").
    std::vector<MoneyToken> money = FindMoney(norm);  // "이마트24": a name's digits
    bool amount = std::any_of(money.begin(), money.end(), [](const MoneyToken& t) {
      return t.grouped || t.won_marked || t.negative || t.value >= 1000;
    });
    if (LooksLikeAddress(norm) || amount) continue;
    int syllables = 0;
    for (char32_t c : ToU32(norm)) syllables += IsHangul(c);
    if (syllables < 2) continue;  // a speck read as one letter
    auto has = [&](const char* label) { return HasLabel(norm, label); };
    // Headings, and a name label whose name the OCR lost.
    if (std::any_of(std::begin(kHeadings), std::end(kHeadings), has) ||
        std::any_of(std::begin(kLabels), std::end(kLabels), has)) {
      continue;
    }
    if (best == nullptr || lines[i].box.h > best->box.h * 1.15) best = &lines[i];
  }
  if (best == nullptr) return;
  r->merchant.value = CleanName(NormalizeOcrText(best->text));
  r->merchant.confidence = std::clamp(0.1 + 0.5 * best->confidence, 0.0, 1.0);
  r->merchant.evidence = OcrEvidence(*best);
}

}  // namespace

bool VatMatchesSupply(int64_t supply, int64_t vat) {
  if (supply <= 0 || vat < 0) return false;
  double expected = supply / 10.0;
  return std::abs(static_cast<double>(vat) - expected) <= std::max(1.0, expected * 0.02);
}

ReceiptResult ReadReceiptFields(const std::vector<OcrLine>& lines, CandidateChooser* chooser) {
  ReceiptResult r;
  ReadAmount(lines, chooser, &r);
  ReadApproval(lines, &r);
  ReadDate(lines, &r);
  ReadIssuer(lines, &r);
  ReadMerchant(lines, &r);
  return r;
}

}  // namespace nunchi::extract
