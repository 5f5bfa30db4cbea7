#include "engines/remote/remote_judge.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "domain/trace_context.h"
#include "engines/remote/remote_test_util.h"

namespace nunchi::remote {
namespace {

using namespace std::chrono_literals;
using testing::CompletionBody;
using testing::FakeOpenAiServer;
using testing::kGoodAnswer;
using testing::MakeJudge;
using testing::MakeTask;
using testing::OptionsFor;

void ExpectAll(const JudgeOutput& out, ErrorCode code) {
  for (const auto& r : out) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  }
}

TEST(RemoteJudgeTest, StructuredAnswerIsParsed) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto o = OptionsFor(server);
  o.api_key_env = "NUNCHI_TEST_FAKE_KEY";
  ::setenv("NUNCHI_TEST_FAKE_KEY", "sk-secret-123", 1);
  auto judge = MakeJudge(o);
  ::unsetenv("NUNCHI_TEST_FAKE_KEY");
  ASSERT_TRUE(judge);
  EXPECT_EQ(judge->name(), "remote:fake");
  auto out = judge->JudgeBundle(MakeTask());
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(out[0]->relevance, Relevance::kRelevant);
  EXPECT_EQ(out[0]->level, Level::kHigh);
  EXPECT_EQ(out[0]->cause, Cause::kEvent);
  EXPECT_EQ(out[0]->cause_text, "팝업 오픈런 대기줄");
  EXPECT_EQ(out[0]->judge, "remote:fake");
  EXPECT_EQ(out[0]->model, "fake-model");
  EXPECT_EQ(out[0]->prompt_version, "judge-v1");
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->relevance, Relevance::kIrrelevant);

  // The request: prompt layout, strict schema with the target ids, the key in the header.
  ASSERT_EQ(server.requests(), 1);
  auto body = server.body(0);
  EXPECT_EQ(body["model"], "fake-model");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], std::string(llm::SharedPrefix()));
  EXPECT_NE(body["messages"][1]["content"].get<std::string>().find("Judge: #2 #3"),
            std::string::npos);
  const auto& format = body["response_format"];
  EXPECT_EQ(format["type"], "json_schema");
  EXPECT_EQ(format["json_schema"]["strict"], true);
  EXPECT_EQ(format["json_schema"]["schema"]["required"], nlohmann::json({"#2", "#3"}));
  EXPECT_EQ(body["max_completion_tokens"], 16 + 48 * 2);
  EXPECT_EQ(body["stream"], false);
  EXPECT_EQ(server.authorization(0), "Bearer sk-secret-123");
  EXPECT_EQ(judge->stats().answered.load(), 1u);
}

// The cascade's escalation prompt on a remote backend (issue 14): the post
// and the latest K comments, and a schema asking the cause text ("t") of the
// last target only; an answer without the others' texts is whole.
TEST(RemoteJudgeTest, EscalationPromptAsksTheCauseTextOfTheLastTargetOnly) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody(R"({"#5":{"r":"RELEVANT","l":"HIGH","c":"EVENT"},)"
                                   R"("#6":{"r":"RELEVANT","l":"LOW","c":"NONE","t":"한산"}})"),
                    "application/json");
  });
  auto o = OptionsFor(server);
  o.prompt_version = std::string(llm::kEscalationPromptVersion);
  o.escalation.latest_comments = 2;
  auto judge = MakeJudge(o);
  ASSERT_TRUE(judge);
  JudgeTask task = MakeTask();
  for (int i = 3; i <= 5; ++i)
    task.bundle.comments.push_back(testing::MakeSignal("c" + std::to_string(i), "u4", 6 + i,
                                                       "댓글 " + std::to_string(i) + "번"));
  task.targets = {4, 5};  // #5 and #6, the latest two comments
  auto out = judge->JudgeBundle(task);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(out[0]->level, Level::kHigh);
  EXPECT_EQ(out[0]->cause_text, "") << "not asked: the cascade writes it";
  EXPECT_EQ(out[0]->prompt_version, std::string(llm::kEscalationPromptVersion));
  ASSERT_TRUE(out[1].ok()) << out[1].status().ToString();
  EXPECT_EQ(out[1]->cause_text, "한산");

  ASSERT_EQ(server.requests(), 1);
  auto body = server.body(0);
  const std::string user = body["messages"][1]["content"].get<std::string>();
  EXPECT_NE(user.find("#2-#4 not shown"), std::string::npos) << user;
  EXPECT_EQ(user.find("끝이 안 보여요"), std::string::npos) << "an old comment is left out";
  EXPECT_NE(user.find("댓글 5번"), std::string::npos);
  const auto& schema = body["response_format"]["json_schema"]["schema"];
  EXPECT_EQ(schema["required"], nlohmann::json({"#5", "#6"}));
  EXPECT_EQ(schema["properties"]["#5"].dump().find("\"t\""), std::string::npos)
      << schema["properties"]["#5"].dump();
  EXPECT_NE(schema["properties"]["#6"].dump().find("\"t\""), std::string::npos)
      << schema["properties"]["#6"].dump();
}

