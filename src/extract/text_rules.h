// Text rules shared by the receipt and taxi readers: OCR text normalisation,
// money, approval numbers, dates and times, card companies and banks, and
// fuzzy label matching that tolerates one OCR error. Pure functions;
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nunchi::extract {

// Full-width digits and punctuation to ASCII, every won sign (₩, ￦, a
// backslash) to "₩", runs of spaces to one.
std::string NormalizeOcrText(std::string_view text);

struct MoneyToken {
  int64_t value = 0;
  bool won_marked = false;    // a won sign before or 원 after
  bool grouped = false;       // thousands separators, e.g. 12,300
  bool negative = false;      // printed with a leading minus (discounts)
  size_t begin = 0, end = 0;  // byte range in the normalized text
};
// Amounts in normalized text. Skips numbers joined by '-', '/', ':' or '*'
// (phone, card and business numbers, dates, times) and decimals (12.4km).
// A period between groups of three is read as a comma (a common OCR slip).
std::vector<MoneyToken> FindMoney(std::string_view normalized);

// A standalone run of exactly 8 digits (the approval number format).
std::optional<std::string> FindApprovalNumber(std::string_view normalized);

struct DateTime {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  bool has_time = false;
};
// Dates like 2026-11-29, 2026.11.29, 2026/11/29, 26/11/29, 2026년 11월 29일,
// optionally followed by a weekday and 18:40, 18:40:12, 오후 6:40 or 18시 40분.
std::optional<DateTime> FindDateTime(std::string_view normalized);
// A time of day alone ("14:05:22", "오후 2:05", "14시 05분"), for receipts
// that print the date and the time on separate lines. has_time is set.
std::optional<DateTime> FindTime(std::string_view normalized);
// "YYYY-MM-DDTHH:MM:SS" (seconds and time default to 0).
std::string ToIso(const DateTime& dt);

// The canonical card company ("KB국민카드") or bank ("신한은행") named in
// the text, if any. Card names need 카드 (or BC/NH) in the text, banks need
// 은행 or 뱅크, so place names like 삼성동 do not match.
std::optional<std::string> FindIssuer(std::string_view normalized);
// The card company a label's value starts with by its bare name ("신한",
// "KB국민", "BC", "NH농협"): only for the value after an issuer label
// (카드사, 발급사, 매입사, 카드종류), where 현대 is no apartment block.
std::optional<std::string> IssuerFromBareName(std::string_view value);

// Edit distance between the label and its best-matching substring of the
// text, ignoring spaces (Sellers' algorithm on code points).
int LabelDistance(std::string_view text, std::string_view label);
// True when the text holds the label with at most one error (none for
// labels of three characters or fewer).
bool HasLabel(std::string_view text, std::string_view label);

// What an amount on a line labelled so means on a receipt.
enum class AmountRole {
  kNone,      // no known label
  kTotal,     // 결제금액, 승인금액, 받을금액, 이체금액, 합계, 총액 ...
  kSubtotal,  // 총구매액, 소계: before discounts
  kPayment,   // 신용카드, 현금: the tender line, equal to the total
  kSupply,    // 공급가액, 과세물품가액
  kVat,       // 부가세
  kDiscount,  // 할인
  kTendered,  // 받은금액: cash handed over
  kChange,    // 거스름돈
  kOther,     // 수수료, 잔액, 봉사료, 단가 ...: never the total
};
struct LabelMatch {
  AmountRole role = AmountRole::kNone;
  int priority = 0;  // among totals: higher wins
  int distance = 0;
  std::string label;
};
LabelMatch ClassifyAmountLabel(std::string_view normalized);

// The text without its leading label and separators, e.g. "상호: 명동칼국수"
// with label "상호" gives "명동칼국수". Empty if the label is absent.
std::string TextAfterLabel(std::string_view normalized, std::string_view label);

// UTF-8 helpers.
std::u32string ToU32(std::string_view utf8);
std::string ToUtf8(std::u32string_view text);
bool HasHangul(std::string_view utf8);

}  // namespace nunchi::extract
