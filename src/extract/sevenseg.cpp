#include "sevenseg.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sevenseg_mask.h"

namespace nunchi::extract {
namespace {

using sevenseg::Blob;
using sevenseg::Components;
using sevenseg::Dilate;
using sevenseg::LitMask;
using sevenseg::Mask;

int Find(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// Joins the upper and lower halves of a digit: blobs of similar height
// stacked vertically, overlapping horizontally, with a gap within `fy` of the
// taller one. The small counters under the fare differ in height and stay apart.
std::vector<Blob> MergeStacked(const std::vector<Blob>& in, double fy) {
  std::vector<int> parent(in.size());
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t j = i + 1; j < in.size(); ++j) {
      const Blob &a = in[i], &b = in[j];
      int overlap = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
      int vgap = std::max(a.y0, b.y0) - std::min(a.y1, b.y1);
      double ratio = static_cast<double>(a.H()) / b.H();
      bool alike = ratio > 0.5 && ratio < 2.0 && vgap <= fy * std::max(a.H(), b.H());
      bool near = alike && overlap >= 0.5 * std::min(a.W(), b.W());
      // The thin upper and lower vertical strokes of a gapped digit, offset
      // sideways by the tilt or the italic slant: stacked (barely
      // overlapping in y), offset by less than a third of their height.
      bool offset = alike && vgap >= -0.3 * std::min(a.H(), b.H()) &&
                    overlap >= 0.5 * std::min(a.W(), b.W()) - 0.3 * std::max(a.H(), b.H());
      near = near || offset;
      if (near) parent[Find(parent, static_cast<int>(i))] = Find(parent, static_cast<int>(j));
    }
  }
  std::vector<Blob> out;
  std::vector<int> slot(in.size(), -1);
  for (size_t i = 0; i < in.size(); ++i) {
    int r = Find(parent, static_cast<int>(i));
    if (slot[r] < 0) {
      slot[r] = static_cast<int>(out.size());
      out.push_back(in[i]);
      continue;
    }
    Blob& o = out[slot[r]];
    o.x0 = std::min(o.x0, in[i].x0), o.y0 = std::min(o.y0, in[i].y0);
    o.x1 = std::max(o.x1, in[i].x1), o.y1 = std::max(o.y1, in[i].y1);
    o.area += in[i].area;
  }
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Segment zones in the digit cell, as fractions of its width (u) and height
// (v) from its centre. A horizontal segment is lit in the fraction of the
// zone's columns that hold a lit pixel, a vertical one in the fraction of
// rows: robust to stroke width and position, which vary between fonts.
struct Zone {
  double u0, u1, v0, v1;
  bool horizontal;
};
const Zone kZones[7] = {
    {-0.25, 0.25, -0.52, -0.33, true},    // a
    {0.08, 0.58, -0.33, -0.10, false},    // b
    {0.08, 0.58, 0.10, 0.33, false},      // c
    {-0.25, 0.25, 0.33, 0.52, true},      // d
    {-0.58, -0.08, 0.10, 0.33, false},    // e
    {-0.58, -0.08, -0.33, -0.10, false},  // f
    {-0.25, 0.25, -0.10, 0.10, true},     // g
};

struct DigitRead {
  int digit = -1;
  double confidence = 0;
};

// `half` is the half-width (in u) of the horizontal segments' zones: the
// middle of the a, d and g bars, clear of thick vertical strokes (a 0 drawn
// with strokes of a sixth of its height read as an 8).
DigitRead ReadCell(const Mask& m, double cx, double cy, double W, double H, double angle,
                   double slant, double half = 0.25) {
  double lit[7];
  double c = std::cos(angle), s = std::sin(angle);
  auto on = [&](double u, double v) {
    double ly = v * H, lx = u * W - slant * ly;
    return m.At(static_cast<int>(std::lround(cx + c * lx - s * ly)),
                static_cast<int>(std::lround(cy + s * lx + c * ly)));
  };
  double du = 1.0 / std::max(4.0, W), dv = 1.0 / std::max(4.0, H);
  for (int k = 0; k < 7; ++k) {
    Zone z = kZones[k];
    if (z.horizontal) z.u0 = -half, z.u1 = half;
    int hits = 0, lines = 0;
    if (z.horizontal) {
      for (double u = z.u0; u <= z.u1; u += du, ++lines) {
        for (double v = z.v0; v <= z.v1; v += dv) {
          if (on(u, v)) {
            ++hits;
            break;
          }
        }
      }
    } else {
      for (double v = z.v0; v <= z.v1; v += dv, ++lines) {
        for (double u = z.u0; u <= z.u1; u += du) {
          if (on(u, v)) {
            ++hits;
            break;
          }
        }
      }
    }
    lit[k] = lines > 0 ? static_cast<double>(hits) / lines : 0;
  }
  DigitRead r;
  r.digit = DecodeSegments(lit, &r.confidence);
  return r;
}

// Italic slant (x shift per unit of height, rightward at the top) that makes
// the vertical strokes of the row sharpest in a column projection.
double EstimateSlantByProjection(const Mask& m, const std::vector<Blob>& row, double angle) {
  int x0 = row.front().x0, x1 = row.back().x1, y0 = m.h, y1 = 0;
  for (const Blob& b : row) y0 = std::min(y0, b.y0), y1 = std::max(y1, b.y1);
  double cx = (x0 + x1) / 2.0, cy = (y0 + y1) / 2.0;
  double c = std::cos(angle), s = std::sin(angle);
  std::vector<std::pair<double, double>> pts;  // de-rotated (u, v)
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (!m.At(x, y)) continue;
      double dx = x - cx, dy = y - cy;
      pts.emplace_back(c * dx + s * dy, -s * dx + c * dy);
    }
  }
  double best = 0, best_score = -1;
  int span = x1 - x0 + static_cast<int>(y1 - y0) + 4;
  std::vector<int> hist(static_cast<size_t>(2 * span + 1));
  for (double slant = -0.05; slant <= 0.36; slant += 0.025) {
    std::fill(hist.begin(), hist.end(), 0);
    for (const auto& [u, v] : pts) {
      int bin = static_cast<int>(std::lround(u + slant * v)) + span;
      if (bin >= 0 && bin < static_cast<int>(hist.size())) ++hist[bin];
    }
    double score = 0;
    for (int h : hist) score += static_cast<double>(h) * h;
    if (score > best_score) best_score = score, best = slant;
  }
  return best;
}

