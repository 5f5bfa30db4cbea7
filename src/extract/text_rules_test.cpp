#include "extract/text_rules.h"

#include <gtest/gtest.h>

#include "extract/receipt_rules.h"
#include "extract/taxi_rules.h"

namespace nunchi::extract {
namespace {

int64_t OnlyMoney(const std::string& text) {
  auto money = FindMoney(NormalizeOcrText(text));
  return money.size() == 1 ? money[0].value : -1;
}

TEST(TextRules, WonSymbolsAllMeanWon) {
  for (const char* text : {"12,300원", "₩12,300", "￦12,300", "\\12,300", "12,300 원", "W12,300"}) {
    auto money = FindMoney(NormalizeOcrText(text));
    ASSERT_EQ(money.size(), 1u) << text;
    EXPECT_EQ(money[0].value, 12300) << text;
    EXPECT_TRUE(money[0].won_marked) << text;
  }
  EXPECT_FALSE(FindMoney("12,300")[0].won_marked);
}

TEST(TextRules, MoneySkipsIdentifiersDatesAndDecimals) {
  EXPECT_EQ(OnlyMoney("합계 45.900"), 45900);  // OCR read the comma as a period
  EXPECT_EQ(OnlyMoney("합계 45, 900원"), 45900);
  EXPECT_EQ(OnlyMoney("이체금액 \\2,806,.800"), 2806800);  // a stray mark
  EXPECT_TRUE(FindMoney("사업자번호 114-13-17031").empty());
  EXPECT_TRUE(FindMoney("전화 02-855-8699").empty());
  EXPECT_TRUE(FindMoney("2026.10.05 10:39:59").empty());
  EXPECT_TRUE(FindMoney("카드번호 5506-74**-****-1493").empty());
  EXPECT_TRUE(FindMoney("가맹점번호 0249380739").empty());
  EXPECT_TRUE(FindMoney("이동거리 22.4km").empty());
  EXPECT_EQ(OnlyMoney("거래금액 138,2001"), 138200);  // 원 read as a digit
  EXPECT_TRUE(FindMoney("카드결제 02020").empty());   // no amount starts with 0
  EXPECT_EQ(OnlyMoney("부가세 0"), 0);
  auto discount = FindMoney(NormalizeOcrText("할인 -1,000"));
  ASSERT_EQ(discount.size(), 1u);
  EXPECT_TRUE(discount[0].negative);
}

TEST(TextRules, ApprovalNumberIsExactlyEightDigits) {
  EXPECT_EQ(FindApprovalNumber("승인번호: 41749279").value_or(""), "41749279");
  EXPECT_FALSE(FindApprovalNumber("현금영수증 번호 123456789"));
  EXPECT_FALSE(FindApprovalNumber("승인번호 1234567"));
  EXPECT_EQ(FindApprovalNumber("승인 번호:26179678").value_or(""), "26179678");
  EXPECT_FALSE(FindApprovalNumber("전화 0212-34567890"));
}

TEST(TextRules, DatesAndTimesInCommonFormats) {
  struct Case {
    const char* text;
    const char* iso;
  } cases[] = {
      {"거래일시 2026/11/29 18:40:12", "2026-11-29T18:40:12"},
      {"2026-11-29 18:40", "2026-11-29T18:40:00"},
      {"2026.11.29 18:40:12", "2026-11-29T18:40:12"},
      {"26/11/29 08:05", "2026-11-29T08:05:00"},
      {"2026년 11월 29일 18:40", "2026-11-29T18:40:00"},
      {"2026.11.29 오후 6:40", "2026-11-29T18:40:00"},
      {"2026.11.29 오전 12:05", "2026-11-29T00:05:00"},
      {"2026-11-29(일) 18:40", "2026-11-29T18:40:00"},
      {"거래일시 24/06/2002:41", "2024-06-20T02:41:00"},  // OCR lost the space
      // OCR slips: a colon read as a digit or lost, 일 read as 월, separators lost.
      {"2024-02-17 23111 『05:03", "2024-02-17T23:11:00"},
      {"거래일시 26/07/1612001", "2026-07-16T12:01:00"},
      {"거래일자 26/04/280840", "2026-04-28T08:40:00"},
      {"거래일시 2025-03-0901:3514", "2025-03-09T01:35:14"},
      {"거래일시 2025년07월11월15:32142", "2025-07-11T15:32:42"},
      {"거래 일 2024 1103 18:39:29", "2024-11-03T18:39:29"},
      {"2024년05월02일04:13:01605:09", "2024-05-02T04:13:01"},  // a POS number runs on
      {"거래일자 2024.11.19 오후 1152", "2024-11-19T13:52:00"},
      {"2024.08.09오후2206 ㅁ205:05", "2024-08-09T14:06:00"},
  };
  for (const Case& c : cases) {
    auto dt = FindDateTime(NormalizeOcrText(c.text));
    ASSERT_TRUE(dt) << c.text;
    EXPECT_EQ(ToIso(*dt), c.iso) << c.text;
  }
  EXPECT_FALSE(FindDateTime("2026-13-45"));
  EXPECT_FALSE(FindDateTime("2026 1345 18:40"));             // no such month
  EXPECT_FALSE(FindDateTime("가맹점번호 2024 1103"));        // compact dates need a time
  EXPECT_FALSE(FindDateTime("2026-11-29 23911")->has_time);  // not a colon slip
  EXPECT_FALSE(FindDateTime("2026-11-29 2840")->has_time);   // no such hour
}

TEST(TextRules, IssuersNeedCardOrBankContext) {
  EXPECT_EQ(FindIssuer("카드사: KB국민카드").value_or(""), "KB국민카드");
  EXPECT_EQ(FindIssuer("신한은행").value_or(""), "신한은행");
  EXPECT_EQ(FindIssuer("카드종류 롯데카드").value_or(""), "롯데카드");
  EXPECT_EQ(FindIssuer("비씨카드").value_or(""), "BC카드");
  EXPECT_FALSE(FindIssuer("서울 강남구 삼성동 123"));
  EXPECT_FALSE(FindIssuer("신용카드 13,000"));  // not 신한카드
  EXPECT_FALSE(FindIssuer("케이크 28,000"));    // not 케이뱅크
  EXPECT_EQ(FindIssuer("KB국민은행").value_or(""), "국민은행");
}

// BC read with both letters slipped (B as 8, 0 or 6, C as a bracket) is
// still BC카드 where it is a label's value; elsewhere it is no issuer.
TEST(TextRules, BcCardWithBothLettersMisread) {
  EXPECT_EQ(FindIssuer("카드사 : 0(카드").value_or(""), "BC카드");
  EXPECT_EQ(FindIssuer("발 급사 8(카드").value_or(""), "BC카드");
  EXPECT_EQ(FindIssuer("카드종류 6(카드").value_or(""), "BC카드");
  EXPECT_FALSE(FindIssuer("결제 10(카드"));  // a count, not a label's value
  EXPECT_FALSE(FindIssuer("제휴8(카드 할인"));
}

// 신용카드 with one slip is as near to 신한카드: no issuer.
TEST(TextRules, ASlippedCreditCardWordIsNoShinhanCard) {
  EXPECT_FALSE(FindIssuer("신홍카드 8\\ 19.000"));
  EXPECT_FALSE(FindIssuer("신 폼카드 매충전표"));
  EXPECT_EQ(FindIssuer("카드사 신한카드").value_or(""), "신한카드");
  EXPECT_EQ(FindIssuer("신홍카드 19,000 삼성카드").value_or(""), "삼성카드");
}

TEST(TextRules, LabelsTolerateOneOcrSlip) {
  EXPECT_TRUE(HasLabel("승 인 번 호 12345678", "승인번호"));
  EXPECT_TRUE(HasLabel("승인빈호 12345678", "승인번호"));
  EXPECT_FALSE(HasLabel("할부", "합계"));
  EXPECT_EQ(TextAfterLabel("상호: 명동칼국수", "상호"), "명동칼국수");
}

TEST(TextRules, AmountLabelRoles) {
  EXPECT_EQ(ClassifyAmountLabel("결제금액").role, AmountRole::kTotal);
  EXPECT_EQ(ClassifyAmountLabel("받을금액").role, AmountRole::kTotal);
  EXPECT_EQ(ClassifyAmountLabel("받은금액").role, AmountRole::kTendered);
  EXPECT_EQ(ClassifyAmountLabel("공급가액").role, AmountRole::kSupply);
  EXPECT_EQ(ClassifyAmountLabel("부가세").role, AmountRole::kVat);
  EXPECT_EQ(ClassifyAmountLabel("거스름돈").role, AmountRole::kChange);
  EXPECT_EQ(ClassifyAmountLabel("할인").role, AmountRole::kDiscount);
  EXPECT_EQ(ClassifyAmountLabel("상품합계").role, AmountRole::kSubtotal);
  EXPECT_EQ(ClassifyAmountLabel("합계수량").role, AmountRole::kOther);
  EXPECT_GT(ClassifyAmountLabel("승인금액").priority, ClassifyAmountLabel("합계").priority);
}

OcrLine Line(const std::string& text, int y, int h = 20) {
  OcrLine l;
  l.text = text;
  l.box = Box{10, y, 300, h};
  l.confidence = 0.9f;
  return l;
}

TEST(ReceiptRules, TotalLabelsBeatSupplyVatDiscountAndChange) {
  std::vector<OcrLine> lines = {Line("총구매액 14,000", 0),  Line("할인 -1,000", 30),
                                Line("받을금액 13,000", 60), Line("공급가액 11,818", 90),
                                Line("부가세 1,182", 120),   Line("받은금액 50,000", 150),
                                Line("거스름돈 37,000", 180)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 13000);
  EXPECT_TRUE(r.vat_consistent);
  EXPECT_GT(r.amount.confidence, 0.8);
  EXPECT_EQ(r.amount.evidence.text, "받을금액 13,000");
}

TEST(ReceiptRules, VatCrossCheckRescuesAnUnreadableTotal) {
  std::vector<OcrLine> lines = {Line("공급가액 10,000원", 0), Line("부가세 1,000원", 30),
                                Line("합게금맥 ~~", 60)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 11000);
  EXPECT_TRUE(VatMatchesSupply(10000, 1000));
  EXPECT_TRUE(VatMatchesSupply(11818, 1182));
  EXPECT_FALSE(VatMatchesSupply(10000, 3000));
}

// A won sign read as a leading digit (₩16,500 -> 316,500) or a dropped digit
// (135,200 -> 15,200): supply value + VAT, one edit away, wins.
TEST(ReceiptRules, SupplyPlusVatBeatsATotalOneEditAway) {
  std::vector<OcrLine> sign = {Line("공급가액 15,000", 0), Line("부가세 1,500", 30),
                               Line("합계 316,500", 60)};
  EXPECT_EQ(ReadReceiptFields(sign, nullptr).amount.value.value_or(0), 16500);
  std::vector<OcrLine> dropped = {Line("공급가액 122,909", 0), Line("부가세 12,291", 30),
                                  Line("결제금액 15,200", 60)};
  EXPECT_EQ(ReadReceiptFields(dropped, nullptr).amount.value.value_or(0), 135200);
}

// A second total (면세, points, savings) is not the amount paid, even when
// it is the largest number on the receipt.
TEST(ReceiptRules, SecondTotalsAreNotThePaidAmount) {
  std::vector<OcrLine> lines = {Line("면세 25,000", 0), Line("적립포인트 31,200", 30),
                                Line("품목 8,000", 60), Line("합 계 16,500", 90)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 16500);
  EXPECT_EQ(ClassifyAmountLabel("면세").role, AmountRole::kOther);
  EXPECT_EQ(ClassifyAmountLabel("적립포인트").role, AmountRole::kOther);
}

TEST(ReceiptRules, FieldsFromACardSlip) {
  std::vector<OcrLine> lines = {
      Line("신용카드 매출전표", 0, 30),         Line("카드종류 신한카드", 40),
      Line("거래일시 2026/11/29 18:40:12", 70), Line("승인번호 30012345", 100),
      Line("합계금액 11,000원", 130),           Line("가맹점명 스타벅스 강남역점", 160),
      Line("가맹점번호 0012345678", 190)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 11000);
  EXPECT_EQ(r.issuer.value.value_or(""), "신한카드");
  EXPECT_EQ(r.paid_at.value.value_or(""), "2026-11-29T18:40:12");
  EXPECT_EQ(r.approval_number.value.value_or(""), "30012345");
  EXPECT_EQ(r.merchant.value.value_or(""), "스타벅스 강남역점");
}

TEST(ReceiptRules, TransferSlipIssuerIsTheSendingBank) {
  std::vector<OcrLine> lines = {Line("하나은행", 0, 30),
                                Line("이체일시 2025.05.23 12:53", 40),
                                Line("받는분 정하늘", 70),
                                Line("입금은행 기업은행", 100),
                                Line("이체금액 ₩2,206,000", 130),
                                Line("수수료 ₩0", 160),
                                Line("출금후 잔액 ₩2,713,100", 190)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 2206000);
  EXPECT_EQ(r.issuer.value.value_or(""), "하나은행");
  EXPECT_EQ(r.merchant.value.value_or(""), "정하늘");
  EXPECT_FALSE(r.approval_number.value);
}

TEST(ReceiptRules, TransferRecipientSurvivesOneSlipInItsLabel) {
  std::vector<OcrLine> lines = {Line("기업은행", 0, 30),
                                Line("이체확인증", 40),
                                Line("출금계좌 640-**-839506", 70),
                                Line("받는 부 ( 주) 한빛 상사", 100),
                                Line("받는계좌 신한 110-22-3", 130),
                                Line("이체금액 \\2,149,000", 160)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.merchant.value.value_or(""), "( 주) 한빛 상사");
  // Without a recipient line, an account number is no name.
  lines.erase(lines.begin() + 3);
  r = ReadReceiptFields(lines, nullptr);
  EXPECT_FALSE(r.merchant.value) << *r.merchant.value;
}

TEST(TextRules, HourAndMinuteWordsAndATimeAlone) {
  auto dt = FindDateTime(NormalizeOcrText("2026년 11월 30일 14시 05분"));
  ASSERT_TRUE(dt);
  EXPECT_EQ(ToIso(*dt), "2026-11-30T14:05:00");
  dt = FindDateTime(NormalizeOcrText("승인일시 2027년2될21일10:55:38"));  // 월 read as 될
  ASSERT_TRUE(dt);
  EXPECT_EQ(ToIso(*dt), "2027-02-21T10:55:38");
  auto t = FindTime("거래시간 14:05:22");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->hour * 10000 + t->minute * 100 + t->second, 140522);
  EXPECT_EQ(FindTime("오후 2:05").value_or(DateTime{}).hour, 14);
  EXPECT_FALSE(FindTime("승인번호 12345678"));
  EXPECT_FALSE(FindTime("전화 02-123-4567"));
  EXPECT_FALSE(FindTime("시간 25:10"));
}

// OCR slips in dates and times: a doubled separator, a dash for the colon
// after 오전/오후, the seconds' colon read as a digit, a compact date right
// after its label with the time on the next line.
TEST(TextRules, DatesAndTimesWithSlippedSeparators) {
  auto iso = [](const std::string& text) {
    auto dt = FindDateTime(NormalizeOcrText(text));
    return dt ? ToIso(*dt) : std::string("none");
  };
  EXPECT_EQ(iso("판 매 일 시 : 25./09,/13 16:29:16"), "2025-09-13T16:29:16");
  EXPECT_EQ(iso("거래일시 2026.11.23(월)오전 4-43"), "2026-11-23T04:43:00");
  EXPECT_EQ(iso("결제일자 20250322"), "2025-03-22T00:00:00");
  EXPECT_EQ(iso("2026. 11. 30. 14:05"), "2026-11-30T14:05:00");  // the day's own dot
  EXPECT_EQ(iso("2026-11-30T14:05:09"), "2026-11-30T14:05:09");
  EXPECT_EQ(iso("주문번호 20250322"), "none");  // a compact date needs its label or a time
  auto t = FindTime("열 혁시간 ; 09:18125");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->hour * 10000 + t->minute * 100 + t->second, 91825);
  std::vector<OcrLine> lines = {Line("결제일자 20250322", 0), Line("결재시간 01:44707", 30),
                                Line("승인금액 12,000원", 60)};
  EXPECT_EQ(ReadReceiptFields(lines, nullptr).paid_at.value.value_or(""), "2025-03-22T01:44:07");
}

