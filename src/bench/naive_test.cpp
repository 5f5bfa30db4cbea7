#include "bench/naive.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "bench/backend.h"

namespace nunchi::bench {
namespace {

// A stand-in for llama-server: answers every chat completion with a valid
// judgment, except prompts that judge a signal listed in `bad`.
class FakeLlamaServer {
 public:
  FakeLlamaServer() {
    server_.Post(
        "/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
          ++calls_;
          std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_.load()));
          auto body = nlohmann::json::parse(req.body);
          std::lock_guard lock(mu_);
          last_ = body;
          std::string user = body["messages"][1]["content"];
          bool bad = !bad_.empty() && user.find("판정할 신호: [" + bad_ + "]") != std::string::npos;
          nlohmann::json out = {
              {"choices",
               {{{"message",
                  {{"content", bad ? "{\"relevance\": \"MAYBE\"}"
                                   : R"({"relevance":"RELEVANT","level":"HIGH","cause":"EVENT",)"
                                     R"("cause_text":"팝업 대기줄"})"}}}}}},
              {"usage", {{"prompt_tokens", 300}, {"completion_tokens", 20}}},
              {"timings", {{"prompt_n", 100}, {"cache_n", 200}, {"predicted_n", 20}}}};
          res.set_content(out.dump(), "application/json");
        });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeLlamaServer() {
    server_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::atomic<int> calls_{0};
  std::atomic<int> delay_ms_{0};
  std::mutex mu_;  // guards bad_ and last_ while requests run
  std::string bad_;
  nlohmann::json last_;

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(NaiveClient, OneCallPerNewSignalWithTheWholeBundle) {
  FakeLlamaServer fake;
  LoadSpec load;
  Backend backend(load, "n-", 1'795'944'000'000LL);
  backend.History();
  auto first = backend.Request();
  NaiveOptions o;
  o.url = fake.url();
  o.concurrency = 3;
  NaiveClient client(o);
  Series counters;
  auto resp = client.Analyze(first, &counters);
  EXPECT_EQ(fake.calls_, 66);
  EXPECT_EQ(resp["spots"].size(), 6u);
  for (const auto& s : resp["spots"]) EXPECT_EQ(s["analysis_status"], "OK");
  EXPECT_EQ(counters["nunchi_bench_naive_prompt_tokens_total"], 6600);
  EXPECT_EQ(counters["nunchi_bench_naive_cached_prompt_tokens_total"], 13200);
  EXPECT_EQ(counters["nunchi_bench_naive_completion_tokens_total"], 1320);
  TokenFigures f = ClassifyTokens(counters);
  EXPECT_EQ(f.prefilled, 6600);
  EXPECT_EQ(f.reused, 13200);
  EXPECT_EQ(f.generated, 1320);
  // The request carries the instructions, the bundle and a strict schema.
  EXPECT_EQ(fake.last_["response_format"]["json_schema"]["strict"], true);
  EXPECT_EQ(fake.last_["max_tokens"], 48);
  std::string user = fake.last_["messages"][1]["content"];
  EXPECT_NE(user.find("게시글 ["), std::string::npos);
  EXPECT_GE(std::count(user.begin(), user.end(), '\n'), 11);

  // An invalid answer fails its spot only.
  backend.Acknowledge(resp);
  backend.Tick();
  auto second = backend.Request();
  fake.bad_ = second["new_signals"][0]["signal_id"];
  fake.calls_ = 0;
  auto resp2 = client.Analyze(second, &counters);
  EXPECT_EQ(fake.calls_, 6);
  int failed = 0;
  for (const auto& s : resp2["spots"]) failed += s["analysis_status"] == "FAILED";
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(counters["nunchi_bench_naive_invalid_answers_total"], 1);
}

TEST(NaiveClient, UnreachableServerFailsEverySpotWithNewSignals) {
  LoadSpec load;
  Backend backend(load, "n-", 1'795'944'000'000LL);
  backend.History();
  NaiveOptions o;
  o.url = "http://127.0.0.1:1";
  o.deadline_s = 2;
  NaiveClient client(o);
  Series counters;
  auto resp = client.Analyze(backend.Request(), &counters);
  for (const auto& s : resp["spots"]) EXPECT_EQ(s["analysis_status"], "FAILED");
  // Refused at once: failed, but not cut by the deadline.
  EXPECT_EQ(counters["nunchi_bench_naive_deadline_cut_calls_total"], 0);
}

TEST(NaiveClient, CallsTheDeadlineCutAreCounted) {
  FakeLlamaServer fake;
  fake.delay_ms_ = 1500;
  LoadSpec load;
  Backend backend(load, "n-", 1'795'944'000'000LL);
  backend.History();
  NaiveOptions o;
  o.url = fake.url();
  o.concurrency = 2;
  o.deadline_s = 0.5;
  NaiveClient client(o);
  Series counters;
  auto resp = client.Analyze(backend.Request(), &counters);
  for (const auto& s : resp["spots"]) EXPECT_EQ(s["analysis_status"], "FAILED");
  // Two calls timed out at the deadline, the other 64 never started.
  EXPECT_EQ(counters["nunchi_bench_naive_deadline_cut_calls_total"], 66);
  EXPECT_EQ(counters["nunchi_bench_naive_calls_total"], 0);
}

}  // namespace
}  // namespace nunchi::bench
