#include "engines/remote/inference_health.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engines/remote/remote_pool.h"
#include "engines/remote/remote_test_util.h"

namespace nunchi::remote {
namespace {

using namespace std::chrono_literals;
using testing::CompletionBody;
using testing::FakeOpenAiServer;
using testing::kGoodAnswer;
using testing::MakeTask;
using testing::OptionsFor;

void Answer(const httplib::Request&, httplib::Response& res) {
  res.set_content(CompletionBody(kGoodAnswer), "application/json");
}

template <typename F>
bool WaitFor(F done, std::chrono::milliseconds at_most = 10s) {
  for (auto until = Clock::now() + at_most; Clock::now() < until;) {
    if (done()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return done();
}

// A fake server whose completions hang while `hang` is set; cleared before
// the server stops, so that its handlers return.
struct HangingServer {
  std::atomic<bool> hang{false};
  FakeOpenAiServer server{[this](const httplib::Request& req, httplib::Response& res) {
    while (hang) std::this_thread::sleep_for(5ms);
    Answer(req, res);
  }};
  ~HangingServer() { hang = false; }
};

TEST(InferenceHealthTest, ProbeAsksForOneTokenInTheServersDialect) {
  RemoteOptions o;
  o.model = "m";
  o.kind = BackendKind::kOpenAi;
  auto openai = nlohmann::json::parse(ProbeBody(o));
  EXPECT_EQ(openai["max_completion_tokens"], 1);
  EXPECT_EQ(openai["model"], "m");
  EXPECT_EQ(openai["stream"], false);
  o.kind = BackendKind::kLlamaServer;
  auto llama = nlohmann::json::parse(ProbeBody(o));
  EXPECT_EQ(llama["max_tokens"], 1);
  EXPECT_FALSE(llama.contains("max_completion_tokens"));
}

TEST(InferenceHealthTest, ProbeOnceNeedsACompletionInTime) {
  FakeOpenAiServer good(Answer);
  FakeOpenAiServer error([](const httplib::Request&, httplib::Response& res) { res.status = 500; });
  FakeOpenAiServer not_chat([](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"status":"ok"})", "application/json");
  });
  HangingServer h;
  HttpClient http;  // destroyed first: its kept-alive connections close before the servers stop
  EXPECT_TRUE(ProbeOnce(OptionsFor(good), std::nullopt, http, 2s).ok());
  EXPECT_EQ(good.body(0)["max_completion_tokens"], 1);
  EXPECT_EQ(ProbeOnce(OptionsFor(error), std::nullopt, http, 2s).code(), ErrorCode::kUnavailable);
  EXPECT_EQ(ProbeOnce(OptionsFor(not_chat), std::nullopt, http, 2s).code(),
            ErrorCode::kUnavailable);
  h.hang = true;
  EXPECT_EQ(ProbeOnce(OptionsFor(h.server), std::nullopt, http, 150ms).code(),
            ErrorCode::kDeadlineExceeded);
}

TEST(InferenceHealthTest, HangingCompletionsAreMarkedDownThoughHealthSaysOk) {
  HangingServer h;
  FakeOpenAiServer& hung = h.server;
  FakeOpenAiServer fine(Answer);
  // llama-server's liveness check answers ok all along.
  httplib::Client plain("127.0.0.1", std::stoi(hung.base_url().substr(17)));
  auto health = plain.Get("/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);

  auto member = [](const FakeOpenAiServer& s, const std::string& name) {
    auto o = OptionsFor(s);
    o.name = name;
    return std::shared_ptr<RemoteJudge>(RemoteJudge::Create(o).value());
  };
  PoolOptions po;
  po.health = {.interval = 50ms, .timeout = 200ms, .failures_to_down = 2};
  RemotePool pool("p", {member(hung, "hung"), member(fine, "fine")}, po);
  ASSERT_NE(pool.health(), nullptr);
  ASSERT_TRUE(WaitFor([&] { return pool.health()->stats(0).probes > 0; }));
  EXPECT_TRUE(pool.MemberReady(0));

  h.hang = true;
  ASSERT_TRUE(WaitFor([&] { return !pool.MemberReady(0); }));
  EXPECT_TRUE(plain.Get("/health")->status == 200);  // still "ok"
  EXPECT_TRUE(pool.MemberReady(1));
  EXPECT_TRUE(pool.Ready());
  EXPECT_GE(pool.health()->stats(0).marked_down, 1u);
  // Its breaker never opened (no call reached it): the probe took it out.
  EXPECT_TRUE(pool.members()[0]->Ready());

  // Every bundle now goes to the other server, without waiting on the hung one.
  for (int b = 0; b < 10; ++b) {
    JudgeTask task = MakeTask(3s);
    task.bundle.post_id = "post-" + std::to_string(b);
    auto out = pool.JudgeBundle(task);
    ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
    EXPECT_EQ(out[0]->judge, "remote:fine");
  }

  h.hang = false;  // completions answer again: probes bring it back
  ASSERT_TRUE(WaitFor([&] { return pool.MemberReady(0); }));
}

TEST(InferenceHealthTest, ARealSuccessStandsInForAProbe) {
  FakeOpenAiServer s(Answer);
  InferenceHealth health({OptionsFor(s)}, {.interval = 1s, .timeout = 1s, .failures_to_down = 1});
  ASSERT_TRUE(WaitFor([&] { return health.stats(0).probes == 1u; }));
  // Real answers every 20 ms for 2.5 intervals: no probe is needed.
  for (int i = 0; i < 125; ++i) {
    health.RecordSuccess(0);
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(health.stats(0).probes, 1u);
  EXPECT_EQ(s.requests(), 1);
  EXPECT_TRUE(health.ready(0));
}

TEST(InferenceHealthTest, IntervalZeroProbesNothing) {
  FakeOpenAiServer s(Answer);
  {
    InferenceHealth health({OptionsFor(s)}, {.interval = 0ms});
    EXPECT_TRUE(health.ready(0));
  }
  EXPECT_EQ(s.requests(), 0);
}

}  // namespace
}  // namespace nunchi::remote
