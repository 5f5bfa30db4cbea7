// Photo effects: scene, scale, rotation, perspective, blur, lighting, noise,
// and encoding. Uses Leptonica for the geometric transforms.
#include <leptonica/allheaders.h>

#include <algorithm>
#include <cmath>

#include "render_internal.h"

namespace nunchi::render {

std::string WithCommas(int64_t amount) {
  std::string digits = std::to_string(amount < 0 ? -amount : amount), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return amount < 0 ? "-" + out : out;
}

std::string FormatWon(int64_t amount, int style) {
  switch (style) {
    case 1:
      return WithCommas(amount) + "원";
    case 2:
      return "₩" + WithCommas(amount);
    case 3:
      return "￦" + WithCommas(amount);
    case 4:
      return "\\" + WithCommas(amount);
    case 5:
      return WithCommas(amount) + " 원";
    default:
      return WithCommas(amount);
  }
}

namespace {

// The same random harmonic warp on each colour channel (Leptonica warps 8 bpp).
Pix* Warp(Pix* rgb, double magnitude, uint32_t seed) {
  Pix* ch[3] = {nullptr, nullptr, nullptr};
  const l_int32 comps[3] = {COLOR_RED, COLOR_GREEN, COLOR_BLUE};
  for (int i = 0; i < 3; ++i) {
    Pix* c = pixGetRGBComponent(rgb, comps[i]);
    ch[i] = pixRandomHarmonicWarp(c, static_cast<l_float32>(magnitude),
                                  static_cast<l_float32>(magnitude), 0.06f, 0.04f, 2, 2, seed, 255);
    pixDestroy(&c);
  }
  Pix* out = ch[0] && ch[1] && ch[2] ? pixCreateRGBImage(ch[0], ch[1], ch[2]) : nullptr;
  for (Pix*& c : ch) pixDestroy(&c);
  return out;
}

}  // namespace

Pix* ApplyPhotoEffects(Pix* content, Rng& rng, const PhotoStyle& st) {
  if (st.warp > 0 && rng.Chance(0.5)) {
    Pix* warped = Warp(content, rng.Real(0.3, 1.0) * st.warp, static_cast<uint32_t>(rng.Next()));
    if (warped != nullptr) pixDestroy(&content), content = warped;
  }
  if (st.max_cut > 0 && rng.Chance(0.3)) {
    // A photo that cuts off the left, right or bottom margin of the paper.
    int cw = pixGetWidth(content), ch = pixGetHeight(content);
    int side = rng.Int(0, 2);
    int cut = static_cast<int>((side == 2 ? ch : cw) * rng.Real(0.01, st.max_cut));
    Box* keep = side == 0   ? boxCreate(cut, 0, cw - cut, ch)
                : side == 1 ? boxCreate(0, 0, cw - cut, ch)
                            : boxCreate(0, 0, cw, ch - cut);
    Pix* clipped = pixClipRectangle(content, keep, nullptr);
    boxDestroy(&keep);
    if (clipped != nullptr) pixDestroy(&content), content = clipped;
  }
  int w = pixGetWidth(content), h = pixGetHeight(content);
  int m = static_cast<int>(std::max(w, h) * rng.Real(0.04, 0.14));
  int sw = w + 2 * m, sh = h + 2 * m;
  // Scene background: a table (light to mid tones) or a dark cabin.
  double base = st.dark_scene ? rng.Real(0.05, 0.25) : rng.Real(0.25, 0.7);
  int r = static_cast<int>(255 * base * rng.Real(0.85, 1.15));
  int g = static_cast<int>(255 * base);
  int b = static_cast<int>(255 * base * rng.Real(0.8, 1.1));
  Pix* scene = pixCreate(sw, sh, 32);
  l_uint32 bgpix = 0;
  composeRGBPixel(std::min(r, 255), g, std::min(b, 255), &bgpix);
  pixSetAllArbitrary(scene, bgpix);
  pixRasterop(scene, m + rng.Int(-m / 2, m / 2), m + rng.Int(-m / 2, m / 2), w, h, PIX_SRC, content,
              0, 0);
  pixDestroy(&content);

  Pix* cur = scene;
  auto replace = [&cur](Pix* next) {
    if (next == nullptr) return;
    pixDestroy(&cur);
    cur = next;
  };
  double scale = rng.Real(0.7, 1.35);
  replace(pixScale(cur, static_cast<l_float32>(scale), static_cast<l_float32>(scale)));
  int incolor = st.dark_scene ? L_BRING_IN_BLACK : L_BRING_IN_WHITE;
  double angle = rng.Real(-st.max_rotation_deg, st.max_rotation_deg) * M_PI / 180;
  replace(pixRotate(cur, static_cast<l_float32>(angle), L_ROTATE_AREA_MAP, incolor, 0, 0));
  if (st.max_perspective > 0) {
    int cw = pixGetWidth(cur), ch = pixGetHeight(cur);
    double p = st.max_perspective;
    Pta* src = ptaCreate(4);
    Pta* dst = ptaCreate(4);
    const double cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; ++i) {
      ptaAddPt(src, static_cast<l_float32>(cx[i] * cw), static_cast<l_float32>(cy[i] * ch));
      ptaAddPt(dst, static_cast<l_float32>((cx[i] + rng.Real(-p, p)) * cw),
               static_cast<l_float32>((cy[i] + rng.Real(-p, p)) * ch));
    }
    replace(pixProjectivePta(cur, dst, src, incolor));
    ptaDestroy(&src);
    ptaDestroy(&dst);
  }
  int blur = static_cast<int>(std::floor(rng.Real(0, st.max_blur + 0.99)));
  if (blur > 0) replace(pixBlockconv(cur, blur, blur));
  // Uneven light and sensor noise.
  double noise = rng.Real(0, st.max_noise);
  double gx = rng.Real(-0.25, 0.25), gy = rng.Real(-0.25, 0.25);
  int cw = pixGetWidth(cur), ch = pixGetHeight(cur), wpl = pixGetWpl(cur);
  l_uint32* data = pixGetData(cur);
  for (int y = 0; y < ch; ++y) {
    for (int x = 0; x < cw; ++x) {
      double light =
          1 + gx * (x / static_cast<double>(cw) - 0.5) + gy * (y / static_cast<double>(ch) - 0.5);
      double n = noise * rng.Gauss();
      l_int32 pr, pg, pb;
      extractRGBValues(data[y * wpl + x], &pr, &pg, &pb);
      auto clamp = [](double v) { return static_cast<l_int32>(std::clamp(v, 0.0, 255.0)); };
      composeRGBPixel(clamp(pr * light + n), clamp(pg * light + n), clamp(pb * light + n),
                      &data[y * wpl + x]);
    }
  }
  return cur;
}

std::vector<uint8_t> EncodeImage(Pix* pix, bool jpeg, int quality) {
  l_uint8* data = nullptr;
  size_t size = 0;
  l_ok rc = jpeg ? pixWriteMemJpeg(&data, &size, pix, quality, 0)
                 : pixWriteMem(&data, &size, pix, IFF_PNG);
  std::vector<uint8_t> out;
  if (rc == 0 && data != nullptr) out.assign(data, data + size);
  lept_free(data);
  return out;
}

}  // namespace nunchi::render