TEST(RemoteJudgeTest, KeyIsNeverInAStatus) {
  FakeOpenAiServer server([](const httplib::Request& req, httplib::Response& res) {
    res.status = 401;  // a server that echoes the header it rejected
    res.set_content(
        R"({"error":{"message":"bad key )" + req.get_header_value("Authorization") + "\"}}",
        "application/json");
  });
  auto o = OptionsFor(server);
  o.api_key_env = "NUNCHI_TEST_FAKE_KEY";
  ::setenv("NUNCHI_TEST_FAKE_KEY", "sk-secret-456", 1);
  auto judge = MakeJudge(o);
  ::unsetenv("NUNCHI_TEST_FAKE_KEY");
  auto out = judge->JudgeBundle(MakeTask());
  ASSERT_FALSE(out[0].ok());
  EXPECT_EQ(out[0].status().message().find("sk-secret-456"), std::string::npos);
  EXPECT_NE(out[0].status().message().find("Bearer ***"), std::string::npos)
      << out[0].status().message();
}

TEST(RemoteJudgeTest, BackendKindsAddTheirExtras) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  for (auto kind : {BackendKind::kVllm, BackendKind::kLlamaServer}) {
    auto o = OptionsFor(server);
    o.kind = kind;
    auto judge = MakeJudge(o);
    ASSERT_TRUE(judge);
    auto out = judge->JudgeBundle(MakeTask());
    ASSERT_TRUE(out[0].ok());
  }
  auto vllm = server.body(0);
  EXPECT_FALSE(vllm.contains("response_format"));
  EXPECT_EQ(vllm["structured_outputs"]["disable_any_whitespace"], true);
  EXPECT_EQ(vllm["structured_outputs"]["json"]["required"], nlohmann::json({"#2", "#3"}));
  EXPECT_EQ(vllm["max_tokens"], 112);
  auto llama = server.body(1);
  EXPECT_FALSE(llama.contains("response_format"));
  EXPECT_NE(llama["grammar"].get<std::string>().find("root ::="), std::string::npos);
  EXPECT_EQ(llama["cache_prompt"], true);
}

TEST(RemoteJudgeTest, GarbageJsonFailsEveryTargetAfterOneDifferentRetry) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody("Sure! Here are the judgments: {\"#2\": RELEVANT"),
                    "application/json");
  });
  auto judge = MakeJudge(OptionsFor(server));
  auto out = judge->JudgeBundle(MakeTask());
  ExpectAll(out, ErrorCode::kInvalidOutput);
  EXPECT_EQ(server.requests(), 2);  // retried once, differently
  EXPECT_EQ(server.body(0)["temperature"], 0.0);
  EXPECT_EQ(server.body(1)["temperature"], 0.7);
  EXPECT_NE(server.body(0)["seed"], server.body(1)["seed"]);
  EXPECT_EQ(judge->output_counters().Get(llm::Violation::kNotJson), 2u);
  EXPECT_EQ(judge->stats().invalid_answers.load(), 2u);
}

TEST(RemoteJudgeTest, NotACompletionIsABadResponse) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content("<html>gateway</html>", "text/html");
  });
  auto o = OptionsFor(server);
  o.retries = 1;
  auto out = MakeJudge(o)->JudgeBundle(MakeTask());
  ExpectAll(out, ErrorCode::kInvalidOutput);
  EXPECT_EQ(server.requests(), 2);
}

TEST(RemoteJudgeTest, Http500IsRetriedThenFails) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.status = 500;
    res.set_content(R"({"error":{"message":"model crashed"}})", "application/json");
  });
  auto o = OptionsFor(server);
  o.retries = 2;
  auto judge = MakeJudge(o);
  auto out = judge->JudgeBundle(MakeTask());
  ExpectAll(out, ErrorCode::kUnavailable);
  EXPECT_NE(out[0].status().message().find("model crashed"), std::string::npos);
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(judge->stats().retries.load(), 2u);
  EXPECT_EQ(judge->breaker().consecutive_failures(), 3);
}

TEST(RemoteJudgeTest, Http400IsNotRetried) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.status = 400;
    res.set_content(R"({"error":{"message":"bad schema"}})", "application/json");
  });
  auto judge = MakeJudge(OptionsFor(server));
  ExpectAll(judge->JudgeBundle(MakeTask()), ErrorCode::kUnavailable);
  EXPECT_EQ(server.requests(), 1);
  EXPECT_EQ(judge->breaker().consecutive_failures(), 0);  // not the backend's health
}

TEST(RemoteJudgeTest, RetryAfterIsHonoured) {
  std::atomic<int> calls{0};
  FakeOpenAiServer server([&](const httplib::Request&, httplib::Response& res) {
    if (calls++ == 0) {
      res.status = 429;
      res.set_header("Retry-After", "1");
      res.set_content(R"({"error":{"message":"slow down"}})", "application/json");
    } else {
      res.set_content(CompletionBody(kGoodAnswer), "application/json");
    }
  });
  auto judge = MakeJudge(OptionsFor(server));
  auto start = Clock::now();
  auto out = judge->JudgeBundle(MakeTask());
  auto waited = Clock::now() - start;
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(server.requests(), 2);
  EXPECT_GE(waited, 950ms);  // the backoff alone would be ~10 ms
  EXPECT_LT(waited, 3s);
  EXPECT_EQ(judge->stats().rate_limited.load(), 1u);
}

