#include "preprocess.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nunchi::extract {
namespace {

// The page's tilt in degrees. pixFindSkew sweeps ±7° and reports no
// confidence for a tilt near its edge: a 6° photo was read unrotated, into
// garbage that also took Tesseract seconds. Only then is a sweep of ±wide_deg
// asked, and only a tilt over 5° that the narrow sweep could not see taken.
bool FindPageSkew(Pix* binary, float wide_deg, l_float32* deg, l_float32* conf) {
  if (pixFindSkew(binary, deg, conf) != 0) return false;
  if (*conf > 0.8f || wide_deg <= 7) return true;
  l_float32 wdeg = 0, wconf = 0;
  if (pixFindSkewSweepAndSearch(binary, &wdeg, &wconf, 4, 2, wide_deg, 1.0f, 0.01f) == 0 &&
      std::abs(wdeg) >= 5.0f) {
    *deg = wdeg, *conf = wconf;
  }
  return true;
}

// The pixels well above their neighbourhood's mean (light strokes) and those
// well below it (dark strokes), on a copy at most 1000 px wide. Thin text
// stands out from a mean that is mostly its ground, so the text's side
// wins; a broad shadow or a light area's edge counts on both sides alike.
struct StrokeCounts {
  long light = 0, dark = 0, pixels = 0;
  // > 0: dark strokes dominate, < 0: light ones, 0: no clear side.
  int Polarity() const {
    if (light + dark < 200) return 0;
    if (dark > 2 * light) return 1;
    if (light > 2 * dark) return -1;
    return 0;
  }
  // Share of pixels that stand out: a few % on a page, most of a noisy photo.
  double Busy() const { return pixels > 0 ? static_cast<double>(light + dark) / pixels : 0; }
};

StrokeCounts CountStrokes(Pix* gray) {
  StrokeCounts c;
  int w = pixGetWidth(gray), h = pixGetHeight(gray);
  double f = std::min(1.0, 1000.0 / std::max(w, h));
  PixPtr small(f < 1 ? pixScaleAreaMap(gray, static_cast<l_float32>(f), static_cast<l_float32>(f))
                     : pixCopy(nullptr, gray));
  if (!small) return c;
  int sw = pixGetWidth(small.get()), sh = pixGetHeight(small.get());
  int half = std::max(6, std::min(sw, sh) / 50);
  if (sw <= 2 * half + 1 || sh <= 2 * half + 1) return c;
  PixPtr mean(pixBlockconvGray(small.get(), nullptr, half, half));
  if (!mean) return c;
  const l_uint32* sd = pixGetData(small.get());
  const l_uint32* md = pixGetData(mean.get());
  int swpl = pixGetWpl(small.get()), mwpl = pixGetWpl(mean.get());
  for (int y = half; y < sh - half; ++y) {
    for (int x = half; x < sw - half; ++x) {
      int d = static_cast<int>(GET_DATA_BYTE(sd + y * swpl, x)) -
              static_cast<int>(GET_DATA_BYTE(md + y * mwpl, x));
      c.light += d > 40;
      c.dark += d < -40;
      ++c.pixels;
    }
  }
  return c;
}

// True when the middle of the image is mostly darker than its Otsu split:
// light text on a dark ground (app dark themes, displays). A page half in
// shadow splits into shadow and light too; its strokes are dark, so it is
// not inverted.
bool MostlyDark(Pix* gray) {
  int w = pixGetWidth(gray), h = pixGetHeight(gray);
  ::Box* center = boxCreate(w / 5, h / 5, w * 3 / 5, h * 3 / 5);
  Pix* mid = pixClipRectangle(gray, center, nullptr);
  boxDestroy(&center);
  if (mid == nullptr) return false;
  l_int32 thresh = 128;
  Pix* bin = nullptr;
  pixSplitDistributionFgBg(mid, 0.1f, 1, &thresh, nullptr, nullptr, 0);
  bin = pixThresholdToBinary(mid, thresh);
  l_float32 fraction = 0;
  if (bin != nullptr) pixForegroundFraction(bin, &fraction);
  pixDestroy(&bin);
  bool dark = fraction > 0.55f && CountStrokes(mid).Polarity() <= 0;
  pixDestroy(&mid);
  return dark;
}

PixPtr Sauvola(Pix* gray, int window) {
  Pix* out = nullptr;
  int w = pixGetWidth(gray), h = pixGetHeight(gray);
  window = std::clamp(window, 7, std::max(7, std::min(w, h) / 3));
  int nx = std::max(1, w / 800), ny = std::max(1, h / 800);
  if (pixSauvolaBinarizeTiled(gray, window, 0.34f, nx, ny, nullptr, &out) != 0) return nullptr;
  return PixPtr(out);
}

// Finds the document (the largest bright region: paper or screen), whitens
// everything around it and crops to it. Returns the crop offset.
PixPtr IsolateDocument(Pix* gray, int* crop_x, int* crop_y) {
  *crop_x = *crop_y = 0;
  int w = pixGetWidth(gray), h = pixGetHeight(gray);
  double f = 256.0 / std::max(w, h);
  int sw = std::max(8, static_cast<int>(w * f)), sh = std::max(8, static_cast<int>(h * f));
  PixPtr small(pixScaleToSize(gray, sw, sh));
  if (!small) return nullptr;
  l_int32 thresh = 128;
  if (pixSplitDistributionFgBg(small.get(), 0.1f, 1, &thresh, nullptr, nullptr, 0) != 0) {
    return nullptr;
  }
  std::vector<uint8_t> bright(static_cast<size_t>(sw) * sh);
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      l_uint32 v = 0;
      pixGetPixel(small.get(), x, y, &v);
      bright[y * sw + x] = static_cast<int>(v) > thresh;
    }
  }
  // Largest 4-connected bright component.
  std::vector<int> label(bright.size(), -1), stack;
  int best = -1, best_area = 0, next = 0;
  for (int i = 0; i < sw * sh; ++i) {
    if (!bright[i] || label[i] >= 0) continue;
    int area = 0;
    stack.push_back(i);
    label[i] = next;
    while (!stack.empty()) {
      int p = stack.back();
      stack.pop_back();
      ++area;
      int x = p % sw, y = p / sw;
      const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (const auto& d : nb) {
        int nx = x + d[0], ny = y + d[1];
        if (nx < 0 || ny < 0 || nx >= sw || ny >= sh) continue;
        int q = ny * sw + nx;
        if (bright[q] && label[q] < 0) label[q] = next, stack.push_back(q);
      }
    }
    if (area > best_area) best_area = area, best = next;
    ++next;
  }
  if (best < 0 || best_area < 0.15 * sw * sh || best_area > 0.97 * sw * sh) return nullptr;
  // Row-convex fill: a photographed page is a convex quadrilateral.
  std::vector<int> left(sh, sw), right(sh, -1);
  int top = sh, bottom = -1, minx = sw, maxx = -1;
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      if (label[y * sw + x] != best) continue;
      left[y] = std::min(left[y], x), right[y] = std::max(right[y], x);
    }
    if (right[y] >= 0) {
      top = std::min(top, y), bottom = std::max(bottom, y);
      minx = std::min(minx, left[y]), maxx = std::max(maxx, right[y]);
    }
  }
  int cx0 = std::max(0, static_cast<int>(minx / f) - 4),
      cy0 = std::max(0, static_cast<int>(top / f) - 4);
  int cx1 = std::min(w, static_cast<int>((maxx + 1) / f) + 4);
  int cy1 = std::min(h, static_cast<int>((bottom + 1) / f) + 4);
  ::Box* crop = boxCreate(cx0, cy0, cx1 - cx0, cy1 - cy0);
  PixPtr out(pixClipRectangle(gray, crop, nullptr));
  boxDestroy(&crop);
  if (!out) return nullptr;
  int ow = pixGetWidth(out.get()), oh = pixGetHeight(out.get());
  l_uint32* data = pixGetData(out.get());
  int wpl = pixGetWpl(out.get());
  for (int y = 0; y < oh; ++y) {
    int sy = std::min(sh - 1, static_cast<int>((y + cy0) * f));
    // Shrink by one small pixel so the page edge itself is whitened too.
    int lo = left[sy] + 1, hi = right[sy] - 1;
    for (int x = 0; x < ow; ++x) {
      int sx = static_cast<int>((x + cx0) * f);
      if (sx < lo || sx > hi) SET_DATA_BYTE(data + y * wpl, x, 255);
    }
  }
  *crop_x = cx0, *crop_y = cy0;
  return out;
}

}  // namespace

