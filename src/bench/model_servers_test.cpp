#include "bench/model_servers.h"

#include <gtest/gtest.h>

namespace nunchi::bench {
namespace {

CycleResult Cycle(double s0_prompt, double s1_prompt, double cached, double predicted) {
  CycleResult c;
  c.deltas["nunchi_bench_llama_server_prompt_tokens_total{server=\"0\"}"] = s0_prompt;
  c.deltas["nunchi_bench_llama_server_prompt_tokens_total{server=\"1\"}"] = s1_prompt;
  c.deltas["nunchi_bench_llama_server_prompt_tokens_cached_total{server=\"0\"}"] = cached;
  c.deltas["nunchi_bench_llama_server_tokens_predicted_total{server=\"1\"}"] = predicted;
  return c;
}

TEST(ModelServersTest, TokenFiguresAreMeansPerCycleOverEveryServer) {
  ModelServersPoint p;
  FillTokenFigures({Cycle(300, 100, 50, 10), Cycle(500, 100, 150, 30)}, 2, &p);
  EXPECT_DOUBLE_EQ(p.prompt_per_cycle, 500);  // (400 + 600) / 2
  EXPECT_DOUBLE_EQ(p.cached_per_cycle, 100);
  EXPECT_DOUBLE_EQ(p.generated_per_cycle, 20);
  EXPECT_DOUBLE_EQ(p.busiest_share, 0.8);  // server 0: 800 of 1000
}

TEST(ModelServersTest, OneServerIsUnlabelledAndNoMetricsIsNa) {
  CycleResult c;
  c.deltas["nunchi_bench_llama_server_prompt_tokens_total"] = 42;
  ModelServersPoint one;
  FillTokenFigures({c}, 1, &one);
  EXPECT_DOUBLE_EQ(one.prompt_per_cycle, 42);
  EXPECT_DOUBLE_EQ(one.busiest_share, 1.0);
  ModelServersPoint none;
  FillTokenFigures({CycleResult{}}, 2, &none);
  EXPECT_LT(none.prompt_per_cycle, 0);
  EXPECT_NE(ModelServersTable({none}).find("n/a"), std::string::npos);
}

TEST(ModelServersTest, CsvHasOneLinePerPoint) {
  ModelServersPoint a, b;
  a.label = "s2-affinity-on-r1", a.servers = 2, a.affinity = "on", a.round = 1;
  a.prompt_per_cycle = 123.4;
  b.label = "s2-affinity-off-r1", b.servers = 2, b.affinity = "off", b.round = 1;
  b.error = "llama-server exited, status 1";
  std::string csv = ModelServersCsv({a, b});
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_NE(csv.find("s2-affinity-on-r1,2,on,1,"), std::string::npos);
  EXPECT_NE(csv.find(",123.4,"), std::string::npos);
  EXPECT_NE(csv.find("\"llama-server exited, status 1\""), std::string::npos);
}

}  // namespace
}  // namespace nunchi::bench
