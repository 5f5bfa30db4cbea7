#include "bench/runner.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace nunchi::bench {
namespace {

// A stand-in for nunchi: answers every spot OK, asks for a STATE_RESET once
// (the third request), and exports a token counter that grows per request.
class FakeNunchi {
 public:
  FakeNunchi() {
    server_.Post("/v1/congestion-analyses",
                 [this](const httplib::Request& req, httplib::Response& res) {
                   int n = ++requests_;
                   auto body = nlohmann::json::parse(req.body);
                   if (n == 3) {
                     res.status = 409;
                     res.set_content(R"({"code":"STATE_RESET"})", "application/problem+json");
                     return;
                   }
                   new_signals_ += static_cast<int>(body["new_signals"].size());
                   nlohmann::json out = {{"analyzed_at", body["analyzed_at"]},
                                         {"state_epoch", "e-fake"},
                                         {"spots", nlohmann::json::array()}};
                   for (const auto& s : body["spots"])
                     out["spots"].push_back({{"spot_id", s["spot_id"]}, {"analysis_status", "OK"}});
                   res.set_content(out.dump(), "application/json");
                 });
    server_.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      // The late-replaced counter grows with every scrape, between cycles too.
      const int scrapes = ++scrapes_;
      res.set_content("nunchi_judge_queue_depth 0\nnunchi_llm_prefill_tokens_total " +
                          std::to_string(100 * requests_.load()) +
                          "\nnunchi_cascade_targets_total{judge=\"llm\"} " +
                          std::to_string(10 * requests_.load()) +
                          "\nnunchi_cascade_escalated_total{judge=\"llm\"} " +
                          std::to_string(2 * requests_.load()) +
                          "\nnunchi_cascade_late_replaced_total{judge=\"llm\"} " +
                          std::to_string(scrapes) + "\n",
                      "text/plain");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeNunchi() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::atomic<int> requests_{0}, new_signals_{0}, scrapes_{0};

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(RunBench, CyclesAgainstATargetWithAReset) {
  FakeNunchi fake;
  RunOptions o;
  o.load.cycles = 6;
  // Generous enough that no cycle overruns its tick even under ASan on a
  // busy 2-core machine (an overrun tick is merged, and the count drops).
  o.load.interval_s = 0.5;
  o.target = fake.url();
  o.progress = false;
  o.id_prefix = "rt-";
  Conditions c;
  std::vector<CycleResult> cycles;
  std::string error;
  Series run;
  ASSERT_TRUE(RunBench(o, &c, &cycles, &error, &run)) << error;
  ASSERT_EQ(cycles.size(), 6u);
  EXPECT_EQ(c.target, fake.url());
  // Warm-up, then 6 cycles, one of them answered 409 and resent.
  EXPECT_EQ(fake.requests_, 8);
  EXPECT_TRUE(cycles[1].reset);
  EXPECT_TRUE(cycles[1].cold);
  EXPECT_GT(cycles[1].new_signals, 60);
  EXPECT_EQ(cycles[2].new_signals, 6);
  for (const auto& r : cycles) {
    EXPECT_EQ(r.spots_ok, 6) << r.error;
    EXPECT_EQ(r.tokens.prefilled, r.reset ? 200 : 100);
    EXPECT_EQ(r.queue_before, 0);
    EXPECT_EQ(r.cascade.targets, r.reset ? 20 : 10);
    EXPECT_EQ(r.cascade.late_replaced, 1);  // its own two scrapes
  }
  // The run's figures: from before the first cycle to after the last, 7 requests.
  CascadeFigures whole = CascadeFromDeltas(run);
  EXPECT_EQ(whole.targets, 70);
  EXPECT_EQ(whole.escalated, 14);
  EXPECT_EQ(whole.late_replaced, 13);  // 12 scrapes of the cycles and the last one
  Summary s = Summarize(cycles, o.load.interval_s);
  EXPECT_EQ(s.resets, 1);
  EXPECT_FALSE(s.backlog_grows);
}

}  // namespace
}  // namespace nunchi::bench
