#include "bench/svg_plot.h"

#include <gtest/gtest.h>

#include <regex>

namespace nunchi::bench::svg {
namespace {

TEST(SvgPlot, NiceStepsAndLabelsFitTheRange) {
  EXPECT_DOUBLE_EQ(NiceStep(0.012, 5, false), 0.0025);
  EXPECT_DOUBLE_EQ(NiceStep(47, 5, false), 10);
  EXPECT_DOUBLE_EQ(NiceStep(3, 5, true), 1);  // cycles: whole numbers
  EXPECT_EQ(TickLabel(0.0075, 0.0025), "0.0075");
  EXPECT_EQ(TickLabel(3, 1), "3");
  EXPECT_EQ(TickLabel(2.5, 0.5), "2.5");
}

// The y tick texts of a rendered plot, in order.
std::vector<std::string> YTicks(const std::string& svg) {
  std::vector<std::string> out;
  std::regex re("text-anchor='end'>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

TEST(SvgPlot, SmallValuesGetDistinctTicksAndCyclesAreWhole) {
  // Before: a 12 ms maximum labelled "0.00 0.00 0.00 0.01 0.01 0.01".
  Plot p("latency", 3, 0.012, "cycle", "seconds");
  p.Line({{1, 0.004}, {2, 0.012}, {3, 0.008}}, "#f00", "p95", 0);
  const std::string svg = p.Done();
  auto y = YTicks(svg);
  ASSERT_GE(y.size(), 4u);
  for (size_t i = 1; i < y.size(); ++i) EXPECT_NE(y[i], y[i - 1]) << svg;
  EXPECT_EQ(svg.find(">1.00<"), std::string::npos);  // cycle numbers print as 1, 2, 3
  EXPECT_NE(svg.find(">3</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace nunchi::bench::svg
