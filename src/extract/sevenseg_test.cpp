// Seven-segment reader on synthetic faces drawn here (not by tools/render):
// every segment a separate hexagon with a gap, of the stroke widths, gaps,
// tilts and unlit brightness that independent meters use.
#include "extract/sevenseg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace nunchi::extract {
namespace {

struct Face {
  double h = 80;           // digit height, px
  double w = 0.5;          // digit width / height
  double t = 0.12;         // stroke / height
  double gap = 0.15;       // gap between segments / stroke (plus one pixel)
  double rotate_deg = 0;   // the photo's tilt
  bool unlit = false;      // unlit segments drawn dim
  bool faint_lcd = false;  // grey digits on a light green glass filling the photo
};

// True when (x, y) lies in the hexagon of a segment along the centre line
// from (x0, y0) to (x1, y1) (horizontal or vertical), half-thickness hw.
bool InSegment(double x, double y, double x0, double y0, double x1, double y1, double hw) {
  bool horizontal = y0 == y1;
  double along = horizontal ? x : y, lo = horizontal ? x0 : y0, hi = horizontal ? x1 : y1;
  double across = std::abs(horizontal ? y - y0 : x - x0);
  return across <= hw && along >= lo + across && along <= hi - across;
}

// An LED panel (orange on near black), or a faint LCD, showing `digits`.
PixPtr DrawPanel(const std::string& digits, const Face& f) {
  static const char* kSegs[10] = {"1111110", "0110000", "1101101", "1111001", "0110011",
                                  "1011011", "1011111", "1110000", "1111111", "1111011"};
  double H = f.h, W = f.w * H, t = f.t * H, g = f.gap * t + 1, pitch = 1.3 * W, hw = t / 2;
  int width = static_cast<int>(pitch * digits.size() + 2 * H), height = static_cast<int>(2.2 * H);
  PixPtr pix(pixCreate(width, height, 32));
  l_uint32 bg = 0, lit = 0, dim = 0;
  composeRGBPixel(18, 16, 20, &bg);
  composeRGBPixel(255, 150, 20, &lit);
  composeRGBPixel(70, 45, 14, &dim);
  if (f.faint_lcd) {
    composeRGBPixel(175, 200, 155, &bg);
    composeRGBPixel(125, 145, 110, &lit);
  }
  pixSetAllArbitrary(pix.get(), bg);
  double xl = hw, xr = W - hw, yt = hw, ym = H / 2, yb = H - hw;
  const double seg[7][4] = {{xl + g, yt, xr - g, yt}, {xr, yt + g, xr, ym - g},
                            {xr, ym + g, xr, yb - g}, {xl + g, yb, xr - g, yb},
                            {xl, ym + g, xl, yb - g}, {xl, yt + g, xl, ym - g},
                            {xl + g, ym, xr - g, ym}};
  for (size_t i = 0; i < digits.size(); ++i) {
    double ox = H + i * pitch, oy = 0.6 * H;
    for (int k = 0; k < 7; ++k) {
      bool on = kSegs[digits[i] - '0'][k] == '1';
      if (!on && !f.unlit) continue;
      for (int y = static_cast<int>(oy - 2); y <= oy + H + 2; ++y) {
        for (int x = static_cast<int>(ox - 2); x <= ox + W + 2; ++x) {
          if (InSegment(x - ox, y - oy, seg[k][0], seg[k][1], seg[k][2], seg[k][3], hw)) {
            pixSetPixel(pix.get(), x, y, on ? lit : dim);
          }
        }
      }
    }
  }
  if (f.rotate_deg != 0) {
    auto angle = static_cast<l_float32>(f.rotate_deg * M_PI / 180);
    pix.reset(pixRotate(pix.get(), angle, L_ROTATE_AREA_MAP, L_BRING_IN_BLACK, 0, 0));
  }
  return pix;
}

std::string Tallest(const PixPtr& pix) {
  std::vector<SevenSegReading> rows = ReadSevenSegment(pix.get());
  return rows.empty() ? "" : rows.front().digits;
}

// Strokes of a sixth of the digit height and wide gaps: the middle bar's
// zone stays clear of the thick vertical strokes, and the short lower
// strokes are no commas, so a 0 is neither an 8 nor two digits.
TEST(SevenSegmentFaces, ThickGappedStrokesReadAsZerosNotEights) {
  Face thick;
  thick.h = 70, thick.w = 0.55, thick.t = 0.17, thick.gap = 0.25;
  EXPECT_EQ(Tallest(DrawPanel("60900", thick)), "60900");
  thick.rotate_deg = 4;
  EXPECT_EQ(Tallest(DrawPanel("60900", thick)), "60900");
}

// A narrow face of thick strokes, tilted: the upper and lower strokes of a
// digit, offset sideways by the tilt, are one digit; 7 and 3 stay apart.
TEST(SevenSegmentFaces, TiltedNarrowThickFace) {
  Face narrow;
  narrow.h = 70, narrow.w = 0.48, narrow.t = 0.15, narrow.gap = 0.15;
  EXPECT_EQ(Tallest(DrawPanel("34700", narrow)), "34700");
  narrow.rotate_deg = 4;
  EXPECT_EQ(Tallest(DrawPanel("11800", narrow)), "11800");
  EXPECT_EQ(Tallest(DrawPanel("34700", narrow)), "34700");
}

// Zones only a third lit (a dim unlit segment crossing the mask's level in
// patches under glare) count as mostly unlit: a 7, not a 3.
TEST(SevenSegmentFaces, PatchyUnlitSegmentsAreUnlit) {
  const double seven[7] = {0.96, 1.0, 1.0, 0.3, 0.0, 0.0, 0.33};
  double confidence = 0;
  EXPECT_EQ(DecodeSegments(seven, &confidence), 7);
  const double eight[7] = {1.0, 0.9, 1.0, 0.85, 0.9, 1.0, 0.8};
  EXPECT_EQ(DecodeSegments(eight, &confidence), 8);
}

// Grey digits on a light glass, about 50 levels darker, the glass filling
// the photo (no housing to find it by): still read as an LCD.
TEST(SevenSegmentFaces, FaintLcdDigitsOnAGlassFillingThePhoto) {
  Face lcd;
  lcd.faint_lcd = true;
  std::vector<SevenSegReading> rows = ReadSevenSegment(DrawPanel("12700", lcd).get());
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().digits, "12700");
  EXPECT_TRUE(rows.front().dark);
}

}  // namespace
}  // namespace nunchi::extract
