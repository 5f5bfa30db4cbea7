// LlamaJudge on the scripted engine (llm/fake_text_engine.h), no model file
// (label: unit): the request it builds, how it reads answers and errors, the
// late path, and a fault on the engine thread with the router's fallback.
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <mutex>
#include <stdexcept>

#include "engines/llama/llama_judge.h"
#include "judges/router.h"
#include "llm/fake_text_engine.h"

namespace nunchi::llama {
namespace {

using namespace std::chrono_literals;
using llm::EngineRequest;
using llm::FakeAnswer;
using llm::FakeTextEngine;

JudgeTask Task(const std::string& post_id, int comments) {
  const auto at = [](int minute) {
    return *ParseTimestamp("2026-11-30T14:" + std::string(minute < 10 ? "0" : "") +
                           std::to_string(minute) + ":00+09:00");
  };
  JudgeTask task;
  task.spot = {"s1", "성수 팝업스토어", "입구와 대기줄"};
  task.bundle.post_id = post_id;
  task.bundle.post = {post_id, "a0", at(0), "성수 팝업 줄이 엄청 길어요"};
  for (int i = 1; i <= comments; ++i) {
    task.bundle.comments.push_back(
        {post_id + "c" + std::to_string(i), "a" + std::to_string(i), at(i), "대기 30분이래요"});
  }
  for (size_t i = 0; i < task.bundle.size(); ++i) task.targets.push_back(i);
  task.analyzed_at = ParseTimestamp("2026-11-30T14:40:00+09:00")->ms;
  task.request_id = "r-" + post_id;
  return task;
}

// The answer a well-behaved model gives: every id RELEVANT, HIGH, EVENT.
std::string AnswerFor(const std::vector<std::string>& ids) {
  std::string a = "{";
  for (size_t i = 0; i < ids.size(); ++i) {
    a += (i ? "," : "") + std::string("\"") + ids[i] +
         "\":{\"r\":\"RELEVANT\",\"l\":\"HIGH\",\"c\":\"EVENT\",\"t\":\"대기줄\"}";
  }
  return a + "}";
}

// Answers each request for the ids the judge asked about (read back from
// the request: the test builds the same request to learn them).
struct Scripted {
  std::mutex mu;
  std::map<std::string, std::string> answers;  // request id -> text
  llm::FakeScript Script() {
    return [this](const EngineRequest& r) {
      std::lock_guard lock(mu);
      FakeAnswer a;
      auto it = answers.find(r.id);
      if (it == answers.end()) return FakeAnswer{Status(ErrorCode::kInvalidOutput, "unscripted")};
      a.result = llm::EngineResult{.text = it->second, .stop = llm::StopReason::kGrammarDone};
      return a;
    };
  }
  void Expect(const LlamaJudge& judge, const JudgeTask& task) {
    std::vector<std::string> ids;
    auto req = judge.BuildRequest(task, &ids);
    ASSERT_TRUE(req.ok());
    std::lock_guard lock(mu);
    answers[req->id] = AnswerFor(ids);
  }
};

// A fallback that always answers, as the default judge does behind the router.
class FixedJudge : public Judge {
 public:
  std::string_view name() const override { return "fixed"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    Judgment j;
    j.relevance = Relevance::kIrrelevant;
    return JudgeOutput(task.targets.size(), Result<Judgment>(j));
  }
};

TEST(LlamaJudgeUnit, BuildsAGrammarRequestAndReadsTheAnswer) {
  Scripted s;
  FakeTextEngine engine(s.Script());
  auto judge = LlamaJudge::Create(&engine);
  ASSERT_TRUE(judge.ok()) << judge.status().ToString();
  ASSERT_EQ(engine.warmed().size(), 1u);  // the shared instructions, once
  JudgeTask task = Task("p1", 2);
  task.deadline = Deadline::clock::now() + 60s;
  task.priority = -1;
  s.Expect(**judge, task);
  const JudgeOutput out = (*judge)->JudgeBundle(task);
  ASSERT_EQ(out.size(), 3u);
  for (const auto& r : out) {
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->relevance, Relevance::kRelevant);
    EXPECT_EQ(r->level, Level::kHigh);
    EXPECT_EQ(r->judge, "llama");
    EXPECT_EQ(r->model, engine.model_identity());
  }
  const auto seen = engine.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(seen[0].grammar.empty());
  EXPECT_GT(seen[0].max_tokens, 0);
  EXPECT_EQ(seen[0].deadline, task.deadline);
  EXPECT_EQ(seen[0].priority, -1);
  EXPECT_EQ(seen[0].prompt.rfind(engine.warmed()[0], 0), 0u) << "prompt starts with the prefix";
}

TEST(LlamaJudgeUnit, AnEngineErrorFailsEveryTargetWithItsCode) {
  FakeTextEngine engine([](const EngineRequest&) { return FakeAnswer{.loops = 2}; });
  auto judge = LlamaJudge::Create(&engine);
  ASSERT_TRUE(judge.ok());
  const JudgeOutput out = (*judge)->JudgeBundle(Task("p1", 3));
  ASSERT_EQ(out.size(), 4u);
  for (const auto& r : out) EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated);
  EXPECT_EQ(engine.Counters().degenerations, 1u);
}

