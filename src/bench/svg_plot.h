// Plot: one inline SVG chart for the benchmark's HTML reports (axes, grid,
// ticks, labels, legend; lines, step lines, bars, grouped bars over named
// categories, a dashed reference line). Values are clamped into the frame.
// Not thread-safe; build one per chart.
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

class Plot {
 public:
  // A numeric x axis from 0 to xmax.
  Plot(std::string title, double xmax, double ymax, std::string xlabel, std::string ylabel);
  // A category x axis: one slot per name, labelled under it.
  Plot(std::string title, std::vector<std::string> categories, double ymax, std::string xlabel,
       std::string ylabel);

  double X(double v) const;
  double Y(double v) const;
  void Line(const std::vector<std::pair<double, double>>& pts, const std::string& color,
            const std::string& name, int legend_row, bool step = false);
  // One bar per x = 0, 1, 2, ... (numeric axis).
  void Bars(const std::vector<double>& ys, const std::string& color, const std::string& name);
  // Series `series` of `of` side by side in each category slot; a value below 0 draws nothing.
  void GroupBars(const std::vector<double>& ys, int series, int of, const std::string& color,
                 const std::string& name);
  void HLine(double y, const std::string& color, const std::string& name, int row);
  void Legend(const std::string& color, const std::string& name, int row);
  std::string Done();

 private:
  void Frame(const std::string& title, const std::string& xlabel, const std::string& ylabel);

  double xmax_, ymax_;
  double xstep_ = 1, ystep_ = 1;
  std::vector<std::string> categories_;
  std::ostringstream os_;
};

}  // namespace nunchi::bench::svg
