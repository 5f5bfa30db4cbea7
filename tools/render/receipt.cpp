// Receipt drawer: builds the content of a card slip, a POS receipt or a bank
// transfer slip as labelled lines, then lays them out with Pango on paper.
#include <leptonica/allheaders.h>

#include <cstdio>

#include "canvas.h"
#include "render_internal.h"

namespace nunchi::render {
namespace {

const std::vector<std::string> kMerchants = {
    "스타벅스 강남역점",   "이마트24 역삼점",   "GS25 선릉점",       "김밥천국 논현점",
    "교촌치킨 신촌점",     "파리바게뜨 홍대점", "올리브영 명동본점", "다이소 종로2가점",
    "CU 서초중앙점",       "맘스터치 잠실점",   "투썸플레이스 판교", "본죽 광화문점",
    "롯데리아 수원역점",   "명동칼국수",        "할매순대국 2호점",  "배스킨라빈스 노원점",
    "홈플러스 익스프레스", "세븐일레븐 신림점", "BHC 치킨 건대점",   "한솥도시락 대학로점"};
const std::vector<std::string> kPeople = {"김민수", "이서연", "박지훈", "최유진",       "정하늘",
                                          "강동원", "윤서준", "장미란", "(주)한빛상사", "조은식품"};
const std::vector<std::pair<std::string, int>> kItems = {
    {"아메리카노", 4500}, {"카페라떼", 5000},  {"김밥", 3500},       {"라면", 4000},
    {"생수 500ml", 900},  {"삼각김밥", 1200},  {"치킨 세트", 21000}, {"콜라 1.5L", 3100},
    {"샴푸", 8900},       {"칫솔 세트", 4500}, {"순대국", 9000},     {"칼국수", 8000},
    {"아이스크림", 3200}, {"도시락", 5500},    {"우유 1L", 2800},    {"빵", 3800}};
const std::vector<std::string> kFonts = {
    "NanumGothic",   "NanumGothicCoding", "NanumBarunGothic", "Noto Sans CJK KR",
    "NanumMyeongjo", "Noto Serif CJK KR", "NanumSquare"};

enum Style { kPlain, kTitle, kRule, kCenter, kBig };
struct Line {
  std::string left, right;
  Style style = kPlain;
};

struct Content {
  std::vector<Line> lines;
  GroundTruth truth;
};

std::string Pad2(int v) {
  char b[8];
  std::snprintf(b, sizeof b, "%02d", v);
  return b;
}

// A random date and time as printed, and its ISO form in *iso.
std::string RandomDate(Rng& rng, std::string* iso) {
  int y = rng.Int(2024, 2026), mo = rng.Int(1, 12), d = rng.Int(1, 28);
  int h = rng.Int(0, 23), mi = rng.Int(0, 59), s = rng.Int(0, 59);
  int fmt = rng.Int(0, 5);
  bool secs = fmt != 3 && fmt != 5 && rng.Chance(0.7);
  if (!secs) s = 0;
  char b[40];
  std::snprintf(b, sizeof b, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
  *iso = b;
  std::string t = Pad2(h) + ":" + Pad2(mi) + (secs ? ":" + Pad2(s) : "");
  std::string ys = std::to_string(y), ms = Pad2(mo), ds = Pad2(d);
  switch (fmt) {
    case 0:
      return ys + "/" + ms + "/" + ds + " " + t;
    case 1:
      return ys + "-" + ms + "-" + ds + " " + t;
    case 2:
      return ys + "." + ms + "." + ds + " " + t;
    case 3:
      return ys.substr(2) + "/" + ms + "/" + ds + " " + t;
    case 4:
      return ys + "년 " + ms + "월 " + ds + "일 " + t;
    default: {
      std::string ampm = h < 12 ? "오전 " : "오후 ";
      int h12 = h % 12 == 0 ? 12 : h % 12;
      return ys + "." + ms + "." + ds + " " + ampm + std::to_string(h12) + ":" + Pad2(mi);
    }
  }
}

std::string MaskedCard(Rng& rng) {
  return rng.Digits(4) + "-" + rng.Digits(2) + "**-****-" + rng.Digits(4);
}

std::string BizNo(Rng& rng) { return rng.Digits(3) + "-" + rng.Digits(2) + "-" + rng.Digits(5); }

Content CardSlip(Rng& rng) {
  Content c;
  GroundTruth& t = c.truth;
  t.layout = "card_slip";
  t.amount = rng.Int(10, 1500) * 100;
  t.merchant = rng.Pick(kMerchants);
  t.issuer = rng.Pick(kCards);
  t.approval_number = rng.Digits(8);
  std::string date = RandomDate(rng, &t.paid_at);
  int ws = rng.Int(0, 5);
  int64_t supply = (t.amount * 10 + 5) / 11, vat = t.amount - supply;
  std::vector<Line> card = {
      {rng.Pick<std::string>({"카드종류", "카드사", "카드명"}), t.issuer},
      {"카드번호", MaskedCard(rng)},
      {rng.Pick<std::string>({"거래일시", "승인일시", "거래일자"}), date},
      {"거래유형", "신용승인"},
      {rng.Pick<std::string>({"할부", "할부개월"}), rng.Chance(0.8) ? "일시불" : "03개월"},
      {rng.Pick<std::string>({"승인번호", "승인 번호"}), t.approval_number}};
  std::vector<Line> money = {
      {rng.Pick<std::string>({"공급가액", "과세금액"}), FormatWon(supply, ws)},
      {rng.Pick<std::string>({"부가세", "부가가치세"}), FormatWon(vat, ws)}};
  if (rng.Chance(0.3)) money.push_back({"봉사료", FormatWon(0, ws)});
  money.push_back({rng.Pick<std::string>({"합계", "합계금액", "승인금액", "결제금액", "총액"}),
                   FormatWon(t.amount, ws), kBig});
  std::vector<Line> shop = {{rng.Pick<std::string>({"가맹점명", "상호"}), t.merchant},
                            {"대표자", rng.Pick(kPeople)},
                            {"사업자번호", BizNo(rng)},
                            {"가맹점번호", rng.Digits(10)},
                            {"전화번호", "02-" + rng.Digits(3) + "-" + rng.Digits(4)}};
  c.lines.push_back(
      {rng.Pick<std::string>({"신용카드 매출전표", "카드 영수증", "매출전표"}), "", kTitle});
  c.lines.push_back({"", "", kRule});
  bool shop_first = rng.Chance(0.4);
  auto add = [&](const std::vector<Line>& block) {
    for (const Line& l : block) c.lines.push_back(l);
    c.lines.push_back({"", "", kRule});
  };
  if (shop_first) add(shop);
  add(card);
  add(money);
  if (!shop_first) add(shop);
  c.lines.push_back({"감사합니다", "", kCenter});
  return c;
}

Content PosReceipt(Rng& rng) {
  Content c;
  GroundTruth& t = c.truth;
  t.layout = "pos";
  t.merchant = rng.Pick(kMerchants);
  std::string date = RandomDate(rng, &t.paid_at);
  int ws = rng.Int(0, 5);
  c.lines.push_back({t.merchant, "", kTitle});
  c.lines.push_back({"사업자 " + BizNo(rng), "대표 " + rng.Pick(kPeople)});
  c.lines.push_back({"TEL 02-" + rng.Digits(3) + "-" + rng.Digits(4), ""});
  c.lines.push_back({date, "POS:0" + rng.Digits(1)});
  c.lines.push_back({"", "", kRule});
  c.lines.push_back({"상품명   수량", "금액"});
  int64_t sum = 0;
  int n = rng.Int(1, 5);
  for (int i = 0; i < n; ++i) {
    const auto& [name, price] = rng.Pick(kItems);
    int qty = rng.Chance(0.7) ? 1 : rng.Int(2, 4);
    sum += int64_t{price} * qty;
    c.lines.push_back({name + "   " + std::to_string(qty), WithCommas(int64_t{price} * qty)});
  }
  c.lines.push_back({"", "", kRule});
  int64_t discount = rng.Chance(0.35) ? std::min<int64_t>(sum / 2, rng.Int(1, 30) * 100) : 0;
  t.amount = sum - discount;
  c.lines.push_back({rng.Pick<std::string>({"총구매액", "합계", "상품합계"}), FormatWon(sum, ws)});
  if (discount > 0) c.lines.push_back({"할인", "-" + WithCommas(discount)});
  c.lines.push_back(
      {rng.Pick<std::string>({"받을금액", "결제금액", "총액"}), FormatWon(t.amount, ws), kBig});
  int64_t supply = (t.amount * 10 + 5) / 11;
  c.lines.push_back({rng.Pick<std::string>({"과세물품가액", "공급가액"}), WithCommas(supply)});
  c.lines.push_back({"부가세", WithCommas(t.amount - supply)});
  c.lines.push_back({"", "", kRule});
  if (rng.Chance(0.7)) {
    t.issuer = rng.Pick(kCards);
    t.approval_number = rng.Digits(8);
    c.lines.push_back({"신용카드", WithCommas(t.amount)});
    c.lines.push_back({"카드사: " + t.issuer, ""});
    c.lines.push_back({"카드번호: " + MaskedCard(rng), ""});
    c.lines.push_back({rng.Pick<std::string>({"승인번호: ", "승인No: "}) + t.approval_number, ""});
  } else {
    int64_t paid = ((t.amount + 9999) / 10000) * 10000 + (rng.Chance(0.5) ? 10000 : 0);
    c.lines.push_back({"받은금액", WithCommas(paid)});
    c.lines.push_back({"거스름돈", WithCommas(paid - t.amount)});
    if (rng.Chance(0.5)) c.lines.push_back({"현금영수증 번호", rng.Digits(9)});
  }
  c.lines.push_back({"", "", kRule});
  c.lines.push_back({"교환/환불은 영수증 지참 시 7일 이내", "", kCenter});
  return c;
}

Content BankSlip(Rng& rng) {
  Content c;
  GroundTruth& t = c.truth;
  t.layout = "bank";
  t.issuer = rng.Pick(kBanks);
  t.merchant = rng.Pick(kPeople);
  t.amount = rng.Int(1, 3000) * 1000 + (rng.Chance(0.3) ? rng.Int(1, 9) * 100 : 0);
  std::string date = RandomDate(rng, &t.paid_at);
  std::string to_bank = rng.Pick(kBanks);
  int ws = rng.Int(0, 5);
  c.lines.push_back({t.issuer, "", kTitle});
  c.lines.push_back(
      {rng.Pick<std::string>({"이체확인증", "이체 결과 확인", "송금 확인증"}), "", kCenter});
  c.lines.push_back({"", "", kRule});
  c.lines.push_back({rng.Pick<std::string>({"이체일시", "거래일시"}), date});
  c.lines.push_back({"출금계좌", rng.Digits(3) + "-***-" + rng.Digits(6)});
  c.lines.push_back({rng.Pick<std::string>({"받는분", "받는 분", "예금주"}), t.merchant});
  c.lines.push_back({"입금은행", to_bank});
  c.lines.push_back({"입금계좌", rng.Digits(6) + "-" + rng.Digits(2) + "-" + rng.Digits(6)});
  c.lines.push_back(
      {rng.Pick<std::string>({"이체금액", "보낸금액"}), FormatWon(t.amount, ws), kBig});
  c.lines.push_back({"수수료", FormatWon(rng.Chance(0.7) ? 0 : 500, ws)});
  if (rng.Chance(0.5)) {
    c.lines.push_back({"출금후 잔액", FormatWon(t.amount + rng.Int(1, 9000) * 100, ws)});
  }
  c.lines.push_back({"", "", kRule});
  c.lines.push_back({"위 내용은 고객님의 이체 결과입니다", "", kCenter});
  return c;
}

Pix* Layout(const Content& c, Rng& rng) {
  Font body{rng.Pick(kFonts), static_cast<double>(rng.Int(17, 24)), rng.Chance(0.2), false};
  int width = static_cast<int>(body.px * rng.Real(19, 24));
  double margin = body.px * rng.Real(0.8, 1.6), lh = body.px * rng.Real(1.35, 1.7);
  double height = margin * 2;
  for (const Line& l : c.lines)
    height += l.style == kTitle ? lh * 1.8 : l.style == kRule ? lh * 0.6 : lh;
  double tone = rng.Real(0.90, 1.0);
  Rgb paper{tone, tone, tone * rng.Real(0.94, 1.0)};
  double ink_level = rng.Real(0.0, 0.3);
  Rgb ink{ink_level, ink_level, ink_level + rng.Real(0, 0.1)};
  Canvas cv(width, static_cast<int>(height), paper);
  double y = margin;
  for (const Line& l : c.lines) {
    switch (l.style) {
      case kTitle: {
        Font f = body;
        f.px *= 1.4;
        f.bold = true;
        cv.Text(width / 2.0, y, l.left, f, ink, Align::kCenter);
        y += lh * 1.8;
        break;
      }
      case kRule:
        cv.Line(margin, y + lh * 0.3, width - margin, y + lh * 0.3, 1.5, ink);
        y += lh * 0.6;
        break;
      case kCenter:
        cv.Text(width / 2.0, y, l.left, body, ink, Align::kCenter);
        y += lh;
        break;
      default: {
        Font f = body;
        if (l.style == kBig) f.bold = true;
        cv.Text(margin, y, l.left, f, ink);
        if (!l.right.empty()) cv.Text(width - margin, y, l.right, f, ink, Align::kRight);
        y += lh;
      }
    }
  }
  return cv.ToPix();
}

}  // namespace

Pix* DrawReceipt(Rng& rng, GroundTruth* truth) {
  int kind = rng.Int(0, 2);
  Content c = kind == 0 ? CardSlip(rng) : kind == 1 ? PosReceipt(rng) : BankSlip(rng);
  *truth = c.truth;
  truth->kind = DocKind::kReceipt;
  return Layout(c, rng);
}

}  // namespace nunchi::render