TEST(LlamaJudgeUnit, AWarmPrefixFailureFailsCreate) {
  FakeTextEngine engine;
  engine.set_warm_status(Status(ErrorCode::kUnavailable, "no"));
  EXPECT_EQ(LlamaJudge::Create(&engine).status().code(), ErrorCode::kUnavailable);
}

TEST(LlamaJudgeUnit, PastTheDeadlineTheAnswerArrivesLateForStorage) {
  Scripted s;
  FakeTextEngine engine;
  std::promise<std::pair<std::string, JudgeOutput>> late;
  LlamaJudgeOptions o;
  o.on_late = [&](const std::string& request_id, JudgeOutput out) {
    late.set_value({request_id, std::move(out)});
  };
  auto judge = LlamaJudge::Create(&engine, o);
  ASSERT_TRUE(judge.ok());
  JudgeTask task = Task("p2", 1);
  s.Expect(**judge, task);
  auto script = s.Script();
  engine.set_script([script](const EngineRequest& r) {
    FakeAnswer a = script(r);
    a.delay = 200ms;
    return a;
  });
  task.deadline = Deadline::clock::now() + 10ms;
  const JudgeOutput out = (*judge)->JudgeBundle(task);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].status().code(), ErrorCode::kDeadlineExceeded);
  auto [request_id, stored] = late.get_future().get();
  EXPECT_EQ(request_id, "r-p2");
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_TRUE(stored[0].ok());
}

TEST(LlamaJudgeUnit, AThrowOnTheEngineThreadFailsThatBundleAndTheRouterFallsBack) {
  Scripted s;
  FakeTextEngine engine(s.Script());
  engine.set_fault_hook([](const EngineRequest& r) {
    if (r.id.find("boom") != std::string::npos) throw std::runtime_error("injected");
  });
  auto made = LlamaJudge::Create(&engine);
  ASSERT_TRUE(made.ok());
  std::shared_ptr<LlamaJudge> llama = std::move(made).value();
  judges::Router router({llama, std::make_shared<FixedJudge>()});
  const JudgeTask boom = Task("boom", 1), fine = Task("fine", 1);
  s.Expect(*llama, boom);
  s.Expect(*llama, fine);

  const JudgeOutput direct = llama->JudgeBundle(boom);
  ASSERT_EQ(direct.size(), 2u);
  EXPECT_EQ(direct[0].status().code(), ErrorCode::kInternal);  // typed, not a crash
  const JudgeOutput routed = router.JudgeBundle(boom);
  ASSERT_TRUE(routed[0].ok());
  EXPECT_EQ(routed[0]->judge, "fixed");  // the fallback answered
  const JudgeOutput after = router.JudgeBundle(fine);
  ASSERT_TRUE(after[0].ok());
  EXPECT_EQ(after[0]->judge, "llama");  // the engine went on
  EXPECT_TRUE(llama->Ready());
  EXPECT_EQ(engine.Counters().faults, 2u);
  EXPECT_EQ(engine.Counters().faulted_requests, 2u);
}

TEST(LlamaJudgeUnit, AFatalFaultMakesTheJudgeNotReadyAndTheFallbackAnswers) {
  FakeTextEngine engine;
  engine.set_fault_hook([](const EngineRequest&) { throw llm::FatalEngineFault("lost"); });
  auto made = LlamaJudge::Create(&engine);
  ASSERT_TRUE(made.ok());
  std::shared_ptr<LlamaJudge> llama = std::move(made).value();
  judges::Router router({llama, std::make_shared<FixedJudge>()});
  EXPECT_FALSE(llama->Failed());
  EXPECT_FALSE(router.Failed());
  EXPECT_EQ(llama->JudgeBundle(Task("p", 0))[0].status().code(), ErrorCode::kInternal);
  EXPECT_FALSE(llama->Ready());
  EXPECT_TRUE(engine.Failed());
  EXPECT_TRUE(llama->Failed());
  EXPECT_TRUE(router.Ready());   // the fallback still is, and answers
  EXPECT_TRUE(router.Failed());  // but /readyz reports the lost model (AnalysisService::Ready)
  const JudgeOutput out = router.JudgeBundle(Task("q", 1));
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->judge, "fixed");
  EXPECT_EQ(engine.requests().size(), 1u);  // nothing more reached the failed engine
}

TEST(LlamaJudgeUnit, AThrowingLateCallbackIsCountedAndTheEngineGoesOn) {
  Scripted s;
  FakeTextEngine engine;
  LlamaJudgeOptions o;
  o.on_late = [](const std::string&, JudgeOutput) { throw std::runtime_error("storage"); };
  auto judge = LlamaJudge::Create(&engine, o);
  ASSERT_TRUE(judge.ok());
  JudgeTask slow = Task("slow", 0), fine = Task("fine", 0);
  s.Expect(**judge, slow);
  s.Expect(**judge, fine);
  auto script = s.Script();
  engine.set_script([script](const EngineRequest& r) {
    FakeAnswer a = script(r);
    if (r.id.find("slow") != std::string::npos) a.delay = 100ms;
    return a;
  });
  slow.deadline = Deadline::clock::now() + 5ms;
  EXPECT_EQ((*judge)->JudgeBundle(slow)[0].status().code(), ErrorCode::kDeadlineExceeded);
  engine.WaitIdle();
  EXPECT_EQ(engine.Counters().faults, 1u);
  EXPECT_TRUE((*judge)->JudgeBundle(fine)[0].ok());
}

}  // namespace
}  // namespace nunchi::llama
