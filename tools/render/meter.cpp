// Meter drawer: an LED taxi meter panel (seven-segment digits from fonts-dseg,
// with faint unlit segments and smaller distance and time counters) or a
// taxi app's meter screen.
#include <cairo.h>
#include <leptonica/allheaders.h>

#include <cstdio>

#include "canvas.h"
#include "render_internal.h"

namespace nunchi::render {
namespace {

const std::vector<std::string> kSegFonts = {"DSEG7 Classic", "DSEG7 Modern"};
const std::vector<std::string> kUiFonts = {"NanumGothic", "NanumBarunGothic", "Noto Sans CJK KR",
                                           "NanumSquare", "NanumSquareRound"};

int64_t RandomFare(Rng& rng) {
  // Seoul: 4,800 won base; most rides are short, a few long.
  if (rng.Chance(0.15)) return 4800;
  int steps = rng.Chance(0.8) ? rng.Int(1, 200) : rng.Int(200, 900);
  return 4800 + int64_t{steps} * 100;
}

// Seven-segment text right-aligned in a field of `cells` digits: DSEG draws
// '!' as a blank digit-wide cell.
std::string SegField(const std::string& digits, int cells) {
  std::string s;
  for (int i = static_cast<int>(digits.size()); i < cells; ++i) s += '!';
  return s + digits;
}

void SegText(Canvas& cv, double x, double y, const std::string& text, const Font& f, Rgb lit,
             Rgb ghost, bool ghosts) {
  if (ghosts) {
    std::string g;
    for (char ch : text) g += (ch == '.' || ch == ':') ? ch : '8';
    cv.Text(x, y, g, f, ghost, Align::kRight);
  }
  cv.Text(x, y, text, f, lit, Align::kRight);
}

Pix* LedMeter(Rng& rng, GroundTruth* t) {
  t->layout = "led_meter";
  t->amount = RandomFare(rng);
  Font seg{rng.Pick(kSegFonts), rng.Real(64, 104), rng.Chance(0.5), rng.Chance(0.4)};
  Font label{rng.Pick(kUiFonts), seg.px * rng.Real(0.22, 0.3), true, false};
  const std::vector<Rgb> colors = {
      {1, 0.16, 0.1}, {0.25, 1, 0.35}, {1, 0.65, 0.05}, {0.35, 0.85, 1}};
  Rgb lit = rng.Pick(colors);
  double bgv = rng.Real(0.02, 0.12);
  Rgb bg{bgv, bgv, bgv * 1.1};
  Rgb ghost = {bg.r + lit.r * 0.12, bg.g + lit.g * 0.12, bg.b + lit.b * 0.12};
  bool ghosts = rng.Chance(0.6);
  double dw = 0, dh = 0;
  Canvas probe(8, 8, bg);
  probe.Measure(SegField("", 6), seg, &dw, &dh);
  int width = static_cast<int>(dw + seg.px * rng.Real(0.8, 1.4));
  int height = static_cast<int>(dh + seg.px * rng.Real(1.3, 1.7));
  Canvas cv(width, height, bg);
  double right = width - seg.px * 0.4, top = label.px * 1.6;
  cv.Text(seg.px * 0.3, label.px * 0.3, rng.Pick<std::string>({"요금", "요 금", "FARE"}), label,
          {0.85, 0.85, 0.85});
  if (rng.Chance(0.5)) {
    cv.Text(right, label.px * 0.3, rng.Chance(0.5) ? "주행" : "할증", label, lit, Align::kRight);
  }
  SegText(cv, right, top, SegField(std::to_string(t->amount), 6), seg, lit, ghost, ghosts);
  // Smaller counters underneath: distance (km) and time or a fare counter.
  Font small = seg;
  small.px = seg.px * rng.Real(0.3, 0.42);
  double y2 = top + dh + seg.px * 0.15;
  char dist[16];
  std::snprintf(dist, sizeof dist, "%d.%d", rng.Int(0, 35), rng.Int(0, 9));
  char tm[16];
  std::snprintf(tm, sizeof tm, "%d:%02d", rng.Int(0, 1), rng.Int(0, 59));
  cv.Text(seg.px * 0.3, y2, "km", label, {0.8, 0.8, 0.8});
  SegText(cv, width * 0.45, y2, SegField(dist, 3), small, lit, ghost, ghosts);
  cv.Text(width * 0.5, y2, rng.Chance(0.5) ? "시간" : "대기", label, {0.8, 0.8, 0.8});
  std::string third = rng.Chance(0.5) ? std::string(tm) : std::to_string(rng.Int(100, 9999));
  SegText(cv, right, y2, SegField(third, 4), small, lit, ghost, ghosts);
  return cv.ToPix();
}

Pix* AppMeter(Rng& rng, GroundTruth* t) {
  t->layout = "app_meter";
  t->amount = RandomFare(rng);
  bool dark = rng.Chance(0.4);
  Rgb bg = dark ? Rgb{0.08, 0.09, 0.1} : Rgb{0.97, 0.97, 0.98};
  Rgb fg = dark ? Rgb{0.95, 0.95, 0.95} : Rgb{0.1, 0.1, 0.12};
  Rgb dim = dark ? Rgb{0.65, 0.65, 0.7} : Rgb{0.45, 0.45, 0.5};
  Rgb accent = rng.Pick<Rgb>({{1, 0.85, 0}, {0.1, 0.45, 0.95}, {0.95, 0.3, 0.2}});
  std::string family = rng.Pick(kUiFonts);
  int width = rng.Int(380, 540);
  int height = static_cast<int>(width * rng.Real(1.5, 1.9));
  Canvas cv(width, height, bg);
  double u = width / 20.0;  // layout unit
  Font small{family, u * 0.9, false, false};
  Font title{family, u * 1.2, true, false};
  Font big{family, u * rng.Real(2.6, 3.4), true, false};
  cv.Text(u, u * 0.5, std::to_string(rng.Int(10, 23)) + ":" + std::to_string(rng.Int(10, 59)),
          small, fg);
  cv.FillRect(0, u * 2, width, u * 2.6, accent);
  cv.Text(width / 2.0, u * 2.6, rng.Pick<std::string>({"택시 미터", "앱미터 운행 중", "미터기"}),
          title, {0.1, 0.1, 0.1}, Align::kCenter);
  double y = u * 6;
  cv.Text(width / 2.0, y, rng.Pick<std::string>({"현재 요금", "미터 요금", "운임"}), title, dim,
          Align::kCenter);
  y += u * 2.2;
  int style = rng.Int(0, 2);
  std::string fare = style == 0   ? WithCommas(t->amount) + "원"
                     : style == 1 ? WithCommas(t->amount) + " 원"
                                  : "₩" + WithCommas(t->amount);
  cv.Text(width / 2.0, y, fare, big, fg, Align::kCenter);
  y += big.px * 2;
  char dist[32];
  std::snprintf(dist, sizeof dist, "%d.%dkm", rng.Int(0, 30), rng.Int(0, 9));
  std::vector<std::pair<std::string, std::string>> rows = {
      {"이동거리", dist},
      {"소요시간", std::to_string(rng.Int(3, 70)) + "분"},
      {"기본요금", "4,800원"},
      {"할증", rng.Chance(0.7) ? "없음" : "20%"}};
  for (const auto& [k, v] : rows) {
    cv.Text(u * 1.5, y, k, small, dim);
    cv.Text(width - u * 1.5, y, v, small, fg, Align::kRight);
    y += u * 1.9;
  }
  cv.FillRect(u * 1.5, height - u * 4.5, width - u * 3, u * 2.8, accent);
  cv.Text(width / 2.0, height - u * 4, "운행 종료", title, {0.1, 0.1, 0.1}, Align::kCenter);
  return cv.ToPix();
}

}  // namespace

Pix* DrawMeter(Rng& rng, GroundTruth* truth) {
  truth->kind = DocKind::kTaxi;
  return rng.Chance(0.6) ? LedMeter(rng, truth) : AppMeter(rng, truth);
}

}  // namespace nunchi::render