// Card companies by their bare names after an issuer label, and check or
// credit cards after a company's name.
TEST(ReceiptRules, IssuerByBareNameAfterItsLabelAndCheckCards) {
  auto issuer = [](const std::string& text) {
    return ReadReceiptFields({Line(text, 0), Line("승인금액 12,000원", 30)}, nullptr)
        .issuer.value.value_or("none");
  };
  EXPECT_EQ(issuer("카드사 : 삼성"), "삼성카드");
  EXPECT_EQ(issuer("발급사: 현대"), "현대카드");
  EXPECT_EQ(issuer("매입사 : KB국민"), "KB국민카드");
  EXPECT_EQ(issuer("카드종류 NH농협"), "NH농협카드");
  EXPECT_EQ(issuer("카드사 BC"), "BC카드");
  EXPECT_EQ(issuer("주소 서울 현대아파트 101동"), "none");  // no label: no bare name
  EXPECT_EQ(FindIssuer("신한체크카드").value_or(""), "신한카드");
  EXPECT_EQ(FindIssuer("하나 신용카드").value_or(""), "하나카드");
  EXPECT_FALSE(FindIssuer("현금 신용카드"));  // not 현대카드
  EXPECT_FALSE(FindIssuer("체크카드 13,000"));
}

// A POS receipt's name is its first line, but never an address or an
// amount line; a name that starts like a region is still a name.
TEST(ReceiptRules, MerchantHeadingIsNoAddressNorAmountLine) {
  auto merchant = [](std::vector<OcrLine> lines) {
    lines.push_back(Line("합계 12,000", 200));
    return ReadReceiptFields(lines, nullptr).merchant.value.value_or("none");
  };
  EXPECT_EQ(merchant({Line("서울 성동구 뚝섬로 379", 0), Line("이마트 성수점", 30)}),
            "이마트 성수점");
  EXPECT_EQ(merchant({Line("역삼로12길 5", 0), Line("김밥천국", 30)}), "김밥천국");
  EXPECT_EQ(merchant({Line("포인트 사용 -5,000", 0)}), "none");
  EXPECT_EQ(merchant({Line("이마트24 해운대점", 0)}), "이마트24 해운대점");
  EXPECT_EQ(merchant({Line("다이소 종로2가점", 0)}), "다이소 종로2가점");
  EXPECT_EQ(merchant({Line("서울우유 대리점", 0), Line("서울 중구 세종대로 110", 30)}),
            "서울우유 대리점");
}