Box PreparedGeometry::ToUpload(const Box& b) const {
  double cx = width / 2.0, cy = height / 2.0;
  double c = std::cos(angle_rad), s = std::sin(angle_rad);
  double xs[2] = {static_cast<double>(b.x), static_cast<double>(b.right())};
  double ys[2] = {static_cast<double>(b.y), static_cast<double>(b.bottom())};
  double minx = 1e18, miny = 1e18, maxx = -1e18, maxy = -1e18;
  for (double x : xs) {
    for (double y : ys) {
      // Undo a rotation by angle_rad about the centre, then the scaling.
      double dx = x - cx, dy = y - cy;
      double ux = (cx + c * dx + s * dy + crop_x) / scale;
      double uy = (cy - s * dx + c * dy + crop_y) / scale;
      minx = std::min(minx, ux), maxx = std::max(maxx, ux);
      miny = std::min(miny, uy), maxy = std::max(maxy, uy);
    }
  }
  return Box{static_cast<int>(std::lround(minx)), static_cast<int>(std::lround(miny)),
             static_cast<int>(std::lround(maxx - minx)),
             static_cast<int>(std::lround(maxy - miny))};
}

int MedianGlyphHeight(Pix* binary) {
  int w = pixGetWidth(binary), h = pixGetHeight(binary);
  Boxa* boxes = pixConnCompBB(binary, 8);
  if (boxes == nullptr) return 0;
  std::vector<int> heights;
  int n = boxaGetCount(boxes);
  for (int i = 0; i < n; ++i) {
    l_int32 bx, by, bw, bh;
    boxaGetBoxGeometry(boxes, i, &bx, &by, &bw, &bh);
    // Plausible glyph parts: not specks, not rules or photo edges.
    if (bh < 6 || bh > h / 6 || bw > 3 * bh || bw > w / 4) continue;
    if (bh >= 2 * bw && bw < 3) continue;
    heights.push_back(bh);
  }
  boxaDestroy(&boxes);
  if (heights.size() < 5) return 0;
  std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
  return heights[heights.size() / 2];
}

