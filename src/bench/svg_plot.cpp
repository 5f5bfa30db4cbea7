#include "bench/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/html_report.h"  // HtmlEscape

namespace nunchi::bench::svg {
namespace {

// The viewBox; the SVG scales to the page (width 100 %). The legend is HTML
// under the chart, so the right margin only keeps the last x tick label in.
constexpr int kW = 800, kH = 300, kL = 64, kR = 22, kT = 14, kB = 44;

constexpr TimeUnit kPlain{"", 1};

// A step in display units for an axis up to `max` (display units), and the
// axis end rounded up to it.
std::pair<double, double> StepAndEnd(double max, bool integer) {
  const double step = NiceStep(max, 5, integer);
  return {step, std::max(step, std::ceil(max / step - 1e-9) * step)};
}

}  // namespace

double NiceStep(double max, int target, bool integer) {
  if (!(max > 0)) return 1;
  const double raw = max / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-12)) {
      step = m * mag;
      break;
    }
  return integer ? std::max(1.0, std::round(step)) : step;
}

std::string TickLabel(double v, double step) {
  int digits = 0;
  for (double s = step; digits < 6 && std::fabs(s - std::round(s)) > 1e-9 * std::max(1.0, s);
       s *= 10)
    ++digits;
  if (std::fabs(v) < 1e-9 * std::max(1e-300, std::fabs(step))) v = 0;  // never "-0.0"
  return F(v, digits);
}

std::string F(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

TimeUnit TimeUnitFor(double max_seconds) {
  if (max_seconds >= 1) return {"s", 1};
  if (max_seconds >= 1e-3) return {"ms", 1e3};
  return {"µs", 1e6};
}

std::vector<std::string> DurationTicks(double max_seconds, int target) {
  const TimeUnit u = TimeUnitFor(max_seconds);
  const double max = max_seconds > 0 ? max_seconds * u.per_second : 1;
  const double step = NiceStep(max, target, false);
  const int n = static_cast<int>(std::ceil(max / step - 1e-9));
  std::vector<std::string> out;
  for (int i = 0; i <= n; ++i) out.push_back(TickLabel(step * i, step));
  return out;
}

Plot::Plot(std::string title, double xmax, double ymax, Axis x, Axis y)
    : Plot(std::move(title), 0, xmax, ymax, std::move(x), std::move(y)) {}

Plot::Plot(std::string title, double xmin, double xmax, double ymax, Axis x, Axis y)
    : xmin_(xmin),
      xmax_(xmax),
      ymax_(ymax),
      xaxis_(std::move(x)),
      yaxis_(std::move(y)),
      title_(std::move(title)) {
  if (xaxis_.scale == Scale::kCount) {
    // Exactly the data's range, so a line over cycles 1..N reaches both ends.
    if (!(xmax_ > xmin_)) xmax_ = xmin_ + 1;
    xstep_ = NiceStep(xmax_ - xmin_, 5, true);
  } else {
    xunit_ = xaxis_.scale == Scale::kSeconds ? TimeUnitFor(xmax_ - xmin_) : kPlain;
    const double span = xmax_ > xmin_ ? (xmax_ - xmin_) * xunit_.per_second : 1;
    auto [step, end] = StepAndEnd(span, false);
    xstep_ = step / xunit_.per_second;
    xmax_ = xmin_ + end / xunit_.per_second;
  }
  Frame(title_);
}

Plot::Plot(std::string title, std::vector<std::string> categories, double ymax, Axis x, Axis y)
    : xmax_(std::max<double>(1, categories.size())),
      ymax_(ymax),
      xaxis_(std::move(x)),
      yaxis_(std::move(y)),
      categories_(std::move(categories)),
      title_(std::move(title)) {
  Frame(title_);
}

void Plot::Ticks(bool x_axis) {
  std::vector<double> at;
  const double step = x_axis ? xstep_ : ystep_;
  const double lo = x_axis ? xmin_ : 0, hi = x_axis ? xmax_ : ymax_;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k)
    at.push_back(k * step);
  if (x_axis && xaxis_.scale == Scale::kCount) {
    // The first and last whole numbers (cycles) are labelled too, unless a tick is close.
    for (double end : {std::ceil(lo - 1e-9), std::floor(hi + 1e-9)})
      if (end >= lo - 1e-9 && end <= hi + 1e-9 && std::none_of(at.begin(), at.end(), [&](double t) {
            return std::fabs(t - end) < step / 2;
          }))
        at.push_back(end);
    std::sort(at.begin(), at.end());
  }
  const TimeUnit& u = x_axis ? xunit_ : yunit_;
  for (double v : at) {
    const std::string label = TickLabel(v * u.per_second, step * u.per_second);
    if (x_axis)
      os_ << "<text x='" << F(X(v), 1) << "' y='" << kH - kB + 17 << "' text-anchor='middle'>"
          << label << "</text>\n";
    else
      os_ << "<line x1='" << kL << "' x2='" << kW - kR << "' y1='" << F(Y(v), 1) << "' y2='"
          << F(Y(v), 1) << "' stroke='#ddd'/><text x='" << kL - 6 << "' y='" << F(Y(v) + 4, 1)
          << "' text-anchor='end'>" << label << "</text>\n";
  }
}