// The amount paid is not the largest number: a discount printed without
// its minus after a total, English labels with cash handed over.
TEST(ReceiptRules, PaidAmountAfterADiscountOrCashHandedOver) {
  auto amount = [](std::vector<OcrLine> lines) {
    return ReadReceiptFields(lines, nullptr).amount.value.value_or(0);
  };
  EXPECT_EQ(amount({Line("총액 25,000", 0), Line("할인 5,000", 30), Line("내실금액 20,000", 60)}),
            20000);
  EXPECT_EQ(amount({Line("TOTAL 20,000", 0), Line("CASH 50,000", 30), Line("CHANGE 30,000", 60)}),
            20000);
  EXPECT_EQ(amount({Line("SUBTOTAL 25,000", 0), Line("할인 -5,000", 30), Line("TOTAL 20,000", 60)}),
            20000);
}

TEST(ReceiptRules, TimePrintedOnItsOwnLine) {
  std::vector<OcrLine> lines = {Line("거래일자 2026.11.30 (월)", 0), Line("거래시간 14:05:22", 30),
                                Line("승인금액 12,000원", 60)};
  EXPECT_EQ(ReadReceiptFields(lines, nullptr).paid_at.value.value_or(""), "2026-11-30T14:05:22");
  // Without a time anywhere, the date alone (midnight) at lower confidence.
  lines.erase(lines.begin() + 1);
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.paid_at.value.value_or(""), "2026-11-30T00:00:00");
  EXPECT_LT(r.paid_at.confidence, 0.9);
}

