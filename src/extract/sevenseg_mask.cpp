#include "sevenseg_mask.h"

#include <algorithm>

namespace nunchi::extract::sevenseg {
namespace {

// The LCD glass: the largest light region (above the Otsu level of the
// brightness) that does not touch the image border, as the left and right
// end of its pixels on each row (a rotated glass is convex, so the dark digit
// holes lie between them and the housing outside); empty when there is none
// (a glass filling the photo, or a light table around it).
struct Glass {
  std::vector<int> left, right;  // per row; left > right where not glass
  bool found = false;
};

Glass FindGlass(const std::vector<int>& bright, int w, int h) {
  // On a 4x smaller image, at several brightness levels (the glass may sit
  // between a dark housing and a white table): the largest light region
  // clear of the border.
  constexpr int kDs = 4;
  int sw = w / kDs, sh = h / kDs;
  Glass g;
  if (sw < 8 || sh < 8) return g;
  std::vector<int> small(static_cast<size_t>(sw) * sh);
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      int sum = 0;
      for (int dy = 0; dy < kDs; ++dy) {
        for (int dx = 0; dx < kDs; ++dx) sum += bright[(y * kDs + dy) * w + x * kDs + dx];
      }
      small[y * sw + x] = sum / (kDs * kDs);
    }
  }
  std::vector<int> sorted = small;
  std::sort(sorted.begin(), sorted.end());
  Mask light;
  light.w = sw, light.h = sh;
  light.on.resize(small.size());
  std::vector<int> labels, best_labels;
  Blob best_blob{};
  int best_pick = -1;
  long best_area = static_cast<long>(0.03 * sw * sh);
  for (double q : {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}) {
    int t = sorted[static_cast<size_t>(q * (sorted.size() - 1))];
    for (size_t i = 0; i < small.size(); ++i) light.on[i] = small[i] > t;
    std::vector<Blob> blobs = Components(light, &labels);
    for (size_t i = 0; i < blobs.size(); ++i) {
      const Blob& b = blobs[i];
      if (b.x0 <= 0 || b.y0 <= 0 || b.x1 >= sw - 1 || b.y1 >= sh - 1) continue;
      long box = static_cast<long>(b.W()) * b.H();
      if (b.area < best_area || box < 0.05 * sw * sh || b.H() < 4) continue;
      best_area = b.area, best_pick = static_cast<int>(i), best_blob = b;
      best_labels = labels;
    }
  }
  if (best_pick < 0) return g;
  g.found = true;
  g.left.assign(h, w), g.right.assign(h, -1);
  // Two small pixels in from the glass edge: the edge itself is dark
  // against the glass and would read as a stroke.
  for (int y = best_blob.y0 + 2; y <= best_blob.y1 - 2; ++y) {
    int lo = sw, hi = -1;
    for (int x = best_blob.x0; x <= best_blob.x1; ++x) {
      if (best_labels[y * sw + x] != best_pick) continue;
      lo = std::min(lo, x), hi = std::max(hi, x);
    }
    if (hi - lo < 5) continue;
    for (int dy = 0; dy < kDs; ++dy) {
      g.left[y * kDs + dy] = (lo + 2) * kDs,
                       g.right[y * kDs + dy] = std::min(w - 1, (hi - 1) * kDs - 1);
    }
  }
  return g;
}

}  // namespace

std::vector<Blob> Components(const Mask& m, std::vector<int>* labels) {
  std::vector<Blob> blobs;
  std::vector<uint8_t> seen(m.on.size(), 0);
  std::vector<int> members;
  if (labels) labels->assign(m.on.size(), -1);
  std::vector<int> stack;
  for (int i = 0; i < static_cast<int>(m.on.size()); ++i) {
    if (!m.on[i] || seen[i]) continue;
    Blob b{m.w, m.h, -1, -1, 0};
    stack.push_back(i);
    seen[i] = 1;
    while (!stack.empty()) {
      int p = stack.back();
      stack.pop_back();
      int x = p % m.w, y = p / m.w;
      if (labels) members.push_back(p);
      b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x);
      b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
      ++b.area;
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= m.w || ny >= m.h) continue;
          int q = ny * m.w + nx;
          if (m.on[q] && !seen[q]) seen[q] = 1, stack.push_back(q);
        }
      }
    }
    if (b.area >= 8) {
      if (labels) {
        for (int p : members) (*labels)[p] = static_cast<int>(blobs.size());
      }
      blobs.push_back(b);
    }
    members.clear();
  }
  return blobs;
}