// Italic slant (x shift per unit of height, rightward at the top): the
// median over the row's digits of the lean of their right edge, which is a
// vertical stroke in most digits, corrected for the row's rotation.
double EstimateSlant(const Mask& m, const std::vector<Blob>& row, double angle) {
  std::vector<double> slants;
  for (const Blob& b : row) {
    int y0 = b.y0 + b.H() / 10, y1 = b.y1 - b.H() / 10;
    double n = 0, sy = 0, sx = 0, syy = 0, sxy = 0;
    for (int y = y0; y <= y1; ++y) {
      int right = -1;
      for (int x = b.x1; x >= b.x0; --x) {
        if (m.At(x, y)) {
          right = x;
          break;
        }
      }
      if (right < 0) continue;
      n += 1, sy += y, sx += right, syy += static_cast<double>(y) * y,
          sxy += static_cast<double>(y) * right;
    }
    double den = n * syy - sy * sy;
    if (n < 5 || den <= 0) continue;
    double dxdy = (n * sxy - sy * sx) / den;
    slants.push_back(-dxdy - std::tan(angle));
  }
  if (slants.empty()) return 0;
  std::nth_element(slants.begin(), slants.begin() + slants.size() / 2, slants.end());
  return std::clamp(slants[slants.size() / 2], -0.1, 0.4);
}

// A row read cell by cell from its undilated strokes. The strokes of one
// digit overlap in x once the slant is undone, even when every segment is a
// separate polygon with a gap to the next (a horizontal segment spans the
// columns), while neighbouring digits leave a gap: so cells are the runs of
// overlapping stroke intervals, not connected blobs. Strokes under a quarter
// of the row height (commas, points, specks) are left out; a cell under 0.6
// of it (a 원 sign, a label) is no digit, nor is an undecodable cell at
// either end of the row.
struct CellRead {
  std::string digits;
  double confidence = 0;
  int cells = 0;
};

