#include "bench/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/html_report.h"  // HtmlEscape

namespace nunchi::bench::svg {
namespace {

// The legend sits in the right margin (kR), outside the plot, so it never covers a bar.
constexpr int kW = 1000, kH = 300, kL = 70, kR = 230, kT = 20, kB = 40;

}  // namespace

double NiceStep(double max, int target, bool integer) {
  if (!(max > 0)) return 1;
  const double raw = max / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  return integer ? std::max(1.0, std::round(step)) : step;
}

std::string TickLabel(double v, double step) {
  int digits = 0;
  for (double s = step; digits < 6 && std::fabs(s - std::round(s)) > 1e-9; s *= 10) ++digits;
  return F(v, digits);
}

std::string F(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

Plot::Plot(std::string title, double xmax, double ymax, std::string xlabel, std::string ylabel)
    : xmax_(xmax > 0 ? xmax : 1), ymax_(ymax > 0 ? ymax : 1) {
  // The axes end on a tick: y rounded up to its nice step; x (cycles, counts)
  // too, in whole numbers once it spans 2 or more.
  ystep_ = NiceStep(ymax_ * 1.05, 5, false);
  ymax_ = std::ceil(ymax_ * 1.05 / ystep_ - 1e-9) * ystep_;
  xstep_ = NiceStep(xmax_, 5, xmax_ >= 2);
  xmax_ = std::ceil(xmax_ / xstep_ - 1e-9) * xstep_;
  Frame(title, xlabel, ylabel);
}

Plot::Plot(std::string title, std::vector<std::string> categories, double ymax, std::string xlabel,
           std::string ylabel)
    : xmax_(std::max<double>(1, categories.size())),
      ymax_(ymax > 0 ? ymax : 1),
      categories_(std::move(categories)) {
  ystep_ = NiceStep(ymax_ * 1.05, 5, false);
  ymax_ = std::ceil(ymax_ * 1.05 / ystep_ - 1e-9) * ystep_;
  Frame(title, xlabel, ylabel);
}

void Plot::Frame(const std::string& title, const std::string& xlabel, const std::string& ylabel) {
  os_ << "<h2>" << HtmlEscape(title) << "</h2>\n<svg xmlns='http://www.w3.org/2000/svg' width='"
      << kW << "' height='" << kH << "' viewBox='0 0 " << kW << ' ' << kH
      << "' font-family='sans-serif' font-size='12'>\n"
      << "<rect x='0' y='0' width='" << kW << "' height='" << kH << "' fill='#fff'/>\n";
  const int ny = static_cast<int>(std::lround(ymax_ / ystep_));
  for (int i = 0; i <= ny; ++i) {
    const double yv = ystep_ * i;
    os_ << "<line x1='" << kL << "' x2='" << kW - kR << "' y1='" << Y(yv) << "' y2='" << Y(yv)
        << "' stroke='#ddd'/><text x='" << kL - 6 << "' y='" << Y(yv) + 4 << "' text-anchor='end'>"
        << TickLabel(yv, ystep_) << "</text>\n";
  }
  if (categories_.empty()) {
    const int nx = static_cast<int>(std::lround(xmax_ / xstep_));
    for (int i = 0; i <= nx; ++i) {
      const double xv = xstep_ * i;
      os_ << "<text x='" << X(xv) << "' y='" << kH - kB + 16 << "' text-anchor='middle'>"
          << TickLabel(xv, xstep_) << "</text>\n";
    }
  }
  for (size_t i = 0; i < categories_.size(); ++i)
    os_ << "<text x='" << F(X(static_cast<double>(i) + 0.5), 1) << "' y='" << kH - kB + 16
        << "' text-anchor='middle'>" << HtmlEscape(categories_[i]) << "</text>\n";
  os_ << "<line x1='" << kL << "' x2='" << kL << "' y1='" << kT << "' y2='" << kH - kB
      << "' stroke='#333'/><line x1='" << kL << "' x2='" << kW - kR << "' y1='" << kH - kB
      << "' y2='" << kH - kB << "' stroke='#333'/>\n"
      << "<text x='" << (kL + kW - kR) / 2 << "' y='" << kH - 6 << "' text-anchor='middle'>"
      << HtmlEscape(xlabel) << "</text><text x='14' y='" << (kT + kH - kB) / 2
      << "' transform='rotate(-90 14 " << (kT + kH - kB) / 2 << ")' text-anchor='middle'>"
      << HtmlEscape(ylabel) << "</text>\n";
}

double Plot::X(double v) const { return kL + (kW - kL - kR) * std::clamp(v / xmax_, 0.0, 1.0); }

double Plot::Y(double v) const {
  return kH - kB - (kH - kT - kB) * std::clamp(v / ymax_, 0.0, 1.0);
}

void Plot::Line(const std::vector<std::pair<double, double>>& pts, const std::string& color,
                const std::string& name, int legend_row, bool step) {
  if (pts.empty()) return;
  os_ << "<polyline fill='none' stroke='" << color << "' stroke-width='1.6' points='";
  double prev_y = pts.front().second;
  for (const auto& [x, y] : pts) {
    if (step) os_ << F(X(x), 1) << ',' << F(Y(prev_y), 1) << ' ';
    os_ << F(X(x), 1) << ',' << F(Y(y), 1) << ' ';
    prev_y = y;
  }
  os_ << "'/>\n";
  Legend(color, name, legend_row);
}

void Plot::Bars(const std::vector<double>& ys, const std::string& color, const std::string& name) {
  double w = std::max(1.0, (kW - kL - kR) / std::max<double>(1, ys.size()) - 1);
  for (size_t i = 0; i < ys.size(); ++i)
    os_ << "<rect x='" << F(X(static_cast<double>(i)), 1) << "' y='" << F(Y(ys[i]), 1)
        << "' width='" << F(w, 1) << "' height='" << F(kH - kB - Y(ys[i]), 1) << "' fill='" << color
        << "'/>\n";
  Legend(color, name, 0);
}

void Plot::GroupBars(const std::vector<double>& ys, int series, int of, const std::string& color,
                     const std::string& name) {
  const double slot = X(1) - X(0), w = std::max(1.0, slot * 0.8 / std::max(1, of));
  for (size_t i = 0; i < ys.size(); ++i) {
    if (ys[i] < 0) continue;
    const double x = X(static_cast<double>(i)) + slot * 0.1 + w * series;
    os_ << "<rect x='" << F(x, 1) << "' y='" << F(Y(ys[i]), 1) << "' width='" << F(w, 1)
        << "' height='" << F(kH - kB - Y(ys[i]), 1) << "' fill='" << color << "'><title>"
        << HtmlEscape(name) << ": " << F(ys[i], 2) << "</title></rect>\n";
  }
  Legend(color, name, series);
}

void Plot::HLine(double y, const std::string& color, const std::string& name, int row) {
  if (y > ymax_) return;
  os_ << "<line x1='" << kL << "' x2='" << kW - kR << "' y1='" << Y(y) << "' y2='" << Y(y)
      << "' stroke='" << color << "' stroke-dasharray='6 4'/>\n";
  Legend(color, name, row);
}

void Plot::Legend(const std::string& color, const std::string& name, int row) {
  os_ << "<rect x='" << kW - kR + 12 << "' y='" << kT + 4 + row * 16
      << "' width='12' height='10' fill='" << color << "'/><text x='" << kW - kR + 30 << "' y='"
      << kT + 13 + row * 16 << "'>" << HtmlEscape(name) << "</text>\n";
}

std::string Plot::Done() { return os_.str() + "</svg>\n"; }

}  // namespace nunchi::bench::svg