// Card slips that print each amount under its label: the cross-check still
// sees supply and VAT, and 거래금액 is a total.
TEST(ReceiptRules, AmountsOnTheLineAfterTheirLabels) {
  std::vector<OcrLine> lines = {Line("공 급 가 액", 0),         Line("10,000", 30),
                                Line("부 가 세", 60),           Line("1,000", 90),
                                Line("거래금액", 120),          Line("₩11,000", 150),
                                Line("누적포인트 95,300P", 180)};
  ReceiptResult r = ReadReceiptFields(lines, nullptr);
  EXPECT_EQ(r.amount.value.value_or(0), 11000);
  EXPECT_TRUE(r.vat_consistent);
  EXPECT_EQ(ClassifyAmountLabel("거래금액").role, AmountRole::kTotal);
  EXPECT_EQ(ClassifyAmountLabel("면세액").role, AmountRole::kOther);
  EXPECT_EQ(ClassifyAmountLabel("세액").role, AmountRole::kVat);
}

// A label whose line printed 0 does not take the next line's digits; a
// supply + VAT sum under 500 won is digits OCR lost, not a total.
TEST(ReceiptRules, NoNextLineAmountAfterAZeroAndNoTinyRescue) {
  std::vector<OcrLine> lines = {Line("과세물품가액 100", 0), Line("부가세 0", 30),
                                Line("테에 09", 60), Line("들 37300원", 90)};
  EXPECT_EQ(ReadReceiptFields(lines, nullptr).amount.value.value_or(0), 37300);
}