CellRead ReadRowByStrokes(const Mask& m, const std::vector<Blob>& strokes,
                          const std::vector<int>& labels, double rcx, double rcy, double H,
                          double angle, double slant) {
  double c = std::cos(angle), s = std::sin(angle);
  struct Span {
    double u0, u1, v0, v1;
  };
  std::vector<Span> spans;
  for (size_t i = 0; i < strokes.size(); ++i) {
    const Blob& b = strokes[i];
    if (std::max(b.W(), b.H()) < 0.16 * H) continue;
    if (b.W() > 1.3 * H || b.H() > 1.5 * H) continue;  // a frame or glare, not a stroke
    double dx = b.cx() - rcx, dy = b.cy() - rcy;
    double v = -s * dx + c * dy, u = c * dx + s * dy;
    if (std::abs(v) > 0.6 * H || std::abs(u) > 12 * H) continue;
    Span sp{1e9, -1e9, 1e9, -1e9};
    for (int y = b.y0; y <= b.y1; ++y) {
      for (int x = b.x0; x <= b.x1; ++x) {
        if (labels[y * m.w + x] != static_cast<int>(i)) continue;
        double px = x - rcx, py = y - rcy;
        double pv = -s * px + c * py, pu = c * px + s * py + slant * pv;
        sp.u0 = std::min(sp.u0, pu), sp.u1 = std::max(sp.u1, pu);
        sp.v0 = std::min(sp.v0, pv), sp.v1 = std::max(sp.v1, pv);
      }
    }
    if (sp.u1 < sp.u0) continue;
    // A comma or point between digits (small, low in the row) would bridge
    // two cells into one wide one (24,700 read as 2,800): no stroke.
    // Its top lies well below the middle: a lower vertical segment (c, e)
    // as short as a comma starts at the middle, and is no dot.
    bool dot = sp.u1 - sp.u0 < 0.2 * H && sp.v1 - sp.v0 < 0.32 * H && sp.v0 > 0.15 * H;
    if (!dot) spans.push_back(sp);
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.u0 < b.u0; });
  std::vector<Span> cells;
  double tol = 1.0 + 0.02 * H;
  for (const Span& sp : spans) {
    if (!cells.empty() && sp.u0 <= cells.back().u1 + tol) {
      Span& g = cells.back();
      g.u1 = std::max(g.u1, sp.u1), g.v0 = std::min(g.v0, sp.v0), g.v1 = std::max(g.v1, sp.v1);
    } else {
      cells.push_back(sp);
    }
  }
  std::erase_if(cells, [&](const Span& g) { return g.v1 - g.v0 < 0.6 * H; });
  CellRead out;
  if (cells.size() < 2) return out;
  std::vector<double> widths, centres, gaps;
  for (size_t i = 0; i < cells.size(); ++i) {
    const Span& g = cells[i];
    if (g.u1 - g.u0 > 0.4 * H) widths.push_back(g.u1 - g.u0 + 1);
    centres.push_back((g.v0 + g.v1) / 2);
    if (i > 0) gaps.push_back(g.u0 - cells[i - 1].u1);
  }
  double W = widths.empty() ? 0.55 * H : Median(widths);
  // The pitch grid: a cell about two or three digit widths wide is as many
  // digits whose strokes touched (a bridge, blur); split it on the grid.
  double gap = std::clamp(Median(gaps), 0.05 * W, 0.6 * W);
  std::vector<Span> split;
  for (const Span& g : cells) {
    double width = g.u1 - g.u0 + 1;
    int k = static_cast<int>(std::lround((width + gap) / (W + gap)));
    if (width < 1.7 * W || k < 2 || k > 4) {
      split.push_back(g);
      continue;
    }
    double step = (width + gap) / k;
    for (int i = 0; i < k; ++i) {
      Span part = g;
      part.u0 = g.u0 + i * step;
      part.u1 = part.u0 + step - gap - 1;
      split.push_back(part);
    }
  }
  cells = std::move(split);
  // The vertical strokes' thickness: the horizontal zones stay clear of it.
  std::vector<double> thick;
  for (const Span& sp : spans) {
    if (sp.v1 - sp.v0 > 2 * (sp.u1 - sp.u0)) thick.push_back(sp.u1 - sp.u0 + 1);
  }
  double half = 0.25;
  if (!thick.empty()) half = std::clamp(0.5 - Median(thick) / W - 0.04, 0.12, 0.25);
  double vc = Median(centres);
  std::vector<DigitRead> reads;
  for (const Span& g : cells) {
    bool narrow = g.u1 - g.u0 + 1 < 0.6 * W;
    double uc = narrow ? g.u1 + 0.5 - W / 2 : (g.u0 + g.u1) / 2;
    double lx = uc - slant * vc;  // the cell centre in rotated coordinates
    double cx = rcx + c * lx - s * vc, cy = rcy + s * lx + c * vc;
    reads.push_back(ReadCell(m, cx, cy, W, H, angle, slant, half));
  }
  size_t first = 0, last = reads.size();
  while (first < last && reads[first].digit < 0) ++first;
  while (last > first && reads[last - 1].digit < 0) --last;
  if (last - first < 2) return out;
  for (size_t i = first; i < last; ++i) {
    out.digits += reads[i].digit >= 0 ? static_cast<char>('0' + reads[i].digit) : '?';
    out.confidence += reads[i].digit >= 0 ? reads[i].confidence : 0;
  }
  out.cells = static_cast<int>(last - first);
  out.confidence /= static_cast<double>(reads.size());  // trimmed ends count against it
  return out;
}

}  // namespace

