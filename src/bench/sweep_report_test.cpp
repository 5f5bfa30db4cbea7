#include "bench/sweep_report.h"

#include <gtest/gtest.h>

#include <sstream>

namespace nunchi::bench {
namespace {

SweepPoint Point(const std::string& label, int bpc, double p95, double llama, double rules) {
  SweepPoint p;
  p.label = label;
  p.conditions.bundles_per_call = bpc;
  p.conditions.prefix_reuse = "on";
  p.conditions.concurrency = 6;
  p.bundle_cap = 60;
  p.summary.cycles = p.summary.requests = 10;
  p.summary.p50 = p95 / 2, p.summary.p95 = p95, p.summary.p99 = p95, p.summary.max = p95;
  p.summary.backlog_known = true;
  p.summary.tokens_prefilled = 4000, p.summary.tokens_generated = 700,
  p.summary.tokens_reused = 60000;
  if (llama > 0) p.summary.judged_by["llama"] = llama;
  if (rules > 0) p.summary.judged_by["rules"] = rules;
  return p;
}

TEST(SweepReport, ModelShareCountsEveryJudgeButTheEmbeddedOnes) {
  Summary s;
  EXPECT_EQ(ModelShare(s), -1);
  s.judged_by = {{"llama", 30}, {"rules", 50}, {"classifier", 10}, {"prefilter", 10}};
  EXPECT_DOUBLE_EQ(ModelShare(s), 0.3);
  s.judged_by = {{"llama-server", 5}, {"rules", 5}};
  EXPECT_DOUBLE_EQ(ModelShare(s), 0.5);
}

TEST(SweepReport, CsvHasOneRowPerPointWithItsSettings) {
  LoadSpec load;
  load.name = "peak";
  std::vector<SweepPoint> points = {Point("bpc1", 1, 11.5, 60, 0), Point("bpc4", 4, 44.2, 0, 55)};
  std::istringstream csv(SweepCsv(load, points));
  std::string header, a, b, extra;
  std::getline(csv, header);
  std::getline(csv, a);
  std::getline(csv, b);
  EXPECT_FALSE(std::getline(csv, extra));
  EXPECT_EQ(header.rfind("label,load,concurrency,bundle_cap,prefix_reuse,bundles_per_call,", 0),
            0u);
  EXPECT_EQ(a.rfind("bpc1,peak,6,60,on,1,10,10,5.75,11.5,", 0), 0u) << a;
  EXPECT_NE(a.find(",1.000,llama 60"), std::string::npos) << a;
  EXPECT_NE(b.find(",0.000,rules 55"), std::string::npos) << b;
}

TEST(SweepReport, HtmlHasTheTableAndAChartPerFigure) {
  LoadSpec load;
  load.name = "normal";
  std::vector<SweepPoint> points = {Point("bpc1", 1, 11.5, 60, 0), Point("bpc4", 4, 44.2, 0, 55)};
  points[0].conditions.random_weights = true;
  const std::string html = SweepHtml(load, points);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  size_t svgs = 0;
  for (size_t at = 0; (at = html.find("<svg", at)) != std::string::npos; ++at) ++svgs;
  EXPECT_EQ(svgs, 3u);  // latency, tokens, model share
  for (const char* text : {">bpc1<", ">bpc4<", "50 s deadline", "random weights", "llama 60",
                           "rules 55", "400 / 6000 / 70"})
    EXPECT_NE(html.find(text), std::string::npos) << text;
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

}  // namespace
}  // namespace nunchi::bench
