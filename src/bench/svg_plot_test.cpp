#include "bench/svg_plot.h"

#include <gtest/gtest.h>

#include <regex>

namespace nunchi::bench::svg {
namespace {

TEST(SvgPlot, NiceStepsAndLabelsFitTheRange) {
  EXPECT_DOUBLE_EQ(NiceStep(0.012, 5, false), 0.0025);
  EXPECT_DOUBLE_EQ(NiceStep(47, 5, false), 10);
  EXPECT_DOUBLE_EQ(NiceStep(5, 5, false), 1);  // exactly 5 ticks, not 2 from rounding
  EXPECT_DOUBLE_EQ(NiceStep(3, 5, true), 1);   // cycles: whole numbers
  EXPECT_DOUBLE_EQ(NiceStep(119, 5, true), 25);
  EXPECT_EQ(TickLabel(0.0075, 0.0025), "0.0075");
  EXPECT_EQ(TickLabel(3, 1), "3");
  EXPECT_EQ(TickLabel(2.5, 0.5), "2.5");
  EXPECT_EQ(TickLabel(-0.0, 0.2), "0.0");  // not "-0.0"
}

TEST(SvgPlot, DurationsAreLabelledInTheUnitTheirRangeNeeds) {
  EXPECT_STREQ(TimeUnitFor(0.0004).name, "µs");
  EXPECT_STREQ(TimeUnitFor(0.005).name, "ms");
  EXPECT_STREQ(TimeUnitFor(0.999).name, "ms");
  EXPECT_STREQ(TimeUnitFor(1).name, "s");
  EXPECT_STREQ(TimeUnitFor(120).name, "s");
  EXPECT_DOUBLE_EQ(TimeUnitFor(0.005).per_second, 1e3);
  // Before: 0.0001-0.005 s on a plain axis read "0.00 0.00 0.01".
  EXPECT_EQ(DurationTicks(0.005), (std::vector<std::string>{"0", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(DurationTicks(0.0004), (std::vector<std::string>{"0", "100", "200", "300", "400"}));
  EXPECT_EQ(DurationTicks(0.012),
            (std::vector<std::string>{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5"}));
  EXPECT_EQ(DurationTicks(47), (std::vector<std::string>{"0", "10", "20", "30", "40", "50"}));
}

// The texts of the y (text-anchor end) or x (middle, under the axis) ticks, in order.
std::vector<std::string> Ticks(const std::string& svg, bool x) {
  std::vector<std::string> out;
  std::regex re(x ? "y='273' text-anchor='middle'>([^<]*)</text>"
                  : "text-anchor='end'>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

// The points of the n-th polyline.
std::vector<std::pair<double, double>> Points(const std::string& svg, int n = 0) {
  size_t at = 0;
  for (int i = 0; i <= n; ++i) at = svg.find("<polyline", at + (i ? 1 : 0));
  std::vector<std::pair<double, double>> out;
  if (at == std::string::npos) return out;
  const size_t p = svg.find("points='", at) + 8;
  std::string list = svg.substr(p, svg.find('\'', p) - p);
  std::regex re("([0-9.]+),([0-9.]+)");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
  return out;
}

TEST(SvgPlot, ASecondsAxisOfMillisecondsReadsInMilliseconds) {
  Plot p("judge latency", 1, 3, 0.005, Axis("cycle", Scale::kCount), Axis("time", Scale::kSeconds));
  p.Line({{1, 0.0001}, {2, 0.005}, {3, 0.002}}, "#f00", "p95");
  const std::string svg = p.Done();
  EXPECT_EQ(Ticks(svg, false), (std::vector<std::string>{"0", "1", "2", "3", "4", "5"})) << svg;
  EXPECT_NE(svg.find(">time (ms)</text>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find(">0.00<"), std::string::npos);
  EXPECT_EQ(p.YValue(0.0025), "2.50 ms");
  Plot us("tiny", 0.0004, 1, Axis("latency", Scale::kSeconds), "share");
  EXPECT_NE(us.Done().find(">latency (µs)</text>"), std::string::npos);
}

TEST(SvgPlot, CycleAxesAreWholeAndLinesReachBothEnds) {
  Plot p("tokens", 1, 120, 3000, Axis("cycle", Scale::kCount), Axis("tokens", Scale::kCount));
  std::vector<std::pair<double, double>> pts;
  for (int c = 1; c <= 120; ++c) pts.push_back({c, 20.0 * c});
  p.Line(pts, "#00f", "prefilled");
  const std::string svg = p.Done();
  auto x = Ticks(svg, true);
  EXPECT_EQ(x, (std::vector<std::string>{"1", "25", "50", "75", "100", "120"})) << svg;
  for (const auto& t : Ticks(svg, false)) EXPECT_EQ(t.find('.'), std::string::npos) << t;
  auto line = Points(svg);
  ASSERT_EQ(line.size(), 120u);
  EXPECT_DOUBLE_EQ(line.front().first, p.X(1));
  EXPECT_DOUBLE_EQ(p.X(1), 64);              // the y axis
  EXPECT_DOUBLE_EQ(line.back().first, 778);  // the right end of the x axis
}

TEST(SvgPlot, LegendIsOutsideThePlotAndTheSvgScales) {
  Plot p("latency", 0.5, 3.5, 2, Axis("cycle", Scale::kCount), Axis("time", Scale::kSeconds));
  p.Bars(1, {0.5, 1.5, 2}, "#1f77b4", "latency per cycle");
  p.HLine(1, "#d62728", "target");
  const std::string html = p.Done();
  const size_t end = html.find("</svg>");
  ASSERT_NE(end, std::string::npos);
  const std::string svg = html.substr(0, end);
  EXPECT_EQ(svg.find("latency per cycle"), std::string::npos) << "legend drawn inside the plot";
  const size_t legend = html.find("<ul class='legend'>");
  ASSERT_NE(legend, std::string::npos);
  EXPECT_GT(legend, end);
  EXPECT_NE(html.find("latency per cycle", legend), std::string::npos);
  EXPECT_NE(html.find("key dash", legend), std::string::npos);  // the dashed line's key
  EXPECT_NE(svg.find("viewBox='0 0 800 300'"), std::string::npos);
  EXPECT_NE(svg.find("width='100%'"), std::string::npos);
  // A bar axis runs half a bar past the first and last cycle; both are labelled.
  Plot wide("bars", 0.5, 120.5, 1, Axis("cycle", Scale::kCount), "s");
  EXPECT_EQ(Ticks(wide.Done(), true),
            (std::vector<std::string>{"1", "25", "50", "75", "100", "120"}));
  // Bars are centred on their cycle, so the first starts at the y axis.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      svg, m,
      std::regex(
          "<rect x='([0-9.]+)' y='[0-9.]+' width='[0-9.]+' height='[0-9.]+' fill='#1f77b4'")));
  EXPECT_DOUBLE_EQ(std::stod(m[1]), 64);
}

TEST(SvgPlot, AStepLineFromZeroReachesTheRightEnd) {
  Plot p("cdf", 0.012, 1, Axis("latency", Scale::kSeconds), "fraction");
  EXPECT_DOUBLE_EQ(p.x_max(), 0.0125);  // rounded up to a tick: 12.5 ms
  p.Line({{0, 0}, {0.004, 0.5}, {0.012, 1}, {p.x_max(), 1}}, "#f00", "cycles", 0, true);
  auto pts = Points(p.Done());
  ASSERT_FALSE(pts.empty());
  EXPECT_DOUBLE_EQ(pts.front().first, 64);
  EXPECT_DOUBLE_EQ(pts.back().first, 778);
}

}  // namespace
}  // namespace nunchi::bench::svg
