// Fuzzy label matching, amount label roles and card company / bank names.
#include <algorithm>
#include <climits>

#include "text_rules.h"

namespace nunchi::extract {
namespace {

struct Stripped {
  std::u32string text;
  std::vector<size_t> origin;  // index in the unstripped u32 text
};

Stripped StripSpaces(const std::u32string& s) {
  Stripped out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == U' ') continue;
    out.text += s[i];
    out.origin.push_back(i);
  }
  return out;
}

// Sellers' approximate substring match: best distance and where it ends.
int BestMatch(const std::u32string& text, const std::u32string& label, size_t* end) {
  size_t n = text.size(), m = label.size();
  if (m == 0) return 0;
  std::vector<int> prev(n + 1, 0), cur(n + 1, 0);
  for (size_t i = 1; i <= m; ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= n; ++j) {
      int sub = prev[j - 1] + (label[i - 1] == text[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  int best = INT_MAX;
  for (size_t j = 0; j <= n; ++j) {
    if (prev[j] < best) best = prev[j], *end = j;
  }
  return best;
}

// Short labels must match exactly: 총금액 is one slip from 량금액 (수량 금액).
int Allowed(size_t label_len) { return label_len <= 3 ? 0 : 1; }

struct RoleLabel {
  const char* label;
  AmountRole role;
  int priority;
};

const RoleLabel kAmountLabels[] = {
    {"결제금액", AmountRole::kTotal, 100},
    {"승인금액", AmountRole::kTotal, 100},
    {"받을금액", AmountRole::kTotal, 100},
    {"이체금액", AmountRole::kTotal, 100},
    {"보낸금액", AmountRole::kTotal, 100},
    {"총결제금액", AmountRole::kTotal, 100},
    {"거래금액", AmountRole::kTotal, 98},
    {"송금액", AmountRole::kTotal, 98},
    {"송금금액", AmountRole::kTotal, 98},
    {"결제액", AmountRole::kTotal, 96},
    {"판매금액", AmountRole::kTotal, 90},
    {"합계액", AmountRole::kTotal, 90},
    {"청구금액", AmountRole::kTotal, 95},
    {"결제요금", AmountRole::kTotal, 95},
    {"총액", AmountRole::kTotal, 92},
    {"총금액", AmountRole::kTotal, 92},
    {"합계금액", AmountRole::kTotal, 90},
    {"합계", AmountRole::kTotal, 88},
    {"내실금액", AmountRole::kTotal, 100},
    {"결제할금액", AmountRole::kTotal, 100},
    {"TOTAL", AmountRole::kTotal, 88},
    {"SUBTOTAL", AmountRole::kSubtotal, 60},
    {"CASH", AmountRole::kPayment, 65},
    {"CHANGE", AmountRole::kChange, 0},
    {"금액", AmountRole::kTotal, 75},  // alone ("금 액"); longer labels win
    {"총구매액", AmountRole::kSubtotal, 60},
    {"상품합계", AmountRole::kSubtotal, 60},
    {"소계", AmountRole::kSubtotal, 60},
    {"주문금액", AmountRole::kSubtotal, 60},
    {"신용카드", AmountRole::kPayment, 70},
    {"카드결제", AmountRole::kPayment, 70},
    {"현금", AmountRole::kPayment, 65},
    {"공급가액", AmountRole::kSupply, 0},
    {"과세물품가액", AmountRole::kSupply, 0},
    {"과세금액", AmountRole::kSupply, 0},
    {"물품가액", AmountRole::kSupply, 0},
    {"과세물품", AmountRole::kSupply, 0},
    {"공급금액", AmountRole::kSupply, 0},
    {"면세물품가액", AmountRole::kOther, 0},
    {"면세물품", AmountRole::kOther, 0},
    {"면세액", AmountRole::kOther, 0},
    {"부가세", AmountRole::kVat, 0},
    {"부가가치세", AmountRole::kVat, 0},
    {"VAT", AmountRole::kVat, 0},
    {"세액", AmountRole::kVat, 0},
    {"할인", AmountRole::kDiscount, 0},
    {"할인금액", AmountRole::kDiscount, 0},
    {"에누리", AmountRole::kDiscount, 0},
    {"받은금액", AmountRole::kTendered, 0},
    {"받은돈", AmountRole::kTendered, 0},
    {"거스름돈", AmountRole::kChange, 0},
    {"잔돈", AmountRole::kChange, 0},
    {"수수료", AmountRole::kOther, 0},
    {"잔액", AmountRole::kOther, 0},
    {"출금후잔액", AmountRole::kOther, 0},
    {"봉사료", AmountRole::kOther, 0},
    {"단가", AmountRole::kOther, 0},
    {"포인트", AmountRole::kOther, 0},
    {"합계수량", AmountRole::kOther, 0},
    {"기본요금", AmountRole::kOther, 0},
    // Second totals that are not the amount paid.
    {"면세", AmountRole::kOther, 0},
    {"면세금액", AmountRole::kOther, 0},
    {"적립", AmountRole::kOther, 0},
    {"적립포인트", AmountRole::kOther, 0},
    {"가용포인트", AmountRole::kOther, 0},
    {"누적포인트", AmountRole::kOther, 0},
};

struct Issuer {
  const char* canonical;
  std::vector<const char*> keys;
};

const std::vector<Issuer> kBanks = {{"국민은행", {"국민은행", "KB국민은행"}},
                                    {"신한은행", {"신한은행"}},
                                    {"우리은행", {"우리은행"}},
                                    {"하나은행", {"하나은행", "KEB하나은행"}},
                                    {"농협은행", {"농협은행", "NH농협은행"}},
                                    {"기업은행", {"기업은행", "IBK기업은행"}},
                                    {"카카오뱅크", {"카카오뱅크"}},
                                    {"토스뱅크", {"토스뱅크"}},
                                    {"케이뱅크", {"케이뱅크"}}};
const std::vector<Issuer> kCards = {{"KB국민카드", {"KB국민카드", "국민카드", "KB카드"}},
                                    {"신한카드", {"신한카드"}},
                                    {"삼성카드", {"삼성카드"}},
                                    {"현대카드", {"현대카드"}},
                                    {"롯데카드", {"롯데카드"}},
                                    {"하나카드", {"하나카드"}},
                                    {"우리카드", {"우리카드"}},
                                    {"BC카드", {"BC카드", "비씨카드"}},
                                    {"NH농협카드", {"NH농협카드", "농협카드", "NH카드"}}};

std::optional<std::string> BestIssuer(const std::u32string& text, const std::vector<Issuer>& list) {
  int best = INT_MAX;
  const char* found = nullptr;
  for (const Issuer& issuer : list) {
    for (const char* key : issuer.keys) {
      std::u32string k = ToU32(key);
      size_t end = 0;
      int d = BestMatch(text, k, &end);
      if (d <= Allowed(k.size()) && d < best) best = d, found = issuer.canonical;
    }
  }
  if (found == nullptr) return std::nullopt;
  return std::string(found);
}

// "BC카드" with both Latin letters misread, as a label's value ("카드사:
// 0(카드", "발급사 8(카드", "카드종류 6(카드": B as a digit, C as a bracket):
// two slips, more than the fuzzy match allows. `text` is stripped of spaces.
bool SlippedBcCard(const std::u32string& text) {
  static const std::u32string kB = U"B8063RE", kC = U"C([{<GO0";
  static const std::u32string kLabelEnds[] = {U"카드사", U"발급사", U"매입사", U"카드명"};
  for (size_t p = text.find(U"카드"); p != std::u32string::npos; p = text.find(U"카드", p + 1)) {
    if (p < 2 || kB.find(text[p - 2]) == std::u32string::npos ||
        kC.find(text[p - 1]) == std::u32string::npos) {
      continue;
    }
    size_t at = p - 2;
    if (at == 0 || text[at - 1] == U':') return true;
    for (const std::u32string& label : kLabelEnds) {
      if (at >= label.size() && text.compare(at - label.size(), label.size(), label) == 0)
        return true;
    }
  }
  return false;
}

// Card companies by their bare names, longest first ("KB국민" before "국민").
const std::pair<const char32_t*, const char*> kBareIssuers[] = {
    {U"NH농협", "NH농협카드"}, {U"KB국민", "KB국민카드"}, {U"신한", "신한카드"},
    {U"국민", "KB국민카드"},   {U"삼성", "삼성카드"},     {U"현대", "현대카드"},
    {U"롯데", "롯데카드"},     {U"하나", "하나카드"},     {U"우리", "우리카드"},
    {U"비씨", "BC카드"},       {U"농협", "NH농협카드"},   {U"BC", "BC카드"},
    {U"KB", "KB국민카드"},     {U"NH", "NH농협카드"}};

// True when a bare company name ends right before `at` in `text`.
bool BareIssuerEndingAt(const std::u32string& text, size_t at) {
  for (const auto& [name, canonical] : kBareIssuers) {
    std::u32string n(name);
    if (at >= n.size() && text.compare(at - n.size(), n.size(), n) == 0) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> IssuerFromBareName(std::string_view value) {
  std::u32string text;
  for (char32_t c : ToU32(value)) {
    if (c == U' ' || c == U':' || c == U'(' || c == U'[') continue;
    text += c >= U'a' && c <= U'z' ? c - U'a' + U'A' : c;
  }
  for (const auto& [name, canonical] : kBareIssuers) {
    std::u32string n(name);
    if (text.compare(0, n.size(), n) == 0) return std::string(canonical);
  }
  return std::nullopt;
}

int LabelDistance(std::string_view text, std::string_view label) {
  size_t end = 0;
  return BestMatch(StripSpaces(ToU32(text)).text, StripSpaces(ToU32(label)).text, &end);
}

bool HasLabel(std::string_view text, std::string_view label) {
  std::u32string l = StripSpaces(ToU32(label)).text;
  return LabelDistance(text, label) <= Allowed(l.size());
}

LabelMatch ClassifyAmountLabel(std::string_view normalized) {
  std::u32string text = StripSpaces(ToU32(normalized)).text;
  LabelMatch best;
  best.distance = INT_MAX;
  size_t best_len = 0;
  for (const RoleLabel& rl : kAmountLabels) {
    std::u32string label = ToU32(rl.label);
    size_t end = 0;
    int d = BestMatch(text, label, &end);
    if (d > Allowed(label.size())) continue;
    if (d < best.distance || (d == best.distance && label.size() > best_len)) {
      best = LabelMatch{rl.role, rl.priority, d, rl.label};
      best_len = label.size();
    }
  }
  if (best.role == AmountRole::kNone) best.distance = 0;
  return best;
}

std::string TextAfterLabel(std::string_view normalized, std::string_view label) {
  std::u32string full = ToU32(normalized);
  Stripped s = StripSpaces(full);
  std::u32string l = StripSpaces(ToU32(label)).text;
  size_t end = 0;
  int d = BestMatch(s.text, l, &end);
  if (d > Allowed(l.size()) || end == 0) return "";
  size_t pos = s.origin[end - 1] + 1;
  while (pos < full.size() &&
         (full[pos] == U' ' || full[pos] == U':' || full[pos] == U'.' || full[pos] == U')' ||
          full[pos] == U']' || full[pos] == U'|' || full[pos] == U';' || full[pos] == U'-')) {
    ++pos;
  }
  return ToUtf8(full.substr(pos));
}

std::optional<std::string> FindIssuer(std::string_view normalized) {
  std::u32string text = StripSpaces(ToU32(normalized)).text;
  for (char32_t& c : text) {
    if (c >= U'a' && c <= U'z') c = c - U'a' + U'A';
  }
  // Card kinds that are one OCR slip away from an issuer (신용카드 ~ 신한카드).
  // After a company's name they are its card ("신한체크카드", "하나 신용카드").
  for (const char* generic : {"신용카드", "체크카드", "카드번호", "카드종류"}) {
    std::u32string g = ToU32(generic);
    for (size_t at; (at = text.find(g)) != std::u32string::npos;) {
      bool named = g[1] != U'드' && BareIssuerEndingAt(text, at);
      text.erase(at, named ? 2 : g.size());  // 신용카드 -> 카드 after a name
    }
  }
  // "신X카드" with X not 한 is one slip from 신용카드 as much as from
  // 신한카드 (신홍카드 on a tender line, "신 폼카드 매출전표"): no issuer.
  for (size_t at = text.find(U"카드"); at != std::u32string::npos;
       at = text.find(U"카드", at + 1)) {
    if (at >= 2 && text[at - 2] == U'신' && text[at - 1] != U'한') {
      text.erase(at - 2, 4);
      at -= 2;
    }
  }
  // A bank needs 행 (은행, also 우리온행) or 뱅 (뱅크) printed: 케이크 (cake) is one
  // slip from 케이뱅크.
  bool bank_word =
      text.find(U'행') != std::u32string::npos || text.find(U'뱅') != std::u32string::npos;
  if (auto bank = bank_word ? BestIssuer(text, kBanks) : std::nullopt) return bank;
  if (auto card = BestIssuer(text, kCards)) return card;
  if (SlippedBcCard(text)) return std::string("BC카드");
  return std::nullopt;
}

}  // namespace nunchi::extract
