#include "ops/metrics.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

TEST(Metrics, RendersCountersGaugesAndHistograms) {
  MetricsRegistry r;
  r.Counter("nunchi_judgments_total", "Judgments.").Add({{"judge", "rules"}}, 2);
  r.Gauge("nunchi_store_rows", "Rows.").Set({}, 7);
  auto& h = r.Histogram("nunchi_request_duration_seconds", "Latency.", {0.1, 1});
  h.Observe({{"route", "/x"}}, 0.05);
  h.Observe({{"route", "/x"}}, 0.5);
  std::string text = r.Render();
  EXPECT_NE(text.find("nunchi_judgments_total{judge=\"rules\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE nunchi_store_rows gauge"), std::string::npos);
  EXPECT_NE(text.find("nunchi_request_duration_seconds_bucket{route=\"/x\",le=\"0.1\"} 1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("nunchi_request_duration_seconds_bucket{route=\"/x\",le=\"+Inf\"} 2"),
            std::string::npos);
  EXPECT_NE(text.find("nunchi_request_duration_seconds_count{route=\"/x\"} 2"), std::string::npos);
  EXPECT_EQ(h.Count({{"route", "/x"}}), 2u);
}

TEST(Metrics, RenderHooksRefreshGauges) {
  MetricsRegistry r;
  int calls = 0;
  r.OnRender([&](MetricsRegistry& m) { m.Gauge("nunchi_g", "g").Set({}, ++calls); });
  r.Render();
  std::string text = r.Render();
  EXPECT_NE(text.find("nunchi_g 2"), std::string::npos) << text;
}

TEST(Metrics, EscapesLabelValues) {
  MetricsRegistry r;
  r.Counter("nunchi_c", "c").Add({{"k", "a\"b\\c"}});
  EXPECT_NE(r.Render().find("nunchi_c{k=\"a\\\"b\\\\c\"} 1"), std::string::npos);
}

}  // namespace
}  // namespace nunchi