PreparedImage PrepareForOcr(Pix* input, const PrepareOptions& opt) {
  PreparedImage out;
  PixPtr gray(pixGetDepth(input) == 32 ? pixConvertRGBToLuminance(input) : pixConvertTo8(input, 0));
  if (!gray) return out;
  double scale = 1;
  // Bring huge photos down first so the measurements below stay cheap.
  int w = pixGetWidth(gray.get()), h = pixGetHeight(gray.get());
  if (w * static_cast<long>(h) > 4'000'000) {
    double s = std::sqrt(4'000'000.0 / (w * static_cast<double>(h)));
    gray.reset(pixScaleGrayLI(gray.get(), static_cast<l_float32>(s), static_cast<l_float32>(s)));
    scale *= s;
  }
  if (MostlyDark(gray.get())) {
    pixInvert(gray.get(), gray.get());
    out.inverted = true;
  }
  PixPtr first = Sauvola(gray.get(), 25);
  int glyph = first ? MedianGlyphHeight(first.get()) : 0;
  double s = glyph > 0 ? static_cast<double>(opt.target_glyph_px) / glyph : 1.0;
  s = std::clamp(s, 0.25, 3.0);
  w = pixGetWidth(gray.get()), h = pixGetHeight(gray.get());
  s = std::min(s, std::sqrt(opt.max_output_pixels / (w * static_cast<double>(h))));
  if (std::abs(s - 1) > 0.05) {
    auto fs = static_cast<l_float32>(s);
    gray.reset(s < 0.7 ? pixScaleAreaMap(gray.get(), fs, fs) : pixScaleGrayLI(gray.get(), fs, fs));
    scale *= s;
  }
  int crop_x = 0, crop_y = 0;
  PixPtr doc = IsolateDocument(gray.get(), &crop_x, &crop_y);
  bool found_document = doc != nullptr;
  if (doc) gray = std::move(doc);
  if (opt.normalize_background && found_document && CountStrokes(gray.get()).Busy() < 0.2) {
    // Shadows, fading and a lamp's falloff leave the ground uneven, and a
    // global threshold then drops whole lines; map the ground to one level
    // (Leptonica's tiled background estimate: tiles of 16 px, pixels under 60
    // are ink, a tile needs 40 ground pixels). Only on a page or screen that
    // was found and is not mostly specks: flattening a photo of no document
    // (sensor noise, a wall) brings out specks that read as digits.
    PixPtr flat(pixBackgroundNorm(gray.get(), nullptr, nullptr, 16, 16, 60, 40, 230, 2, 1));
    if (flat) gray = std::move(flat);
  }
  if (opt.sharpen) {
    // A second reading of a blurred photo: sharper strokes, other OCR slips.
    if (PixPtr sharp{pixUnsharpMaskingGray(gray.get(), 2, 0.5f)}) gray = std::move(sharp);
  }
  PixPtr bin = Sauvola(gray.get(), opt.target_glyph_px * 2);
  if (!bin) return out;
  double angle = 0;
  if (opt.deskew) {
    l_float32 deg = 0, conf = 0;
    if (FindPageSkew(bin.get(), opt.wide_skew_deg, &deg, &conf) && conf > 0.8f &&
        std::abs(deg) > 0.2f) {
      angle = deg * M_PI / 180;
      PixPtr rotated(pixRotate(gray.get(), static_cast<l_float32>(angle), L_ROTATE_AREA_MAP,
                               L_BRING_IN_WHITE, 0, 0));
      if (rotated)
        gray = std::move(rotated);
      else
        angle = 0;
    }
  }
  bin.reset();
  out.geometry.scale = scale;
  out.geometry.angle_rad = angle;
  out.geometry.crop_x = crop_x;
  out.geometry.crop_y = crop_y;
  out.geometry.width = pixGetWidth(gray.get());
  out.geometry.height = pixGetHeight(gray.get());
  out.image = std::move(gray);
  return out;
}

}  // namespace nunchi::extract