TEST(ReceiptRules, MerchantStopsAtTheNextFieldAndMayBeOnTheNextLine) {
  std::vector<OcrLine> same = {Line("상호: 남산 돈까스 대표자: 김도윤", 0), Line("합계 9,000", 30)};
  EXPECT_EQ(ReadReceiptFields(same, nullptr).merchant.value.value_or(""), "남산 돈까스");
  std::vector<OcrLine> speck = {Line("상호: 할매순대국 2호점 00", 0), Line("합계 9,000", 30)};
  EXPECT_EQ(ReadReceiptFields(speck, nullptr).merchant.value.value_or(""), "할매순대국 2호점");
  std::vector<OcrLine> next = {Line("매출전표", 0, 30), Line("가맹점명", 40), Line("서울약국", 70),
                               Line("합계 9,000", 100)};
  EXPECT_EQ(ReadReceiptFields(next, nullptr).merchant.value.value_or(""), "서울약국");
  std::vector<OcrLine> bank = {Line("예금주", 0), Line("입금은행 국민은행", 30),
                               Line("이체금액 9,000", 60)};
  EXPECT_FALSE(ReadReceiptFields(bank, nullptr).merchant.value);
  std::vector<OcrLine> section = {Line("가맹점 정보", 0), Line("합계 9,000", 30)};
  EXPECT_FALSE(ReadReceiptFields(section, nullptr).merchant.value);
}

