// Black-box: the real binary, normal cycles, growing bundles, the 409
// recovery, concurrent requests, health and metrics.
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "blackbox/cycle.h"

namespace nunchi::testing {

namespace {

const char* kHigh = "지금 사람 너무 많아서 발 디딜 틈도 없어요 줄이 끝이 안 보여요";
const char* kHigh2 = "대기 1시간 넘는다고 하네요 완전 미어터짐";
const char* kLow = "지금 완전 한산해요 줄 하나도 없어요";

TEST(Blackbox, NormalCyclesWithAGrowingBundle) {
  ServerProcess server(TempDir("normal"));
  auto c = server.Client();
  Backend be;
  be.AddSpot("s1", "성수동 팝업스토어");
  be.AddSpot("s2", "강남역 11번 출구");
  std::string p = be.Post("s1", "u1", kHigh, 3);
  be.Comment("s1", p, "u2", kHigh2, 2);

  auto r = PostAnalysis(c, be.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  auto j = nlohmann::json::parse(r->body);
  ASSERT_TRUE(j["state_epoch"].is_string());
  auto s1 = SpotOf(j, "s1");
  EXPECT_EQ(s1["analysis_status"], "OK");
  EXPECT_EQ(s1["congestion_level"], "HIGH");
  EXPECT_EQ(s1["report_count"], 2);
  EXPECT_TRUE(s1["cause_summary"].is_string());
  auto s2 = SpotOf(j, "s2");
  EXPECT_EQ(s2["analysis_status"], "OK");
  EXPECT_EQ(s2["congestion_level"], "UNKNOWN");
  EXPECT_TRUE(s2["cause_code"].is_null());
  EXPECT_EQ(s2["report_count"], 0);
  be.Acknowledge(j);
  const double calls1 = Metric(c, "nunchi_judge_calls_total");
  EXPECT_EQ(calls1, 1);

  // Next cycle: the bundle is resent with two new comments from new authors.
  be.Advance(1);
  be.Comment("s1", p, "u3", kLow, 0);
  be.Comment("s1", p, "u4", "지금은 한산해요 널널", 0);
  r = PostAnalysis(c, be.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  j = nlohmann::json::parse(r->body);
  s1 = SpotOf(j, "s1");
  EXPECT_EQ(s1["report_count"], 4);
  EXPECT_EQ(s1["congestion_level"], "UNKNOWN");  // 2 HIGH vs 2 LOW: a tie
  be.Acknowledge(j);
  EXPECT_EQ(Metric(c, "nunchi_judge_calls_total"), 2);
  EXPECT_EQ(Metric(c, "nunchi_signals_total", "{disposition=\"judged\"}"), 4);

  // A cycle with nothing new re-aggregates without calling any judge; 25
  // minutes later every report has left the window.
  be.Advance(25);
  r = PostAnalysis(c, be.Request());
  ASSERT_EQ(r->status, 200) << r->body;
  j = nlohmann::json::parse(r->body);
  EXPECT_EQ(SpotOf(j, "s1")["congestion_level"], "UNKNOWN");
  EXPECT_EQ(SpotOf(j, "s1")["report_count"], 0);
  EXPECT_EQ(Metric(c, "nunchi_judge_calls_total"), 2);
}

TEST(Blackbox, StateResetAndFullRecovery) {
  std::string dir = TempDir("reset");
  Backend be;
  be.AddSpot("s1", "홍대입구역 9번 출구");
  std::string p = be.Post("s1", "u1", kHigh, 2);
  {
    ServerProcess server(dir);
    auto c = server.Client();
    auto r = PostAnalysis(c, be.Request());
    ASSERT_EQ(r->status, 200) << r->body;
    be.Acknowledge(nlohmann::json::parse(r->body));
  }
  // The store is lost: a new data directory, so a new epoch.
  ServerProcess server(TempDir("reset-new"));
  auto c = server.Client();
  be.Comment("s1", p, "u2", kHigh2, 0);
  auto r = PostAnalysis(c, be.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 409) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/problem+json");
  auto problem = nlohmann::json::parse(r->body);
  EXPECT_EQ(problem["code"], "STATE_RESET");
  EXPECT_EQ(problem["status"], 409);
  EXPECT_EQ(Metric(c, "nunchi_store_rows"), 0);

  // Same with no epoch at all: the resent post has no stored judgment.
  auto saved_epoch = be.epoch();
  be.epoch().reset();
  r = PostAnalysis(c, be.Request());
  ASSERT_EQ(r->status, 409) << r->body;
  be.epoch() = saved_epoch;

  // The backend resends everything as new (still carrying its stale epoch).
  r = PostAnalysis(c, be.Request(/*resend_all=*/true));
  ASSERT_EQ(r->status, 200) << r->body;
  auto j = nlohmann::json::parse(r->body);
  EXPECT_NE(j["state_epoch"], *saved_epoch);
  EXPECT_EQ(SpotOf(j, "s1")["congestion_level"], "HIGH");
  EXPECT_EQ(SpotOf(j, "s1")["report_count"], 2);
  be.Acknowledge(j);

  // Normal service resumes.
  be.Advance(1);
  be.Comment("s1", p, "u3", kHigh, 0);
  r = PostAnalysis(c, be.Request());
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(SpotOf(nlohmann::json::parse(r->body), "s1")["report_count"], 3);
  EXPECT_EQ(Metric(c, "nunchi_state_resets_total", "{reason=\"epoch\"}"), 1);
}

TEST(Blackbox, JudgmentsSurviveARestart) {
  std::string dir = TempDir("restart");
  Backend be;
  be.AddSpot("s1", "잠실 롯데월드 정문");
  std::string p = be.Post("s1", "u1", kLow, 1);
  std::string epoch;
  {
    ServerProcess server(dir);
    auto c = server.Client();
    auto r = PostAnalysis(c, be.Request());
    ASSERT_EQ(r->status, 200) << r->body;
    be.Acknowledge(nlohmann::json::parse(r->body));
    EXPECT_EQ(server.Stop(), 0);
  }
  ServerProcess server(dir);
  auto c = server.Client();
  be.Comment("s1", p, "u2", kLow, 0);
  auto r = PostAnalysis(c, be.Request());
  ASSERT_EQ(r->status, 200) << r->body;
  auto j = nlohmann::json::parse(r->body);
  EXPECT_EQ(j["state_epoch"], *be.epoch());
  EXPECT_EQ(SpotOf(j, "s1")["report_count"], 2);
  EXPECT_EQ(SpotOf(j, "s1")["congestion_level"], "LOW");
}

TEST(Blackbox, ConcurrentClientsGetTheirOwnAnswers) {
  ServerProcess server(TempDir("concurrent"));
  constexpr int kClients = 8;
  std::vector<std::future<std::string>> results;
  for (int i = 0; i < kClients; ++i) {
    results.push_back(std::async(std::launch::async, [&server, i] {
      auto c = server.Client();
      Backend be(0, "k" + std::to_string(i) + "-");
      std::string spot = "spot-" + std::to_string(i);
      be.AddSpot(spot, "장소 " + std::to_string(i));
      for (int k = 0; k < 5; ++k) {
        std::string p = be.Post(spot, "a" + std::to_string(i) + "-" + std::to_string(k),
                                i % 2 ? kHigh : kLow, 1);
        be.Comment(spot, p, "b" + std::to_string(i) + "-" + std::to_string(k),
                   i % 2 ? kHigh2 : "여기 진짜 한산해요 자리 많아요", 0);
      }
      auto r = PostAnalysis(c, be.Request());
      if (!r || r->status != 200) return std::string("error");
      auto j = nlohmann::json::parse(r->body);
      if (j["spots"].size() != 1) return std::string("wrong spots");
      auto s = SpotOf(j, spot);
      if (s.is_null()) return std::string("missing spot");
      return s["congestion_level"].get<std::string>() + "/" +
             std::to_string(s["report_count"].get<int>());
    }));
  }
  for (int i = 0; i < kClients; ++i)
    EXPECT_EQ(results[i].get(), std::string(i % 2 ? "HIGH" : "LOW") + "/10") << "client " << i;
}

TEST(Blackbox, HealthMetricsAndRequestIds) {
  ServerProcess server(TempDir("ops"));
  auto c = server.Client();
  auto live = c.Get("/livez");
  ASSERT_TRUE(live);
  EXPECT_EQ(live->status, 200);
  auto ready = c.Get("/readyz");
  EXPECT_EQ(ready->status, 200);
  EXPECT_EQ(c.Get("/health")->status, 200);
  httplib::Headers h = {{"X-Request-Id", "trace-42"}};
  Backend be;
  be.AddSpot("s1", "서울숲");
  be.Post("s1", "u1", kLow);
  auto r = c.Post("/v1/congestion-analyses", h, be.Request().dump(), "application/json");
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("X-Request-Id"), "trace-42");
  EXPECT_FALSE(c.Get("/livez")->get_header_value("X-Request-Id").empty());
  // The latency is observed by the server's logger just after the response
  // is written, so the first scrape may race it: poll briefly.
  const std::string latency_line =
      "nunchi_http_request_duration_seconds_bucket{route=\"/v1/"
      "congestion-analyses\",status=\"200\"";
  std::string metrics;
  for (int i = 0; i < 100; ++i) {
    auto m = c.Get("/metrics");
    ASSERT_TRUE(m);
    ASSERT_EQ(m->status, 200);
    metrics = m->body;
    if (metrics.find(latency_line) != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(metrics.find(latency_line), std::string::npos);
  EXPECT_NE(metrics.find("nunchi_judgments_total{"), std::string::npos);
  EXPECT_NE(metrics.find("nunchi_spots_total{status=\"OK\"} 1"), std::string::npos);
  EXPECT_EQ(Metric(c, "nunchi_store_rows"), 1);
  // The decision log has one line for the judged signal, tagged with the request id.
  std::ifstream f(server.data_dir() + "/decisions.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(f, line));
  auto entry = nlohmann::json::parse(line);
  EXPECT_EQ(entry["request_id"], "trace-42");
  EXPECT_EQ(entry["outcome"], "judged");
  EXPECT_TRUE(entry["judge"].is_string());
  EXPECT_FALSE(entry.contains("text"));  // texts only when asked
}

TEST(Blackbox, ADeadModelServerFallsBackToTheDefaultJudge) {
  // Port 9 on loopback: nothing listens, every connection is refused. The
  // cascade (the default route with a model) is told to escalate everything,
  // so the dead server is asked and the cheap judgment stands.
  ServerProcess server(
      TempDir("fallback"),
      {"--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--remote-model", "m",
       "--deadline-ms", "8000", "--escalation-threshold", "1.01"});
  auto c = server.Client();
  Backend be;
  be.AddSpot("s1", "서울역 2번 출구");
  be.Post("s1", "u1", kHigh, 1);
  const auto start = std::chrono::steady_clock::now();
  auto r = PostAnalysis(c, be.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(8));
  auto s1 = SpotOf(nlohmann::json::parse(r->body), "s1");
  EXPECT_EQ(s1["analysis_status"], "OK");
  EXPECT_EQ(s1["congestion_level"], "HIGH");
  // The metrics say who answered and why: the remote judge (the cascade's,
  // on the short escalation prompt) failed to connect.
  EXPECT_GE(Metric(c, "nunchi_remote_transport_errors_total",
                   "{backend=\"openai\",model=\"m\",prompt_version=\"judge-escalate-v1\"}"),
            1);
  EXPECT_EQ(Metric(c, "nunchi_judgments_total", "{judge=\"rules\",outcome=\"ok\"}"), 1);
}

}  // namespace
}  // namespace nunchi::testing
