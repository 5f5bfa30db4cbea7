// Polygon seven-segment meters: every segment its own hexagon with a gap of
// 5-25 % of the stroke to its neighbours (so a digit is several blobs),
// thin or thick strokes, upright or italic, unlit segments from invisible to
// clearly visible, LED (lit on dark) or LCD (dark on light green or grey),
// 4-7 digits, an optional 원 sign and a second, smaller counter; some LCD
// glasses of low contrast, some panels in a dark bezel, some with glare on
// the glass. Drawn with
// cairo paths rather than a font, as a development set that differs from the
// fonts-dseg meters. Pure given its Rng; thread-compatible.
#include <cairo.h>
#include <leptonica/allheaders.h>

#include <cstdio>
#include <string>

#include "canvas.h"
#include "render_internal.h"

namespace nunchi::render {
namespace {

const std::vector<std::string> kLabelFonts = {"NanumGothic", "UnDotum", "Baekmuk Gulim",
                                              "Noto Sans CJK KR", "NanumBarunGothic"};

// Segments a..g as 1 bits, index = digit.
const char* kSegs[10] = {"1111110", "0110000", "1101101", "1111001", "0110011",
                         "1011011", "1011111", "1110000", "1111111", "1111011"};

struct SegStyle {
  double w, h;   // digit cell
  double t;      // stroke
  double gap;    // between segments
  double slant;  // x shift per unit of height (rightward at the top)
  Rgb lit, unlit;
  bool draw_unlit;
};

// One segment hexagon between (x0,y0) and (x1,y1), horizontal or vertical,
// in cell coordinates (y down); `sk` maps it through the slant.
void Hex(cairo_t* cr, double ox, double oy, const SegStyle& s, double x0, double y0, double x1,
         double y1, bool horizontal) {
  auto P = [&](double x, double y, bool first) {
    double X = ox + x + s.slant * (s.h - y), Y = oy + y;
    if (first)
      cairo_move_to(cr, X, Y);
    else
      cairo_line_to(cr, X, Y);
  };
  double h = s.t / 2;
  if (horizontal) {
    P(x0, y0, true), P(x0 + h, y0 - h, false), P(x1 - h, y0 - h, false), P(x1, y0, false),
        P(x1 - h, y0 + h, false), P(x0 + h, y0 + h, false);
  } else {
    P(x0, y0, true), P(x0 + h, y0 + h, false), P(x0 + h, y1 - h, false), P(x0, y1, false),
        P(x0 - h, y1 - h, false), P(x0 - h, y0 + h, false);
  }
  cairo_close_path(cr);
}

void Digit(cairo_t* cr, double ox, double oy, const SegStyle& s, int digit) {
  double h = s.t / 2, g = s.gap, W = s.w, H = s.h;
  double xl = h, xr = W - h, yt = h, ym = H / 2, yb = H - h;
  struct S {
    double x0, y0, x1, y1;
    bool hz;
  } segs[7] = {
      {xl + g, yt, xr - g, yt, true},  {xr, yt + g, xr, ym - g, false},
      {xr, ym + g, xr, yb - g, false}, {xl + g, yb, xr - g, yb, true},
      {xl, ym + g, xl, yb - g, false}, {xl, yt + g, xl, ym - g, false},
      {xl + g, ym, xr - g, ym, true},
  };
  for (int k = 0; k < 7; ++k) {
    bool on = digit >= 0 && kSegs[digit][k] == '1';
    if (!on && !s.draw_unlit) continue;
    Rgb c = on ? s.lit : s.unlit;
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
    Hex(cr, ox, oy, s, segs[k].x0, segs[k].y0, segs[k].x1, segs[k].y1, segs[k].hz);
    cairo_fill(cr);
  }
}

// Draws `digits` right-aligned in `cells` cells ending at `right`; a digit
// slot left of the number is blank (unlit segments only). A comma after
// every third digit from the right when `commas`.
void Number(cairo_t* cr, double right, double top, const SegStyle& s, const std::string& digits,
            int cells, double pitch, bool commas) {
  int n = static_cast<int>(digits.size());
  double x = right - pitch * cells;
  for (int i = 0; i < cells; ++i, x += pitch) {
    int k = i - (cells - n);
    int d = k >= 0 ? digits[k] - '0' : -1;
    Digit(cr, x, top, s, d);
    int from_right = cells - 1 - i;
    if (commas && k >= 0 && from_right > 0 && from_right % 3 == 0) {
      cairo_set_source_rgb(cr, s.lit.r, s.lit.g, s.lit.b);
      double cx = x + s.w + (pitch - s.w) / 2;
      cairo_rectangle(cr, cx - s.t / 2, top + s.h - s.t, s.t, s.t * 1.6);
      cairo_fill(cr);
    }
  }
}

}  // namespace

Pix* DrawPolygonMeter(Rng& rng, GroundTruth* t, bool* lcd_out) {
  t->kind = DocKind::kTaxi;
  bool lcd = rng.Chance(0.35);
  *lcd_out = lcd;
  t->layout = lcd ? "lcd_meter" : "seg_meter";
  // Fares from 4,800 won to the 500,000 cap, in fields of 5-7 digits.
  int64_t fare = 4800 + int64_t{rng.Int(0, 300)} * 100;
  if (rng.Chance(0.15)) fare = int64_t{rng.Int(100, 4900)} * 100;  // up to the 500,000 cap
  t->amount = fare;
  SegStyle s;
  s.h = rng.Real(60, 110);
  s.w = s.h * rng.Real(0.48, 0.62);
  s.t = s.h * rng.Real(0.08, 0.17);
  s.gap = s.t * rng.Real(0.05, 0.25) + 1.0;
  s.slant = rng.Chance(0.45) ? rng.Real(0.06, 0.2) : 0;
  double contrast = rng.Real(0.03, 0.25);  // unlit segments: barely to clearly visible
  Rgb bg;
  if (lcd) {
    bool green = rng.Chance(0.6);
    double v = rng.Real(0.55, 0.8);
    bg = green ? Rgb{v * 0.8, v, v * 0.7} : Rgb{v, v, v * 0.97};
    double d = rng.Real(0.05, 0.25);
    s.lit = {d, d * 1.05, d};
    if (rng.Chance(0.3)) d = v - rng.Real(0.2, 0.32), s.lit = {d * 0.9, d, d * 0.85};  // faint
    s.unlit = {bg.r - (bg.r - d) * contrast, bg.g - (bg.g - d) * contrast,
               bg.b - (bg.b - d) * contrast};
  } else {
    const std::vector<Rgb> colors = {
        {1, 0.16, 0.1}, {0.25, 1, 0.35}, {1, 0.65, 0.05}, {0.35, 0.85, 1}, {1, 0.3, 0.2}};
    double b = rng.Real(0.02, 0.1);
    bg = {b, b, b * 1.1};
    s.lit = rng.Pick(colors);
    s.unlit = {bg.r + s.lit.r * contrast, bg.g + s.lit.g * contrast, bg.b + s.lit.b * contrast};
  }
  s.draw_unlit = rng.Chance(0.7);
  std::string digits = std::to_string(fare);
  int cells = std::max<int>(static_cast<int>(digits.size()), rng.Int(5, 7));
  bool commas = rng.Chance(0.3);
  double pitch = s.w * rng.Real(1.15, 1.4);
  bool won = rng.Chance(0.5);
  Font label{rng.Pick(kLabelFonts), s.h * rng.Real(0.2, 0.28), rng.Chance(0.5), false};
  Font won_font{label.family, s.h * rng.Real(0.35, 0.55), true, false};
  double won_w = won ? won_font.px * 1.3 : 0;
  int width = static_cast<int>(pitch * cells + won_w + s.h * rng.Real(0.6, 1.0) + s.slant * s.h);
  int height = static_cast<int>(s.h * rng.Real(2.0, 2.4));
  Canvas cv(width, height, bg);
  Rgb text = lcd ? s.lit : Rgb{0.85, 0.85, 0.85};
  cv.Text(s.h * 0.2, label.px * 0.3, rng.Pick<std::string>({"요금", "요 금", "FARE", "운임"}),
          label, text);
  double right = width - s.h * 0.3 - won_w;
  double top = label.px * 1.7;
  Number(cv.cr(), right, top, s, digits, cells, pitch, commas);
  if (won) cv.Text(right + won_font.px * 0.2, top + s.h - won_font.px * 1.2, "원", won_font, text);
  // A second, smaller counter: distance, time or 할증 fare.
  SegStyle small = s;
  double k = rng.Real(0.3, 0.45);
  small.h *= k, small.w *= k, small.t *= k, small.gap = std::max(1.0, s.gap * k);
  double y2 = top + s.h + s.h * 0.25;
  std::string second;
  switch (rng.Int(0, 2)) {
    case 0:
      second = std::to_string(rng.Int(1, 350));
      break;  // 0.1 km
    case 1:
      second = std::to_string(rng.Int(100, 9959));
      break;  // mm:ss
    default:
      second = std::to_string(rng.Int(10, 99) * 100);
      break;
  }
  cv.Text(s.h * 0.2, y2, rng.Pick<std::string>({"km", "거리", "시간", "할증"}), label, text);
  Number(cv.cr(), width - s.h * 0.3, y2, small, second, 4, small.w * 1.3, false);
  if (rng.Chance(0.3)) {
    // Glare: a soft bright spot on the glass.
    cairo_t* cr = cv.cr();
    double gx = rng.Real(0.1, 0.9) * width, gy = rng.Real(0.1, 0.9) * height;
    double gr = rng.Real(0.3, 0.8) * height;
    cairo_pattern_t* glare = cairo_pattern_create_radial(gx, gy, 0, gx, gy, gr);
    cairo_pattern_add_color_stop_rgba(glare, 0, 1, 1, 1, rng.Real(0.15, 0.45));
    cairo_pattern_add_color_stop_rgba(glare, 1, 1, 1, 1, 0);
    cairo_set_source(cr, glare);
    cairo_paint(cr);
    cairo_pattern_destroy(glare);
  }
  Pix* glass = cv.ToPix();
  if (!rng.Chance(0.4)) return glass;
  // A dark bezel around the glass (the meter's housing).
  int m = static_cast<int>(s.h * rng.Real(0.25, 0.8));
  int gw = pixGetWidth(glass), gh = pixGetHeight(glass);
  Pix* framed = pixCreate(gw + 2 * m, gh + 2 * m, 32);
  int v = rng.Int(10, 50);
  l_uint32 dark = 0;
  composeRGBPixel(v, v, v + rng.Int(0, 10), &dark);
  pixSetAllArbitrary(framed, dark);
  pixRasterop(framed, m, m, gw, gh, PIX_SRC, glass, 0, 0);
  pixDestroy(&glass);
  *lcd_out = false;  // dark housing: photographed in a dark cabin
  return framed;
}

}  // namespace nunchi::render
