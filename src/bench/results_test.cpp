#include "bench/results.h"

#include <gtest/gtest.h>

#include "bench/html_report.h"

namespace nunchi::bench {
namespace {

std::vector<CycleResult> Steady(int n, double latency) {
  std::vector<CycleResult> v;
  for (int i = 0; i < n; ++i) {
    CycleResult c;
    c.index = i;
    c.latency_s = latency + 0.001 * (i % 7);
    c.spots_ok = 6;
    c.new_signals = 6;
    c.queue_before = 0;
    v.push_back(c);
  }
  return v;
}

TEST(Results, Percentiles) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  EXPECT_EQ(Percentile(v, 50), 50);
  EXPECT_EQ(Percentile(v, 95), 95);
  EXPECT_EQ(Percentile(v, 99), 99);
  EXPECT_EQ(Percentile({3.0}, 99), 3);
}

TEST(Results, SteadyRunHasNoBacklog) {
  auto cycles = Steady(120, 0.2);
  Summary s = Summarize(cycles, 0.5);
  EXPECT_EQ(s.cycles, 120);
  EXPECT_FALSE(s.backlog_grows);
  EXPECT_EQ(s.deadline_misses, 0);
  EXPECT_EQ(s.spots_ok, 720);
  EXPECT_EQ(s.recover_mean, -1);
}

TEST(Results, JudgmentsAreCountedByTheJudgeThatMadeThem) {
  auto cycles = Steady(3, 0.2);
  cycles[0].deltas = {{"nunchi_judgments_total{judge=\"llama\",outcome=\"ok\"}", 4},
                      {"nunchi_judgments_total{judge=\"rules\",outcome=\"ok\"}", 2},
                      {"nunchi_judgments_total{judge=\"none\",outcome=\"kDeadlineExceeded\"}", 9},
                      {"nunchi_judge_calls_total", 6}};
  cycles[2].deltas = {{"nunchi_judgments_total{judge=\"llama\",outcome=\"ok\"}", 3},
                      {"nunchi_judgments_total{judge=\"classifier\",outcome=\"ok\"}", 8}};
  Summary s = Summarize(cycles, 0.5);
  EXPECT_EQ(s.judged_by,
            (std::map<std::string, double>{{"llama", 7}, {"rules", 2}, {"classifier", 8}}));
  EXPECT_EQ(JudgedByText(s), "classifier 8, llama 7, rules 2");
  EXPECT_EQ(JudgedByText(Summarize(Steady(2, 0.2), 0.5)), "");
  auto j = ToJson(LoadSpec{}, Conditions{}, s, cycles);
  EXPECT_EQ(j["summary"]["judgments_by_judge"]["llama"], 7);
}

TEST(Results, CascadeFiguresComeFromTheServersCountersPerCycleAndRun) {
  auto cycles = Steady(3, 0.2);
  EXPECT_FALSE(CascadeFromDeltas(cycles[0].deltas).known());  // no cascade: unknown
  const std::string l = "{calibration=\"cal-x\",judge=\"llama\"}";
  Series d = {
      {"nunchi_cascade_targets_total" + l, 40},      {"nunchi_cascade_escalated_total" + l, 8},
      {"nunchi_cascade_unsure_total" + l, 10},       {"nunchi_cascade_llm_in_time_total" + l, 6},
      {"nunchi_cascade_kept_for_time_total" + l, 2}, {"nunchi_cascade_kept_for_error_total" + l, 2},
      {"nunchi_cascade_late_replaced_total" + l, 1}, {"nunchi_judge_calls_total", 3}};
  cycles[0].cascade = CascadeFromDeltas(d);
  d["nunchi_cascade_targets_total" + l] = 10;
  d["nunchi_cascade_escalated_total" + l] = 2;
  d["nunchi_cascade_llm_in_time_total" + l] = 2;
  cycles[2].cascade = CascadeFromDeltas(d);
  EXPECT_EQ(cycles[0].cascade.escalation_share(), 0.2);
  EXPECT_EQ(cycles[0].cascade.in_time_share(), 0.75);
  Summary s = Summarize(cycles, 0.5);
  EXPECT_EQ(s.cascade.targets, 50);
  EXPECT_EQ(s.cascade.escalated, 10);
  EXPECT_EQ(s.cascade.llm_in_time, 8);
  EXPECT_EQ(s.cascade.kept_for_time, 4);
  EXPECT_EQ(s.cascade.late, 4);
  EXPECT_FALSE(s.cascade_run.known());
  s.cascade_run = CascadeFromDeltas(d);
  auto j = ToJson(LoadSpec{}, Conditions{}, s, cycles);
  EXPECT_EQ(j["summary"]["cascade"]["escalated"], 10);
  EXPECT_DOUBLE_EQ(j["summary"]["cascade"]["escalation_share"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j["summary"]["cascade"]["llm_in_time_share"].get<double>(), 0.8);
  EXPECT_EQ(j["summary"]["cascade_run"]["late_replaced"], 1);
  EXPECT_TRUE(j["cycles"][1]["cascade"].is_null());
  EXPECT_EQ(j["cycles"][2]["cascade"]["kept_cheap_for_time"], 2);
  EXPECT_EQ(CascadeText(s.cascade),
            "escalated 10 of 50 (20.0 %), LLM in time 8 (80.0 %), kept cheap for time 4 (deferred "
            "0), late 4");
  EXPECT_EQ(CascadeText(CascadeFigures{}), "");
}

TEST(Results, GrowingLagAndQueueAreBacklog) {
  auto cycles = Steady(100, 0.2);
  for (int i = 0; i < 100; ++i) cycles[i].start_lag_s = 0.1 * i, cycles[i].latency_s = 60;
  Summary s = Summarize(cycles, 0.5);
  EXPECT_TRUE(s.backlog_grows);
  EXPECT_EQ(s.deadline_misses, 100);
  auto q = Steady(100, 0.2);
  for (int i = 0; i < 100; ++i) q[i].queue_before = i / 5;
  EXPECT_TRUE(Summarize(q, 0.5).backlog_grows);
}

TEST(Results, CyclesToRecoverFromColdStarts) {
  auto cycles = Steady(40, 0.2);
  cycles[0].cold = true, cycles[0].latency_s = 3;  // cold, then one slow cycle
  cycles[1].latency_s = 1;
  cycles[20].cold = true, cycles[20].latency_s = 2;  // cold, recovers at once
  Summary s = Summarize(cycles, 0.5);
  EXPECT_EQ(s.cold_starts, 2);
  EXPECT_DOUBLE_EQ(s.recover_mean, 1.5);
  EXPECT_EQ(s.recover_max, 2);
}

TEST(Results, JsonCsvAndHtmlCarryConditions) {
  auto cycles = Steady(10, 0.2);
  cycles[3].tokens.prefilled = 120;
  cycles[3].tokens.generated = 30;
  LoadSpec load;
  Conditions c;
  c.engine = "llama.cpp <in-process>";
  c.quantization = "Q8_0";
  c.random_weights = true;
  Summary s = Summarize(cycles, 60);
  auto j = ToJson(load, c, s, cycles);
  EXPECT_EQ(j["conditions"]["quantization"], "Q8_0");
  EXPECT_EQ(j["conditions"]["random_weights"], true);
  EXPECT_EQ(j["cycles"].size(), 10u);
  EXPECT_EQ(j["summary"]["tokens_prefilled"], 120);
  for (const char* key : {"cold_latency_s", "warm_latency_s", "signals_judged", "backlog_grows",
                          "deadline_misses_over_50s", "cycles_to_recover_mean"})
    EXPECT_TRUE(j["summary"].contains(key)) << key;
  for (const char* key : {"engine", "engine_version", "quantization", "concurrency",
                          "output_token_cap", "prefix_reuse", "model_hash_fnv1a64"})
    EXPECT_TRUE(j["conditions"].contains(key)) << key;
  std::string csv = ToCsv(cycles);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 11);
  std::string html = HtmlReport(load, c, s, cycles);
  EXPECT_NE(html.find("&lt;in-process&gt;"), std::string::npos);
  EXPECT_NE(html.find("random weights"), std::string::npos);
  size_t svgs = 0;
  for (size_t p = 0; (p = html.find("<svg", p)) != std::string::npos; ++p) ++svgs;
  EXPECT_EQ(svgs, 3u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // No resource from the network: the only URL is the SVG namespace.
  for (size_t p = 0; (p = html.find("http", p)) != std::string::npos; ++p)
    EXPECT_EQ(html.compare(p, 26, "http://www.w3.org/2000/svg"), 0) << html.substr(p, 40);
}

}  // namespace
}  // namespace nunchi::bench