TEST(TaxiRules, FarePlausibility) {
  TaxiRules rules;
  EXPECT_TRUE(PlausibleFare(4800, rules));
  EXPECT_TRUE(PlausibleFare(12300, rules));
  EXPECT_FALSE(PlausibleFare(4700, rules));   // below the Seoul base fare
  EXPECT_FALSE(PlausibleFare(12350, rules));  // not a multiple of 100
  EXPECT_FALSE(PlausibleFare(9'000'000, rules));
}

TEST(TaxiRules, MainNumberBeatsBaseFareAndCounters) {
  std::vector<OcrLine> lines = {Line("현재 요금", 0, 30), Line("12,300원", 40, 70),
                                Line("이동거리 5.2km", 120), Line("소요시간 18분", 150),
                                Line("기본요금 4,800원", 180)};
  Field<int64_t> fare = FareFromOcr(lines, TaxiRules{}, nullptr);
  EXPECT_EQ(fare.value.value_or(0), 12300);
  EXPECT_EQ(fare.evidence.text, "12,300원");
}

TEST(TaxiRules, SevenSegmentPrefersTheTallestPlausibleRow) {
  std::vector<SevenSegReading> rows = {{"18500", Box{0, 0, 300, 100}, 100, 0.8},
                                       {"1234", Box{0, 120, 100, 30}, 30, 0.9}};
  Field<int64_t> fare = FareFromSevenSegment(rows, TaxiRules{});
  EXPECT_EQ(fare.value.value_or(0), 18500);
  EXPECT_EQ(fare.evidence.source, "seven_segment");
}