void Plot::Frame(const std::string& title) {
  // The y axis starts at 0 and ends on a tick, in the unit its range needs.
  yunit_ = yaxis_.scale == Scale::kSeconds ? TimeUnitFor(ymax_) : kPlain;
  {
    const double max = ymax_ > 0 ? ymax_ * yunit_.per_second : 1;
    auto [step, end] = StepAndEnd(max, yaxis_.scale == Scale::kCount);
    ystep_ = step / yunit_.per_second;
    ymax_ = end / yunit_.per_second;
  }
  auto with_unit = [](const Axis& a, const TimeUnit& u) {
    return a.scale == Scale::kSeconds ? a.label + " (" + u.name + ")" : a.label;
  };
  os_ << "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 " << kW << ' ' << kH
      << "' width='100%' preserveAspectRatio='xMidYMid meet' font-family='sans-serif'"
         " font-size='13' role='img' aria-label='"
      << HtmlEscape(title) << "'>\n"
      << "<rect x='0' y='0' width='" << kW << "' height='" << kH << "' fill='#fff'/>\n";
  Ticks(false);
  if (categories_.empty()) Ticks(true);
  for (size_t i = 0; i < categories_.size(); ++i)
    os_ << "<text x='" << F(X(static_cast<double>(i) + 0.5), 1) << "' y='" << kH - kB + 17
        << "' text-anchor='middle'>" << HtmlEscape(categories_[i]) << "</text>\n";
  os_ << "<line x1='" << kL << "' x2='" << kL << "' y1='" << kT << "' y2='" << kH - kB
      << "' stroke='#333'/><line x1='" << kL << "' x2='" << kW - kR << "' y1='" << kH - kB
      << "' y2='" << kH - kB << "' stroke='#333'/>\n"
      << "<text x='" << (kL + kW - kR) / 2 << "' y='" << kH - 6 << "' text-anchor='middle'>"
      << HtmlEscape(with_unit(xaxis_, xunit_)) << "</text><text x='16' y='" << (kT + kH - kB) / 2
      << "' transform='rotate(-90 16 " << (kT + kH - kB) / 2 << ")' text-anchor='middle'>"
      << HtmlEscape(with_unit(yaxis_, yunit_)) << "</text>\n";
}

double Plot::X(double v) const {
  return kL + (kW - kL - kR) * std::clamp((v - xmin_) / (xmax_ - xmin_), 0.0, 1.0);
}

double Plot::Y(double v) const {
  return kH - kB - (kH - kT - kB) * std::clamp(v / ymax_, 0.0, 1.0);
}

std::string Plot::YValue(double v) const {
  if (yaxis_.scale == Scale::kSeconds) {
    const double shown = v * yunit_.per_second;
    return F(shown, shown >= 100 ? 0 : shown >= 10 ? 1 : 2) + " " + yunit_.name;
  }
  return F(v, yaxis_.scale == Scale::kCount ? 0 : 2);
}

void Plot::Line(const std::vector<std::pair<double, double>>& pts, const std::string& color,
                const std::string& name, int /*legend_row*/, bool step) {
  if (pts.empty()) return;
  os_ << "<polyline fill='none' stroke='" << color << "' stroke-width='1.6' points='";
  double prev_y = pts.front().second;
  for (const auto& [x, y] : pts) {
    if (step) os_ << F(X(x), 1) << ',' << F(Y(prev_y), 1) << ' ';
    os_ << F(X(x), 1) << ',' << F(Y(y), 1) << ' ';
    prev_y = y;
  }
  os_ << "'/>\n";
  Legend(color, name);
}

void Plot::Bars(double first_x, const std::vector<double>& ys, const std::string& color,
                const std::string& name) {
  for (size_t i = 0; i < ys.size(); ++i) {
    const double c = first_x + static_cast<double>(i);
    const double x0 = X(c - 0.5), x1 = X(c + 0.5);
    os_ << "<rect x='" << F(x0, 1) << "' y='" << F(Y(ys[i]), 1) << "' width='"
        << F(std::max(0.5, x1 - x0 - 0.5), 1) << "' height='" << F(kH - kB - Y(ys[i]), 1)
        << "' fill='" << color << "'><title>" << TickLabel(c, 1) << ": " << YValue(ys[i])
        << "</title></rect>\n";
  }
  Legend(color, name);
}

void Plot::GroupBars(const std::vector<double>& ys, int series, int of, const std::string& color,
                     const std::string& name) {
  const double slot = X(1) - X(0), w = std::max(1.0, slot * 0.8 / std::max(1, of));
  for (size_t i = 0; i < ys.size(); ++i) {
    if (ys[i] < 0) continue;
    const double x = X(static_cast<double>(i)) + slot * 0.1 + w * series;
    os_ << "<rect x='" << F(x, 1) << "' y='" << F(Y(ys[i]), 1) << "' width='" << F(w, 1)
        << "' height='" << F(kH - kB - Y(ys[i]), 1) << "' fill='" << color << "'><title>"
        << HtmlEscape(name) << ": " << YValue(ys[i]) << "</title></rect>\n";
  }
  Legend(color, name);
}

void Plot::HLine(double y, const std::string& color, const std::string& name, int /*row*/) {
  if (y > ymax_) return;
  os_ << "<line x1='" << kL << "' x2='" << kW - kR << "' y1='" << F(Y(y), 1) << "' y2='"
      << F(Y(y), 1) << "' stroke='" << color << "' stroke-dasharray='6 4'/>\n";
  Legend(color, name, true);
}

void Plot::Legend(const std::string& color, const std::string& name, bool dashed) {
  legend_ << "<li><i class='" << (dashed ? "key dash" : "key") << "' style='"
          << (dashed ? "border-color:" : "background:") << color << "'></i>" << HtmlEscape(name)
          << "</li>";
}

std::string Plot::Done() {
  std::string legend = legend_.str();
  return "<h2>" + HtmlEscape(title_) + "</h2>\n<div class='plot'>" + os_.str() + "</svg></div>\n" +
         (legend.empty() ? "" : "<ul class='legend'>" + legend + "</ul>\n");
}

}  // namespace nunchi::bench::svg
