// Varied receipt drawer (development sets, `nunchi-render --varied 1`):
// receipts beyond DrawReceipt's three layouts, so that the reader is tuned on
// more than one style. Other Korean fonts (Un*, Baekmuk, Nanum, Noto), labels
// with spaces (합 계, 결 제 금 액), currency signs before and after (₩, 원,
// KRW), amounts on the label's line, on the next line or after a dotted
// leader, merchants under several labels or as a centred heading, dates in
// many formats (a separate time line too), second totals that are not the
// amount (면세, points), and thermal fading.
#include <leptonica/allheaders.h>

#include <algorithm>
#include <cstdio>

#include "canvas.h"
#include "render_internal.h"

namespace nunchi::render {
namespace {

const std::vector<std::string> kMerchants = {
    "스타벅스 서면점",   "이마트24 해운대점", "GS25 동대문점",     "김가네 김밥 상도점",
    "굽네치킨 안양점",   "뚜레쥬르 분당점",   "올리브영 광복점",   "다이소 부평점",
    "CU 대전둔산점",     "버거킹 일산점",     "이디야커피 구미점", "백다방 전주점",
    "미스터피자 창원점", "고향칼국수",        "원조할매국밥",      "설빙 청주점",
    "롯데마트 잠실점",   "홍콩반점 목동점",   "(주)대한문구",      "새마을식당 인천점",
    "서울약국",          "행복한 세탁소",     "남산 돈까스",       "하나로마트 양재점"};
const std::vector<std::string> kPeople = {"김도윤", "이하은", "박서진", "최민준",       "정수아",
                                          "한지우", "오세훈", "임나연", "(주)미래상사", "푸른식품"};
const std::vector<std::pair<std::string, int>> kItems = {
    {"아메리카노(R)", 4100}, {"바닐라라떼", 5600}, {"참치김밥", 4500},  {"떡볶이", 5000},
    {"생수 2L", 1300},       {"컵라면", 1500},     {"양념치킨", 19000}, {"사이다 500ml", 2000},
    {"세제 리필", 7900},     {"건전지 AA", 3900},  {"돼지국밥", 10000}, {"비빔밥", 9500},
    {"과자", 2400},          {"샌드위치", 6200},   {"두유", 1800},      {"케이크", 28000}};
const std::vector<std::string> kFonts = {"UnDotum",
                                         "UnBatang",
                                         "UnTaza",
                                         "UnShinmun",
                                         "UnGraphic",
                                         "Baekmuk Dotum",
                                         "Baekmuk Gulim",
                                         "Baekmuk Batang",
                                         "NanumGothic",
                                         "NanumBarunGothic",
                                         "NanumMyeongjo",
                                         "NanumSquareRound",
                                         "NanumBarunpen",
                                         "Noto Sans CJK KR",
                                         "Noto Serif CJK KR",
                                         "Noto Sans Mono CJK KR",
                                         "NanumGothicCoding"};

// How an amount line is laid out.
enum class Place { kRight, kNextLine, kLeader, kAfterColon };
enum Style { kPlain, kTitle, kRule, kCenter, kBig, kDashes };
struct Line {
  std::string left, right;
  Style style = kPlain;
  Place place = Place::kRight;
};

std::string Pad2(int v) {
  char b[8];
  std::snprintf(b, sizeof b, "%02d", v);
  return b;
}

// "합계" -> "합 계" (labels with spaces between the letters).
std::string Spaced(const std::string& label) {
  std::string out;
  for (size_t i = 0; i < label.size();) {
    auto c = static_cast<unsigned char>(label[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    if (!out.empty()) out += ' ';
    out += label.substr(i, len);
    i += len;
  }
  return out;
}

std::string Money(Rng& rng, int64_t amount, int style) {
  std::string n = WithCommas(amount);
  switch (style) {
    case 1:
      return n + "원";
    case 2:
      return "₩" + n;
    case 3:
      return "₩ " + n;
    case 4:
      return "KRW " + n;
    case 5:
      return n + " KRW";
    case 6:
      return n + " 원";
    case 7:
      return "￦" + n;
    default:
      return rng.Chance(0.1) ? std::to_string(amount) : n;
  }
}

struct Content {
  std::vector<Line> lines;
  GroundTruth truth;
  bool spaced = false;  // labels printed with spaces
  int money_style = 0;
  Place place = Place::kRight;
};

// Appends a labelled value with the content's label and placement style.
void Add(Content& c, Rng& rng, const std::string& label, const std::string& value,
         Style style = kPlain, bool money = false) {
  std::string l = c.spaced && rng.Chance(0.7) ? Spaced(label) : label;
  Place p = money ? c.place : (rng.Chance(0.3) ? Place::kAfterColon : Place::kRight);
  c.lines.push_back({l, value, style, p});
}

void AddMoney(Content& c, Rng& rng, const std::string& label, int64_t amount,
              Style style = kPlain) {
  Add(c, rng, label, Money(rng, amount, c.money_style), style, true);
}

// A random date and time as printed (one or two lines), its ISO form in *iso.
std::vector<std::string> RandomDate(Rng& rng, std::string* iso, bool* two_lines) {
  int y = rng.Int(2024, 2027), mo = rng.Int(1, 12), d = rng.Int(1, 28);
  int h = rng.Int(0, 23), mi = rng.Int(0, 59), s = rng.Int(0, 59);
  int fmt = rng.Int(0, 8);
  bool secs = fmt != 2 && fmt != 6 && rng.Chance(0.6);
  if (!secs) s = 0;
  char b[40];
  std::snprintf(b, sizeof b, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
  *iso = b;
  static const char* kWeek[] = {"월", "화", "수", "목", "금", "토", "일"};
  std::string wd = std::string("(") + kWeek[(y * 7 + mo * 3 + d) % 7] + ")";
  std::string t = Pad2(h) + ":" + Pad2(mi) + (secs ? ":" + Pad2(s) : "");
  std::string ys = std::to_string(y), ms = Pad2(mo), ds = Pad2(d);
  int h12 = h % 12 == 0 ? 12 : h % 12;
  std::string ampm = h < 12 ? "오전 " : "오후 ";
  *two_lines = false;
  switch (fmt) {
    case 0:
      return {ys + "-" + ms + "-" + ds + " " + t};
    case 1:
      return {ys.substr(2) + "/" + ms + "/" + ds + " " + t};
    case 2:
      return {ys + "." + ms + "." + ds + wd + " " + ampm + std::to_string(h12) + ":" + Pad2(mi)};
    case 3:
      return {ys + "년 " + std::to_string(mo) + "월 " + std::to_string(d) + "일 " + t};
    case 4:
      return {ys + "/" + ms + "/" + ds + " " + wd + " " + t};
    case 5:
      *two_lines = true;
      return {ys + "-" + ms + "-" + ds, t};
    case 6:
      return {ys + "년 " + ms + "월 " + ds + "일 " + Pad2(h) + "시 " + Pad2(mi) + "분"};
    case 7:
      *two_lines = true;
      return {ys + "." + ms + "." + ds + " " + wd, t};
    default:
      return {ys + "." + ms + "." + ds + " " + t};
  }
}

void AddDate(Content& c, Rng& rng, const std::vector<std::string>& labels) {
  bool two = false;
  std::vector<std::string> d = RandomDate(rng, &c.truth.paid_at, &two);
  if (two) {
    Add(c, rng, rng.Pick<std::string>({"거래일자", "결제일자", "일자"}), d[0]);
    Add(c, rng, rng.Pick<std::string>({"거래시간", "결제시간", "시간"}), d[1]);
  } else if (rng.Chance(0.2)) {
    c.lines.push_back({d[0], "", kPlain});  // an unlabelled date line
  } else {
    Add(c, rng, rng.Pick(labels), d[0]);
  }
}

std::string MaskedCard(Rng& rng) {
  return rng.Digits(4) + "-" + rng.Digits(4) + "-****-" + rng.Digits(2) + "**";
}
std::string BizNo(Rng& rng) { return rng.Digits(3) + "-" + rng.Digits(2) + "-" + rng.Digits(5); }

void AddMerchant(Content& c, Rng& rng, bool heading_done) {
  if (heading_done) return;
  Add(c, rng, rng.Pick<std::string>({"가맹점명", "상호", "가맹점", "상호명", "매장명"}),
      c.truth.merchant);
}

Content CardSlip(Rng& rng, Content c) {
  GroundTruth& t = c.truth;
  t.layout = "card_slip";
  t.amount = rng.Int(10, 2500) * 100;
  t.merchant = rng.Pick(kMerchants);
  t.issuer = rng.Pick(kCards);
  t.approval_number = rng.Digits(8);
  bool heading = rng.Chance(0.35);  // the merchant as the centred heading
  if (heading) {
    c.lines.push_back({t.merchant, "", kTitle});
    c.lines.push_back({"사업자번호 " + BizNo(rng), "", kCenter});
  }
  c.lines.push_back(
      {rng.Pick<std::string>({"신용카드 매출전표", "[카드승인]", "신용승인", "매출전표(고객용)"}),
       "", heading ? kCenter : kTitle});
  c.lines.push_back({"", "", rng.Chance(0.5) ? kRule : kDashes});
  bool merchant_first = !heading && rng.Chance(0.5);
  if (merchant_first) AddMerchant(c, rng, false);
  Add(c, rng, rng.Pick<std::string>({"카드종류", "카드사", "카드명", "발급사"}), t.issuer);
  Add(c, rng, "카드번호", MaskedCard(rng));
  AddDate(c, rng, {"거래일시", "승인일시", "거래일자", "결제일시"});
  Add(c, rng, rng.Pick<std::string>({"할부", "할부개월"}), rng.Chance(0.8) ? "일시불" : "02");
  Add(c, rng, rng.Pick<std::string>({"승인번호", "승인 번호", "승인NO"}), t.approval_number);
  c.lines.push_back({"", "", rng.Chance(0.5) ? kRule : kDashes});
  int64_t supply = (t.amount * 10 + 5) / 11, vat = t.amount - supply;
  bool total_first = rng.Chance(0.3);
  std::string total_label =
      rng.Pick<std::string>({"승인금액", "거래금액", "합계금액", "결제금액", "합계", "총액"});
  if (total_first) AddMoney(c, rng, total_label, t.amount, kBig);
  AddMoney(c, rng, rng.Pick<std::string>({"공급가액", "과세금액", "물품가액"}), supply);
  AddMoney(c, rng, rng.Pick<std::string>({"부가세", "부가가치세", "세액"}), vat);
  if (rng.Chance(0.3)) AddMoney(c, rng, "봉사료", 0);
  if (!total_first) AddMoney(c, rng, total_label, t.amount, kBig);
  c.lines.push_back({"", "", rng.Chance(0.5) ? kRule : kDashes});
  AddMerchant(c, rng, heading || merchant_first);
  Add(c, rng, "대표자", rng.Pick(kPeople));
  if (!heading) Add(c, rng, "사업자번호", BizNo(rng));
  Add(c, rng, "가맹점번호", rng.Digits(9));
  c.lines.push_back({"서명 ________________", "", kPlain});
  return c;
}

Content PosReceipt(Rng& rng, Content c) {
  GroundTruth& t = c.truth;
  t.layout = "pos";
  t.merchant = rng.Pick(kMerchants);
  if (rng.Chance(0.3)) c.lines.push_back({"[ 영 수 증 ]", "", kCenter});
  c.lines.push_back({t.merchant, "", kTitle});
  c.lines.push_back({"사업자: " + BizNo(rng) + "  " + rng.Pick(kPeople), "", kCenter});
  if (rng.Chance(0.5))
    c.lines.push_back(
        {"TEL: 0" + rng.Digits(1) + "-" + rng.Digits(3) + "-" + rng.Digits(4), "", kCenter});
  bool date_top = rng.Chance(0.6);
  if (date_top) AddDate(c, rng, {"판매일시", "거래일시", "일시"});
  c.lines.push_back({"", "", kDashes});
  c.lines.push_back({"품명      단가  수량", "금액"});
  int64_t sum = 0;
  int n = rng.Int(1, 6);
  for (int i = 0; i < n; ++i) {
    const auto& [name, price] = rng.Pick(kItems);
    int qty = rng.Chance(0.7) ? 1 : rng.Int(2, 3);
    sum += int64_t{price} * qty;
    c.lines.push_back({name + "  " + WithCommas(price) + "  " + std::to_string(qty),
                       WithCommas(int64_t{price} * qty)});
  }
  c.lines.push_back({"", "", kDashes});
  int64_t discount = rng.Chance(0.4) ? std::min<int64_t>(sum / 3, rng.Int(1, 40) * 100) : 0;
  t.amount = sum - discount;
  if (discount > 0) {
    AddMoney(c, rng, rng.Pick<std::string>({"합계", "상품합계", "총구매액", "소계"}), sum);
    Add(c, rng, rng.Pick<std::string>({"할인", "할인금액", "쿠폰할인"}),
        "-" + WithCommas(discount));
  }
  if (rng.Chance(0.3)) AddMoney(c, rng, "면세물품", rng.Int(0, 5) * 100);
  int64_t supply = (t.amount * 10 + 5) / 11;
  if (rng.Chance(0.5)) {
    AddMoney(c, rng, rng.Pick<std::string>({"과세물품", "공급가액"}), supply);
    AddMoney(c, rng, rng.Pick<std::string>({"부가세", "부 가 세"}), t.amount - supply);
  }
  AddMoney(c, rng,
           rng.Pick<std::string>({"받을금액", "결제금액", "합계금액", "총 합계", "결제 금액"}),
           t.amount, kBig);
  if (rng.Chance(0.5)) {
    AddMoney(c, rng, rng.Pick<std::string>({"과세물품가액", "공급가액"}), supply);
    AddMoney(c, rng, "부가세", t.amount - supply);
  }
  c.lines.push_back({"", "", kDashes});
  if (rng.Chance(0.7)) {
    t.issuer = rng.Pick(kCards);
    t.approval_number = rng.Digits(8);
    AddMoney(c, rng, rng.Pick<std::string>({"신용카드", "카드결제"}), t.amount);
    Add(c, rng, "카드사", t.issuer);
    Add(c, rng, "카드번호", MaskedCard(rng));
    Add(c, rng, rng.Pick<std::string>({"승인번호", "승인No"}), t.approval_number);
  } else {
    int64_t paid = ((t.amount + 9999) / 10000) * 10000 + (rng.Chance(0.5) ? 10000 : 0);
    AddMoney(c, rng, rng.Pick<std::string>({"받은금액", "현금"}), paid);
    AddMoney(c, rng, "거스름돈", paid - t.amount);
  }
  if (rng.Chance(0.4)) {
    // A point balance larger than the total: the total is not the largest number.
    Add(c, rng, "적립포인트", WithCommas(t.amount / 100) + "P");
    Add(c, rng, rng.Pick<std::string>({"누적포인트", "가용포인트"}),
        WithCommas(t.amount * rng.Int(2, 9) + rng.Int(1, 99) * 10) + "P");
  }
  if (!date_top) AddDate(c, rng, {"판매일시", "거래일시", "일시"});
  c.lines.push_back({"", "", kDashes});
  c.lines.push_back({"감사합니다. 또 오세요", "", kCenter});
  return c;
}

Content BankSlip(Rng& rng, Content c) {
  GroundTruth& t = c.truth;
  t.layout = "bank";
  t.issuer = rng.Pick(kBanks);
  t.merchant = rng.Pick(kPeople);
  t.amount = rng.Int(1, 5000) * 1000 + (rng.Chance(0.4) ? rng.Int(1, 99) * 10 : 0);
  c.lines.push_back({t.issuer, "", kTitle});
  c.lines.push_back(
      {rng.Pick<std::string>({"이체확인증", "계좌이체 확인", "송금 영수증"}), "", kCenter});
  c.lines.push_back({"", "", kRule});
  AddDate(c, rng, {"이체일시", "거래일시", "처리일시"});
  Add(c, rng, rng.Pick<std::string>({"출금계좌", "보내는 계좌"}),
      rng.Digits(3) + "-" + rng.Digits(2) + "-***" + rng.Digits(3));
  Add(c, rng, rng.Pick<std::string>({"받는분", "받는 분", "예금주", "수취인", "받는사람"}),
      t.merchant);
  Add(c, rng, rng.Pick<std::string>({"입금은행", "받는 은행"}), rng.Pick(kBanks));
  Add(c, rng, "입금계좌", rng.Digits(4) + "-" + rng.Digits(3) + "-" + rng.Digits(6));
  AddMoney(c, rng, rng.Pick<std::string>({"이체금액", "보낸금액", "송금액", "이체 금액"}), t.amount,
           kBig);
  AddMoney(c, rng, "수수료", rng.Chance(0.7) ? 0 : 500);
  if (rng.Chance(0.5)) AddMoney(c, rng, "출금후 잔액", t.amount + rng.Int(1, 90000) * 100);
  c.lines.push_back({"", "", kRule});
  c.lines.push_back({"위 금액을 정상 이체하였습니다", "", kCenter});
  return c;
}

// Ink per line: thermal paper fades in bands and towards one edge.
Rgb Faded(Rgb ink, double fade, double y_frac, double band) {
  double f = std::clamp(fade * (0.5 + 0.5 * y_frac) + band, 0.0, 0.62);
  return {ink.r + (0.92 - ink.r) * f, ink.g + (0.92 - ink.g) * f, ink.b + (0.92 - ink.b) * f};
}

Pix* Layout(const Content& c, Rng& rng) {
  Font body{rng.Pick(kFonts), static_cast<double>(rng.Int(16, 25)), rng.Chance(0.15), false};
  int width = static_cast<int>(body.px * rng.Real(17, 25));
  double margin = body.px * rng.Real(0.6, 1.6), lh = body.px * rng.Real(1.3, 1.75);
  double height = margin * 2;
  for (const Line& l : c.lines) {
    height += l.style == kTitle ? lh * 1.8 : l.style == kRule ? lh * 0.6 : lh;
    if (l.place == Place::kNextLine && !l.right.empty()) height += lh;
  }
  double tone = rng.Real(0.86, 1.0);
  Rgb paper{tone, tone, tone * rng.Real(0.93, 1.0)};
  double ink_level = rng.Real(0.0, 0.3);
  Rgb ink0{ink_level, ink_level, ink_level + rng.Real(0, 0.1)};
  double fade = rng.Chance(0.35) ? rng.Real(0.1, 0.45) : 0;
  Canvas cv(width, static_cast<int>(height), paper);
  double y = margin;
  double dot_w = 0, dot_h = 0;
  cv.Measure(".", body, &dot_w, &dot_h);
  for (const Line& l : c.lines) {
    Rgb ink = Faded(ink0, fade, y / height, fade > 0 && rng.Chance(0.15) ? 0.2 : 0);
    Font f = body;
    if (l.style == kBig) f.bold = true, f.px *= rng.Chance(0.5) ? 1.15 : 1.0;
    switch (l.style) {
      case kTitle: {
        Font t = body;
        t.px *= 1.4;
        t.bold = true;
        cv.Text(width / 2.0, y, l.left, t, ink, Align::kCenter);
        y += lh * 1.8;
        break;
      }
      case kRule:
        cv.Line(margin, y + lh * 0.3, width - margin, y + lh * 0.3, 1.5, ink);
        y += lh * 0.6;
        break;
      case kDashes: {
        std::string dashes;
        double dw = 0, dh = 0;
        cv.Measure("-", body, &dw, &dh);
        for (double x = margin; x < width - margin - dw; x += dw) dashes += "-";
        cv.Text(margin, y, dashes, body, ink);
        y += lh;
        break;
      }
      case kCenter:
        cv.Text(width / 2.0, y, l.left, body, ink, Align::kCenter);
        y += lh;
        break;
      default: {
        if (l.right.empty()) {
          cv.Text(margin, y, l.left, f, ink);
        } else if (l.place == Place::kAfterColon) {
          cv.Text(margin, y, l.left + " : " + l.right, f, ink);
        } else if (l.place == Place::kNextLine) {
          cv.Text(margin, y, l.left, f, ink);
          y += lh;
          cv.Text(width - margin, y, l.right, f, ink, Align::kRight);
        } else {
          double lw = cv.Text(margin, y, l.left, f, ink);
          double rw = 0, rh = 0;
          cv.Measure(l.right, f, &rw, &rh);
          if (l.place == Place::kLeader && dot_w > 0) {
            std::string dots;
            for (double x = margin + lw + dot_w; x < width - margin - rw - 2 * dot_w; x += dot_w)
              dots += ".";
            cv.Text(margin + lw + dot_w, y, dots, body, ink);
          }
          cv.Text(width - margin, y, l.right, f, ink, Align::kRight);
        }
        y += lh;
      }
    }
  }
  return cv.ToPix();
}

}  // namespace

Pix* DrawVariedReceipt(Rng& rng, GroundTruth* truth) {
  Content c;
  c.spaced = rng.Chance(0.3);
  c.money_style = rng.Int(0, 7);
  int place = rng.Int(0, 9);
  c.place = place < 5 ? Place::kRight : place < 7 ? Place::kNextLine : Place::kLeader;
  int kind = rng.Int(0, 2);
  c = kind == 0 ? CardSlip(rng, c) : kind == 1 ? PosReceipt(rng, c) : BankSlip(rng, c);
  *truth = c.truth;
  truth->kind = DocKind::kReceipt;
  return Layout(c, rng);
}

}  // namespace nunchi::render