int DecodeSegments(const double lit[7], double* confidence) {
  struct Pattern {
    int digit;
    const char* segs;
  };
  static const Pattern kPatterns[] = {
      {0, "1111110"}, {1, "0110000"}, {2, "1101101"}, {3, "1111001"}, {4, "0110011"},
      {5, "1011011"}, {6, "1011111"}, {6, "0011111"}, {7, "1110000"}, {7, "1110010"},
      {8, "1111111"}, {9, "1111011"}, {9, "1110011"}};
  double best = 1e9, second = 1e9;
  int digit = -1;
  for (const Pattern& p : kPatterns) {
    double cost = 0;
    for (int k = 0; k < 7; ++k) {
      // A zone a third lit is mostly unlit: a dim unlit segment, or one
      // lit by glare, crossing the mask's level in patches (a 7 whose d
      // and g zones were a third lit read as 3).
      double v = std::clamp((lit[k] - 0.15) / 0.5, 0.0, 1.0);
      cost += std::abs(v - (p.segs[k] == '1' ? 1.0 : 0.0));
    }
    if (cost < best) {
      if (p.digit != digit) second = best;
      best = cost, digit = p.digit;
    } else if (cost < second && p.digit != digit) {
      second = cost;
    }
  }
  *confidence = std::clamp((second - best) / 2.0, 0.0, 1.0);
  return best <= 1.8 ? digit : -1;
}

namespace {

// Rows of one polarity: lit on dark (LED) or dark on light (LCD).
std::vector<SevenSegReading> ReadRows(Pix* rgb, double scale, bool dark, double level) {
  std::vector<SevenSegReading> out;
  Mask mask = LitMask(rgb, dark, level);
  std::vector<int> labels;
  std::vector<Blob> segs = Components(mask, &labels);
  if (segs.size() < 4 || segs.size() > 3000) return out;
  std::vector<double> lengths;
  for (const Blob& b : segs) {
    if (b.area >= 20) lengths.push_back(std::max(b.W(), b.H()));
  }
  double seg_len = Median(lengths);
  if (seg_len < 4) return out;
  // Segments of one digit are a few pixels apart; digits are further apart.
  int r = std::max(1, static_cast<int>(seg_len * 0.07));
  std::vector<Blob> digits = Components(Dilate(mask, r));
  for (Blob& b : digits) b.x0 += r, b.y0 += r, b.x1 -= r, b.y1 -= r;
  digits = MergeStacked(digits, 0.4);
  std::erase_if(digits, [](const Blob& b) {
    return b.H() < 12 || b.H() < 1.1 * b.W() || b.H() > 20 * b.W();
  });
  std::sort(digits.begin(), digits.end(), [](const Blob& a, const Blob& b) { return a.x0 < b.x0; });
  // Rows: similar heights, overlapping vertically, close horizontally.
  std::vector<bool> used(digits.size(), false);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (used[i]) continue;
    std::vector<Blob> row = {digits[i]};
    used[i] = true;
    for (size_t j = i + 1; j < digits.size(); ++j) {
      const Blob& last = row.back();
      const Blob& d = digits[j];
      if (used[j]) continue;
      double ratio = static_cast<double>(d.H()) / last.H();
      int overlap = std::min(d.y1, last.y1) - std::max(d.y0, last.y0);
      if (ratio < 0.75 || ratio > 1.33 || overlap < 0.6 * std::min(d.H(), last.H())) continue;
      if (d.x0 - last.x1 > 1.2 * last.H()) break;
      row.push_back(d);
      used[j] = true;
    }
    if (row.size() < 2) continue;
    // Rotation from the digits' bottoms; slant chosen by the best decoding.
    double n = static_cast<double>(row.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const Blob& b : row)
      sx += b.cx(), sy += b.y1, sxx += b.cx() * b.cx(), sxy += b.cx() * b.y1;
    double den = n * sxx - sx * sx;
    double angle = den > 1e-6 ? std::atan((n * sxy - sx * sy) / den) : 0;
    angle = std::clamp(angle, -0.2, 0.2);
    std::vector<double> heights, widths;
    for (const Blob& b : row) heights.push_back(b.H());
    double H = Median(heights) - 0.5 * Median(heights) * std::abs(std::tan(angle));
    for (const Blob& b : row) {
      if (b.W() > 0.45 * H) widths.push_back(b.W());
    }
    SevenSegReading best;
    int x0 = row.front().x0, x1 = row.back().x1, y0 = row.front().y0, y1 = row.front().y1;
    for (const Blob& b : row) y0 = std::min(y0, b.y0), y1 = std::max(y1, b.y1);
    bool by_strokes = false;
    int best_cells = 0;
    for (double slant :
         {EstimateSlant(mask, row, angle), EstimateSlantByProjection(mask, row, angle), 0.0}) {
      double W = (widths.empty() ? 0.55 * H : Median(widths)) - std::max(0.0, slant) * H;
      if (W < 3) continue;
      std::string text;
      double conf = 0;
      for (const Blob& b : row) {
        bool narrow = b.W() < 0.6 * (W + std::max(0.0, slant) * H);
        double cx = narrow ? b.x1 - W / 2 - slant * H / 2 : b.cx();
        DigitRead d = ReadCell(mask, cx, b.cy(), W, H, angle, slant);
        text += d.digit >= 0 ? static_cast<char>('0' + d.digit) : '?';
        conf += d.digit >= 0 ? d.confidence : 0;
      }
      conf /= n;
      // Cells from the strokes come first: a digit whose segments do not
      // touch is one digit there, two or three blobs here.
      CellRead cells =
          ReadRowByStrokes(mask, segs, labels, (x0 + x1) / 2.0, (y0 + y1) / 2.0, H, angle, slant);
      // A wrong slant only merges neighbouring cells: the most cells win.
      bool better = !by_strokes || cells.cells > best_cells ||
                    (cells.cells == best_cells && cells.confidence > best.confidence);
      if (!cells.digits.empty() && better) {
        best.digits = cells.digits, best.confidence = cells.confidence, by_strokes = true;
        best_cells = cells.cells;
      } else if (!by_strokes && conf > best.confidence) {
        best.digits = text, best.confidence = conf;
      }
    }
    if (best.digits.empty()) continue;
    best.box =
        Box{static_cast<int>(x0 / scale), static_cast<int>(y0 / scale),
            static_cast<int>((x1 - x0 + 1) / scale), static_cast<int>((y1 - y0 + 1) / scale)};
    best.digit_height = H / scale;
    best.dark = dark;
    out.push_back(best);
  }
  return out;
}

}  // namespace