TEST(RemoteJudgeTest, RetryAfterPastTheDeadlineFailsAtOnce) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_header("Retry-After", "30");
  });
  auto judge = MakeJudge(OptionsFor(server));
  auto start = Clock::now();
  auto out = judge->JudgeBundle(MakeTask(2s));
  EXPECT_LT(Clock::now() - start, 1s);
  ExpectAll(out, ErrorCode::kUnavailable);
  EXPECT_EQ(server.requests(), 1);
}

TEST(RemoteJudgeTest, SlowServerIsCutAtTheTaskDeadline) {
  FakeOpenAiServer server([&server](const httplib::Request&, httplib::Response& res) {
    for (int i = 0; i < 300 && !server.stopping(); ++i) std::this_thread::sleep_for(10ms);
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto o = OptionsFor(server);
  o.timeout = 30s;  // the task's deadline is the tighter one
  auto judge = MakeJudge(o);
  auto start = Clock::now();
  auto out = judge->JudgeBundle(MakeTask(400ms));
  auto took = Clock::now() - start;
  ExpectAll(out, ErrorCode::kDeadlineExceeded);
  EXPECT_GE(took, 350ms);
  EXPECT_LT(took, 1500ms);
  EXPECT_EQ(server.requests(), 1);
  EXPECT_EQ(judge->stats().timeouts.load(), 1u);
}

TEST(RemoteJudgeTest, ConnectionRefusedIsUnavailable) {
  RemoteOptions o;
  {
    FakeOpenAiServer gone([](const httplib::Request&, httplib::Response&) {});
    o = OptionsFor(gone);
  }  // the port is closed now
  o.retries = 1;
  auto judge = MakeJudge(o);
  ExpectAll(judge->JudgeBundle(MakeTask()), ErrorCode::kUnavailable);
  EXPECT_EQ(judge->stats().transport_errors.load(), 2u);
}

TEST(RemoteJudgeTest, ConcurrencyIsLimitedPerBackend) {
  std::atomic<int> inside{0}, peak{0};
  FakeOpenAiServer server([&](const httplib::Request&, httplib::Response& res) {
    int now = ++inside;
    int p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
    std::this_thread::sleep_for(50ms);
    --inside;
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto o = OptionsFor(server);
  o.max_concurrency = 2;
  auto judge = MakeJudge(o);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      if (judge->JudgeBundle(MakeTask())[0].ok()) ++ok;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 6);
  EXPECT_EQ(peak.load(), 2);
}

TEST(RemoteJudgeTest, BadOptionsAreRejected) {
  RemoteOptions o;
  o.model = "";
  EXPECT_EQ(RemoteJudge::Create(o).status().code(), ErrorCode::kInvalidArgument);
  o.model = "m";
  o.prompt_version = "judge-v0";
  EXPECT_EQ(RemoteJudge::Create(o).status().code(), ErrorCode::kInvalidArgument);
  o.prompt_version = "judge-v1";
  o.api_key_env = "NUNCHI_TEST_SURELY_UNSET_KEY";
  EXPECT_EQ(RemoteJudge::Create(o).status().code(), ErrorCode::kInvalidArgument);
}

TEST(RemoteJudgeTest, EveryCallSendsAChildOfTheRequestsTraceparent) {
  // The first attempt fails (500) so that the retry is a second call.
  std::atomic<int> calls{0};
  FakeOpenAiServer server([&calls](const httplib::Request&, httplib::Response& res) {
    if (calls++ == 0) {
      res.status = 500;
      return;
    }
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto judge = MakeJudge(OptionsFor(server));
  ASSERT_TRUE(judge);
  JudgeTask task = MakeTask();
  task.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto out = judge->JudgeBundle(task);
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  ASSERT_EQ(server.requests(), 2);
  const std::string a = server.traceparent(0), b = server.traceparent(1);
  ASSERT_TRUE(ValidTraceparent(a)) << a;
  ASSERT_TRUE(ValidTraceparent(b)) << b;
  EXPECT_EQ(TraceIdOf(a), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(TraceIdOf(b), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_NE(SpanIdOf(a), "00f067aa0ba902b7");  // a span of nunchi's own
  EXPECT_NE(SpanIdOf(a), SpanIdOf(b));         // one per call
  EXPECT_EQ(a.substr(53), "01");               // the caller's flags
}

TEST(RemoteJudgeTest, WithoutATraceparentACallStartsATrace) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto judge = MakeJudge(OptionsFor(server));
  ASSERT_TRUE(judge);
  judge->JudgeBundle(MakeTask());
  judge->JudgeBundle(MakeTask());
  ASSERT_EQ(server.requests(), 2);
  EXPECT_TRUE(ValidTraceparent(server.traceparent(0))) << server.traceparent(0);
  EXPECT_NE(TraceIdOf(server.traceparent(0)), TraceIdOf(server.traceparent(1)));
}

}  // namespace
}  // namespace nunchi::remote