// The fare of an app meter is its biggest number: when OCR mangled it, the
// smaller base fare it found instead is unsure.
TEST(TaxiRules, ASmallerNumberThanTheBiggestOnScreenIsUnsure) {
  std::vector<OcrLine> lines = {Line("현재 요금", 0, 30), Line("\\94,6", 40, 70),
                                Line("4,800원", 130)};
  Field<int64_t> fare = FareFromOcr(lines, TaxiRules{}, nullptr);
  EXPECT_EQ(fare.value.value_or(0), 4800);
  EXPECT_LT(fare.confidence, kLowConfidence);
}

// The big fare with its last digit lost (fares end in 00) or its comma read
// as a space is still the fare, not the base fare under it, but unsure.
TEST(TaxiRules, ABigFareWithALostDigitOrCommaIsRepairedButUnsure) {
  for (const char* big : {"\\94,60", "₩5,40", "24 600원", "12.60 원"}) {
    std::vector<OcrLine> lines = {Line("현재 요금", 0, 30), Line(big, 40, 70),
                                  Line("기본 4,800원", 130), Line("이동거리 12.2km", 150)};
    Field<int64_t> fare = FareFromOcr(lines, TaxiRules{}, nullptr);
    EXPECT_NE(fare.value.value_or(0), 4800) << big;
    EXPECT_LT(fare.confidence, kLowConfidence) << big;
  }
  auto fare_of = [](const char* big) {
    return FareFromOcr({Line(big, 40, 70), Line("4,800원", 130)}, TaxiRules{}, nullptr)
        .value.value_or(0);
  };
  EXPECT_EQ(fare_of("\\94,60"), 94600);
  EXPECT_EQ(fare_of("₩5,40"), 5400);
  EXPECT_EQ(fare_of("24 600원"), 24600);
  EXPECT_EQ(fare_of("12.60 원"), 12600);
  EXPECT_EQ(fare_of("12,300원"), 12300);  // intact: as read
}

// A tall row read with little confidence (a bezel, glare) does not hide the
// fare under it; an implausible row gives no fare rather than a wrong one.
TEST(TaxiRules, SevenSegmentIgnoresTallNonsenseAndImplausibleRows) {
  SevenSegReading glare{"6400", Box{0, 0, 400, 150}, 148, 0.14};
  SevenSegReading fare{"28500", Box{0, 160, 300, 90}, 88, 0.6, false, true};
  EXPECT_EQ(FareFromSevenSegment({glare, fare}, TaxiRules{}).value.value_or(0), 28500);
  SevenSegReading eights{"888", Box{0, 0, 300, 90}, 88, 0.5};
  EXPECT_FALSE(FareFromSevenSegment({eights}, TaxiRules{}).value);
}

// OCR does not override the display with a smaller counter it read better.
TEST(TaxiRules, OcrOfASmallerCounterDoesNotOverrideTheDisplay) {
  Field<int64_t> seg, ocr;
  seg.value = 26600, seg.confidence = 0.53, seg.evidence.box = Box{0, 0, 300, 85};
  ocr.value = 8000, ocr.confidence = 0.7, ocr.evidence.box = Box{0, 100, 120, 30};
  std::string method;
  Field<int64_t> out = CombineFareReadings(seg, ocr, &method);
  EXPECT_EQ(out.value.value_or(0), 26600);
  EXPECT_LT(out.confidence, kLowConfidence);
  ocr.evidence.box.h = 80;  // as tall: an app meter's fare
  EXPECT_EQ(CombineFareReadings(seg, ocr, &method).value.value_or(0), 8000);
}

}  // namespace
}  // namespace nunchi::extract
