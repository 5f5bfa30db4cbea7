// Masks for the seven-segment reader (sevenseg.cpp): the lit-segment mask of
// a photo (LED: bright saturated pixels; LCD: dark pixels, levels taken on
// the glass), connected components and dilation. Internal to the extraction
// layer. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "pix.h"

namespace nunchi::extract::sevenseg {

struct Mask {
  int w = 0, h = 0;
  std::vector<uint8_t> on;
  bool At(int x, int y) const { return x >= 0 && y >= 0 && x < w && y < h && on[y * w + x]; }
};

struct Blob {
  int x0, y0, x1, y1;  // inclusive
  int area;
  int W() const { return x1 - x0 + 1; }
  int H() const { return y1 - y0 + 1; }
  double cx() const { return (x0 + x1) / 2.0; }
  double cy() const { return (y0 + y1) / 2.0; }
};

// Lit-segment mask: bright, saturated (red, green, amber or blue LED) pixels
// well above the panel level; or, with `dark`, dark pixels on the LCD glass
// (regions far larger than a digit, such as the housing, dropped). `level`
// is the threshold between the panel's median and its brightest 0.5 %.
Mask LitMask(Pix* rgb, bool dark, double level);

// Connected components (8-connected) of at least 8 pixels; with `labels`,
// each pixel's component index (-1 for none or a dropped speck).
std::vector<Blob> Components(const Mask& m, std::vector<int>* labels = nullptr);

// Square dilation by r pixels (separable).
Mask Dilate(const Mask& m, int r);

}  // namespace nunchi::extract::sevenseg
