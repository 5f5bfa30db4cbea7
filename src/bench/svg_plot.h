// Plot: one inline SVG chart for the benchmark's HTML reports (axes, grid,
// ticks, labels; lines, step lines, bars, grouped bars over named
// categories, a dashed reference line) and its legend, which is HTML under
// the chart, outside the plot area. Axes tick at nice steps (1-2-2.5-5 x
// 10^k); a duration axis is labelled in the unit that fits its range (µs,
// ms or s, chosen per axis); a count axis (cycles, tokens) ticks at whole
// numbers, and a count x axis spans exactly the data, so lines reach both
// ends. The SVG scales to its container (viewBox, width 100 %). Values are
// clamped into the frame. Not thread-safe; build one per chart.
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace nunchi::bench::svg {

// v with `digits` decimals.
std::string F(double v, int digits = 3);
// A 1-2-2.5-5 x 10^k step giving about `target` ticks up to max (whole when `integer`).
double NiceStep(double max, int target, bool integer);
// A tick value with as many decimals as its step needs (0.0005 -> "0.0015", 1 -> "3").
std::string TickLabel(double v, double step);

// The unit a duration axis is labelled in: values in seconds times
// `per_second` give the number shown.
struct TimeUnit {
  const char* name;  // "µs", "ms", "s"
  double per_second;
};
// s when the largest value is 1 s or more, ms from 1 ms, µs below.
TimeUnit TimeUnitFor(double max_seconds);
// The tick labels of a duration axis from 0 to about max_seconds (values in
// seconds), in TimeUnitFor's unit: 0.005 -> {"0", "2", "4", "6"} (ms).
std::vector<std::string> DurationTicks(double max_seconds, int target = 5);

// What an axis measures: plain numbers, whole counts, or durations given in
// seconds (labelled in µs, ms or s).
enum class Scale { kNumber, kCount, kSeconds };
struct Axis {
  Axis(std::string l, Scale s = Scale::kNumber) : label(std::move(l)), scale(s) {}
  Axis(const char* l, Scale s = Scale::kNumber) : label(l), scale(s) {}
  std::string label;  // without the unit: a seconds axis appends " (ms)" etc.
  Scale scale;
};

class Plot {
 public:
  // A numeric x axis from 0 to xmax (rounded up to a tick).
  Plot(std::string title, double xmax, double ymax, Axis x, Axis y);
  // A numeric x axis from xmin to xmax; a count axis spans exactly that range.
  Plot(std::string title, double xmin, double xmax, double ymax, Axis x, Axis y);
  // A category x axis: one slot per name, labelled under it.
  Plot(std::string title, std::vector<std::string> categories, double ymax, Axis x, Axis y);

  double X(double v) const;
  double Y(double v) const;
  double x_max() const { return xmax_; }  // the right end of the x axis, in data units
  // The legend is added with the series; `legend_row` is kept for callers and unused.
  void Line(const std::vector<std::pair<double, double>>& pts, const std::string& color,
            const std::string& name, int legend_row = 0, bool step = false);
  // One bar per x = first_x, first_x + 1, ..., centred on it, one unit wide.
  void Bars(double first_x, const std::vector<double>& ys, const std::string& color,
            const std::string& name);
  // Series `series` of `of` side by side in each category slot; a value below 0 draws nothing.
  void GroupBars(const std::vector<double>& ys, int series, int of, const std::string& color,
                 const std::string& name);
  void HLine(double y, const std::string& color, const std::string& name, int row = 0);
  void Legend(const std::string& color, const std::string& name, bool dashed = false);
  // The chart: <figure> with the title, the SVG and the legend.
  std::string Done();
  // A y value as the axis shows it, with its unit ("12.5 ms", "300 tokens").
  std::string YValue(double v) const;

 private:
  void Frame(const std::string& title);
  void Ticks(bool x_axis);

  double xmin_ = 0, xmax_, ymax_;
  double xstep_ = 1, ystep_ = 1;
  Axis xaxis_, yaxis_;
  TimeUnit xunit_{"s", 1}, yunit_{"s", 1};
  std::vector<std::string> categories_;
  std::string title_;
  std::ostringstream os_;
  std::ostringstream legend_;
};

}  // namespace nunchi::bench::svg