Mask Dilate(const Mask& m, int r) {
  Mask tmp = m, out = m;
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      bool on = false;
      for (int d = -r; d <= r && !on; ++d) on = m.At(x + d, y);
      tmp.on[y * m.w + x] = on;
    }
  }
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      bool on = false;
      for (int d = -r; d <= r && !on; ++d) on = tmp.At(x, y + d);
      out.on[y * m.w + x] = on;
    }
  }
  return out;
}

Mask LitMask(Pix* rgb, bool dark, double level) {
  Mask m;
  m.w = pixGetWidth(rgb), m.h = pixGetHeight(rgb);
  std::vector<int> lit(static_cast<size_t>(m.w) * m.h);
  l_uint32* data = pixGetData(rgb);
  int wpl = pixGetWpl(rgb);
  for (int y = 0; y < m.h; ++y) {
    for (int x = 0; x < m.w; ++x) {
      l_int32 r, g, b;
      extractRGBValues(data[y * wpl + x], &r, &g, &b);
      int mx = std::max({r, g, b}), mn = std::min({r, g, b});
      double sat = mx > 0 ? (mx - mn) / static_cast<double>(mx) : 0;
      // LED segments are saturated colours; white UI text is not. LCD
      // segments are dark on a light green or grey glass: darkness.
      int v =
          dark ? 255 - (r + g + b) / 3 : (sat < 0.3 ? 0 : static_cast<int>(mx * (0.5 + 0.5 * sat)));
      lit[y * m.w + x] = v;
    }
  }
  // LCD: the level statistics come from the glass only, so that a dark
  // housing or cabin around it neither sets the median nor the high level.
  Glass glass;
  if (dark) {
    std::vector<int> bright(lit.size());
    for (size_t i = 0; i < lit.size(); ++i) bright[i] = 255 - lit[i];
    glass = FindGlass(bright, m.w, m.h);
  }
  auto from = [&](int y) { return glass.found ? glass.left[y] : 0; };
  auto to = [&](int y) { return glass.found ? glass.right[y] : m.w - 1; };
  std::vector<int> hist(256, 0);
  long total = 0, acc = 0;
  for (int y = 0; y < m.h; ++y) {
    for (int x = from(y); x <= to(y); ++x) ++hist[lit[y * m.w + x]], ++total;
  }
  int median = 0, high = 255;
  for (int v = 0; v < 256; ++v) {
    acc += hist[v];
    if (acc >= total / 2 && median == 0) median = v;
    if (acc >= total * 0.995) {
      high = v;
      break;
    }
  }
  m.on.assign(lit.size(), 0);
  // No lit display on a dark ground (LED), or no dark digits on a light one
  // (LCD; a glass found inside a housing may be of lower contrast).
  if (high - median < (glass.found || dark ? 40 : 60) || median > (dark ? 170 : 110)) return m;
  int t = median + static_cast<int>(level * (high - median));
  for (size_t i = 0; i < lit.size(); ++i) m.on[i] = lit[i] > t;
  if (glass.found) {
    // The housing around the glass is dark too: drop regions far larger
    // than a digit (a frame spanning the photo, the cabin).
    std::vector<int> labels;
    std::vector<Blob> blobs = Components(m, &labels);
    std::vector<uint8_t> huge(blobs.size());
    for (size_t i = 0; i < blobs.size(); ++i) {
      huge[i] = blobs[i].W() > 0.6 * m.w || blobs[i].H() > 0.8 * m.h;
    }
    for (size_t i = 0; i < lit.size(); ++i) {
      if (labels[i] >= 0 && huge[labels[i]]) m.on[i] = 0;
    }
  }
  return m;
}

}  // namespace nunchi::extract::sevenseg
