#include "bench/prom.h"

#include <gtest/gtest.h>

namespace nunchi::bench {
namespace {

const char* kBefore = R"(# HELP nunchi_judge_calls_total Calls.
# TYPE nunchi_judge_calls_total counter
nunchi_judge_calls_total 4
nunchi_signals_total{disposition="judged"} 10
nunchi_judge_queue_depth 2
nunchi_http_request_duration_seconds_bucket{le="0.5"} 3
nunchi_http_request_duration_seconds_sum 1.5
nunchi_llm_prefill_tokens_total{model="m"} 1000
other_metric 5
)";
const char* kAfter = R"(nunchi_judge_calls_total 10
nunchi_signals_total{disposition="judged"} 16
nunchi_signals_total{disposition="reused"} 60
nunchi_judge_queue_depth 0
nunchi_http_request_duration_seconds_bucket{le="0.5"} 4
nunchi_http_request_duration_seconds_sum 2
nunchi_llm_prefill_tokens_total{model="m"} 1500
nunchi_llm_generated_tokens_total{model="m"} 40
nunchi_llm_forced_tokens_total{model="m"} 90
nunchi_llm_prefix_reused_tokens_total{model="m"} 7000
nunchi_llm_degenerations_total{model="m",prompt="v1"} 1
)";

TEST(Prom, ParsesSeriesAndSkipsBuckets) {
  Series s = ParseMetrics(kBefore);
  EXPECT_EQ(s.size(), 5u);
  EXPECT_EQ(s["nunchi_judge_calls_total"], 4);
  EXPECT_EQ(s["nunchi_signals_total{disposition=\"judged\"}"], 10);
  EXPECT_EQ(SumOf(s, "nunchi_judge_queue_depth"), 2);
  EXPECT_EQ(SumOf(s, "nunchi_absent"), -1);
  EXPECT_EQ(MetricName("a_total{x=\"1\"}"), "a_total");
}

TEST(Prom, DeltasAndTokenFigures) {
  Series d = CounterDeltas(ParseMetrics(kBefore), ParseMetrics(kAfter));
  EXPECT_EQ(d["nunchi_judge_calls_total"], 6);
  EXPECT_EQ(d["nunchi_signals_total{disposition=\"reused\"}"], 60);
  EXPECT_EQ(d.count("nunchi_judge_queue_depth"), 0u);  // a gauge
  EXPECT_DOUBLE_EQ(d["nunchi_http_request_duration_seconds_sum"], 0.5);
  TokenFigures f = ClassifyTokens(d);
  EXPECT_EQ(f.prefilled, 500);
  EXPECT_EQ(f.generated, 40);
  EXPECT_EQ(f.forced, 90);
  EXPECT_EQ(f.reused, 7000);
  EXPECT_EQ(f.degenerations, 1);
  TokenFigures none = ClassifyTokens(CounterDeltas(ParseMetrics(kBefore), ParseMetrics(kBefore)));
  EXPECT_EQ(none.generated, -1);
}

}  // namespace
}  // namespace nunchi::bench