std::vector<SevenSegReading> ReadSevenSegment(Pix* input) {
  std::vector<SevenSegReading> out;
  int w = pixGetWidth(input), h = pixGetHeight(input);
  double scale = std::min(1.0, 900.0 / std::max(w, h));
  PixPtr rgb(scale < 1
                 ? pixScale(input, static_cast<l_float32>(scale), static_cast<l_float32>(scale))
                 : pixClone(input));
  if (!rgb || pixGetDepth(rgb.get()) != 32) return out;
  // Lit digits on a dark panel (LED) and dark digits on a light glass (LCD):
  // the polarity whose best row reads better.
  auto score = [](const std::vector<SevenSegReading>& rows) {
    double best = 0;
    for (const SevenSegReading& r : rows) {
      if (r.digits.find('?') != std::string::npos) continue;
      best = std::max(best, r.confidence * (r.digits.size() >= 3 ? 1.0 : 0.5));
    }
    return best;
  };
  bool dark = false;
  out = ReadRows(rgb.get(), scale, false, 0.45);
  std::vector<SevenSegReading> lcd = ReadRows(rgb.get(), scale, true, 0.45);
  if (score(lcd) > score(out)) out = std::move(lcd), dark = true;
  // A second, independent reading of every row from another binarisation
  // level: a row is confirmed when both read the same digits.
  std::vector<SevenSegReading> second = ReadRows(rgb.get(), scale, dark, 0.3);
  for (SevenSegReading& r : out) {
    for (const SevenSegReading& o : second) {
      int ox = std::min(r.box.right(), o.box.right()) - std::max(r.box.x, o.box.x);
      int oy = std::min(r.box.bottom(), o.box.bottom()) - std::max(r.box.y, o.box.y);
      if (ox > r.box.w / 2 && oy > r.box.h / 2 && o.digits == r.digits) r.confirmed = true;
    }
  }
  std::sort(out.begin(), out.end(), [](const SevenSegReading& a, const SevenSegReading& b) {
    return a.digit_height > b.digit_height;
  });
  return out;
}

}  // namespace nunchi::extract
