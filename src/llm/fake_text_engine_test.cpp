// The scripted engine keeps the TextEngine contract the judge and chooser
// unit tests rely on (label: unit, no model).
#include "llm/fake_text_engine.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>

namespace nunchi::llm {
namespace {

using namespace std::chrono_literals;

EngineRequest Req(std::string id, int priority = 0) {
  EngineRequest r;
  r.prompt = "prompt of " + id;
  r.id = std::move(id);
  r.priority = priority;
  return r;
}

TEST(FakeTextEngine, AnswersTheScriptAndCounts) {
  FakeTextEngine e([](const EngineRequest& r) {
    if (r.id == "bad") return FakeAnswer{Status(ErrorCode::kInvalidOutput, "scripted")};
    EngineResult res;
    res.text = "answer to " + r.id;
    return FakeAnswer{res};
  });
  auto ok = e.Run(Req("a"));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->text, "answer to a");
  EXPECT_EQ(e.Run(Req("bad")).status().code(), ErrorCode::kInvalidOutput);
  const EngineCounters c = e.Counters();
  EXPECT_EQ(c.requests, 2u);
  EXPECT_EQ(c.fallbacks, 1u);
  EXPECT_EQ(e.Tokenize("abc").size(), 3u);
}

TEST(FakeTextEngine, LoopsRetryOnceThenDegenerate) {
  FakeTextEngine e([](const EngineRequest& r) {
    FakeAnswer a;
    a.loops = r.id == "twice" ? 2 : 1;
    return a;
  });
  auto once = e.Run(Req("once"));
  ASSERT_TRUE(once.ok());
  EXPECT_EQ(once->attempts, 2);
  EXPECT_EQ(e.Run(Req("twice")).status().code(), ErrorCode::kDegenerated);
  EngineRequest no_retry = Req("once");
  no_retry.retry_on_loop = false;
  EXPECT_EQ(e.Run(no_retry).status().code(), ErrorCode::kDegenerated);
  EXPECT_EQ(e.Counters().degenerations, 2u);
}

TEST(FakeTextEngine, AThrowOnTheWorkerFailsThatRequestOnly) {
  FakeTextEngine e(AnswerAlways("fine"));
  e.set_fault_hook([](const EngineRequest& r) {
    if (r.id == "boom") throw std::runtime_error("hook");
  });
  auto futures = e.SubmitAll({Req("a"), Req("boom"), Req("b")});
  EXPECT_TRUE(futures[0].get().ok());
  auto failed = futures[1].get();
  EXPECT_EQ(failed.status().code(), ErrorCode::kInternal);
  EXPECT_NE(failed.status().message().find("hook"), std::string::npos);
  EXPECT_TRUE(futures[2].get().ok());
  EXPECT_TRUE(e.Ready());
  EXPECT_EQ(e.Counters().faults, 1u);
  EXPECT_EQ(e.Counters().faulted_requests, 1u);
}

TEST(FakeTextEngine, AFatalFaultMakesItNotReadyAndAnswersUnavailable) {
  FakeTextEngine e(AnswerAlways("fine"));
  e.set_fault_hook([](const EngineRequest&) { throw FatalEngineFault("gone"); });
  EXPECT_EQ(e.Run(Req("a")).status().code(), ErrorCode::kInternal);
  EXPECT_FALSE(e.Ready());
  EXPECT_EQ(e.Run(Req("b")).status().code(), ErrorCode::kUnavailable);
}

TEST(FakeTextEngine, HigherPriorityGoesFirst) {
  std::promise<void> gate;
  std::shared_future<void> open = gate.get_future().share();
  FakeTextEngine e([open](const EngineRequest& r) {
    if (r.id == "first") open.wait();  // holds the worker while the rest queue
    return FakeAnswer{};
  });
  auto first = e.Submit(Req("first"));
  while (e.requests().empty()) std::this_thread::yield();
  auto low = e.Submit(Req("low", 0));
  auto high = e.Submit(Req("high", 5));
  gate.set_value();
  first.get();
  low.get();
  high.get();
  const auto seen = e.requests();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1].id, "high");
  EXPECT_EQ(seen[2].id, "low");
}

TEST(FakeTextEngine, LateWorkReachesOnLateAndAThrowingCallbackIsCounted) {
  FakeTextEngine e([](const EngineRequest&) {
    FakeAnswer a;
    a.delay = 100ms;
    a.result = EngineResult{.text = "late"};
    return a;
  });
  EngineRequest r = Req("x");
  r.deadline = EngineClock::now() + 5ms;
  std::promise<std::string> got;
  auto fut = got.get_future();
  EXPECT_EQ(
      e.Run(r, [&](const Result<EngineResult>& res) { got.set_value(res->text); }).status().code(),
      ErrorCode::kDeadlineExceeded);
  EXPECT_EQ(fut.get(), "late");
  r.deadline = EngineClock::now() + 5ms;
  e.Run(r, [](const Result<EngineResult>&) { throw std::runtime_error("callback"); });
  e.WaitIdle();
  EXPECT_EQ(e.Counters().faults, 1u);
  EXPECT_TRUE(e.Ready());
  EXPECT_TRUE(e.Run(Req("after")).ok());
}

}  // namespace
}  // namespace nunchi::llm
