// The cascade's deadline budget: what it plans to wait for, defer or keep
// cheap, and how finished calls move its estimate.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "judges/cascade.h"
#include "judges/cascade_test_support.h"

namespace nunchi::judges {
namespace {

using namespace std::chrono_literals;
using namespace cascade_fakes;

TEST(Cascade, BudgetKeepsCheapWhenTheLlmCannotFinishInTime) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}, {1, 0.2}};
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.target_seconds = 10;  // an engine far slower than the budget
  Cascade cascade(&cheap, &llm, o);
  JudgeOutput out = cascade.JudgeBundle(Task(2, 1s));
  EXPECT_EQ(llm.calls(), 0u);
  for (auto& r : out) {
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  }
  EXPECT_EQ(cascade.stats().kept_for_time.load(), 2u);
}

TEST(Cascade, TheWaitedCallTakesWhatFitsTheWaitsHeadroomAndTheDeferredOneWaitsForIt) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}, {1, 0.2}, {2, 0.95}};
  FakeLlm llm;
  llm.gated = true;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.3;  // one target fits in 0.8 x 500 ms, two do not
  o.max_wait = 500ms;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(3, 60s);
  sink.Attach(task);
  std::thread opener([&] {
    ASSERT_TRUE(llm.WaitForCalls(1));
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(llm.calls(), 1u);  // the deferred call has not started beside the waited one
    llm.Open();
  });
  JudgeOutput out = cascade.JudgeBundle(task);
  opener.join();
  ASSERT_TRUE(out[0].ok() && out[1].ok());
  EXPECT_EQ(out[0]->judge, "llm");  // the least confident, answered within the wait
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(out[2]->cascade->outcome, CascadeRecord::Outcome::kCheap);
  ASSERT_TRUE(llm.WaitForCalls(2));
  {
    std::lock_guard lock(llm.mu);
    EXPECT_EQ(llm.asked[0], (std::vector<size_t>{0}));
    EXPECT_EQ(llm.asked[1], (std::vector<size_t>{1}));
    // On the engine the deferred call yields to any call somebody waits for.
    EXPECT_EQ(llm.priorities[0], 0);
    EXPECT_EQ(llm.priorities[1], kDeferredPriority);
  }
  EXPECT_EQ(sink.WaitFor(1).size(), 1u);
  EXPECT_EQ(cascade.stats().escalated.load(), 1u);
  EXPECT_EQ(cascade.stats().llm_in_time.load(), 1u);
  EXPECT_EQ(cascade.stats().deferred.load(), 1u);
}

TEST(Cascade, ALongTextIsPredictedSlowerAndIsDeferredWhereAShortOneIsWaitedFor) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.2}, {1, 0.1}};  // the long comment is the least confident
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.max_wait = 500ms;  // 10 ms a target fits easily; 600 syllables x 10 ms do not
  o.char_seconds = 0.01;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(2, 60s);
  std::string long_text;
  for (int i = 0; i < 600; ++i) long_text += "가";  // 600 code points, 1,800 bytes
  task.bundle.comments[0].text = long_text;
  sink.Attach(task);
  JudgeOutput out = cascade.JudgeBundle(task);
  ASSERT_TRUE(out[0].ok() && out[1].ok());
  // Least confident first: the long one does not fit the wait and is
  // deferred; the short one after it still fits and is waited for.
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(out[0]->judge, "llm");
  EXPECT_EQ(cascade.stats().escalated.load(), 1u);
  EXPECT_EQ(cascade.stats().deferred.load(), 1u);
  EXPECT_EQ(sink.WaitFor(1).size(), 1u);

  // The same bundle with a short text is waited for.
  ScriptedCheap cheap2;
  cheap2.conf = {{0, 0.2}, {1, 0.1}};
  FakeLlm llm2;
  Cascade short_one(&cheap2, &llm2, o);
  JudgeOutput out2 = short_one.JudgeBundle(Task(2, 60s));
  ASSERT_TRUE(out2[1].ok());
  EXPECT_EQ(out2[1]->judge, "llm");
  EXPECT_EQ(short_one.stats().escalated.load(), 2u);
}

TEST(Cascade, ABundleJudgedWhileAnotherWaitsSeesItsTargetsInFlight) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.gated = true;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.3;  // one target fits the wait's headroom, two do not
  o.max_wait = 500ms;
  o.defer_beyond_wait = false;
  Cascade cascade(&cheap, &llm, o);
  std::thread first([&] { cascade.JudgeBundle(Task(1, 60s)); });
  ASSERT_TRUE(llm.WaitForCalls(1));
  JudgeOutput second = cascade.JudgeBundle(Task(1, 60s));
  EXPECT_EQ(second[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  llm.Open();
  first.join();
  EXPECT_EQ(llm.calls(), 1u);
}

TEST(Cascade, BudgetEscalatesTheLeastConfidentFirst) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.5}, {1, 0.1}, {2, 0.3}, {3, 0.7}};
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.8;  // two targets fit in 2 s, not three
  Cascade cascade(&cheap, &llm, o);
  cascade.JudgeBundle(Task(4, 2s));
  ASSERT_EQ(llm.calls(), 1u);
  EXPECT_EQ(llm.asked[0], (std::vector<size_t>{1, 2}));
  EXPECT_EQ(cascade.stats().kept_for_time.load(), 2u);
}

TEST(Cascade, ObservedCallsMoveTheEstimate) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.delay = 200ms;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.001;
  o.forgetting = 0.5;  // the last observations weigh most
  Cascade cascade(&cheap, &llm, o);
  cascade.JudgeBundle(Task(1, 5s));
  EXPECT_GE(cascade.target_seconds(), 0.15);
}

TEST(Cascade, AnUncachedLongPostOrLatestCommentsMakeTheFirstTargetSlower) {
  ScriptedCheap cheap;
  cheap.conf = {{1, 0.1}};  // only the short comment is unsure
  FakeLlm llm;
  // An engine that takes 1 ms per uncached code point (the fake's delay is
  // set to match each step, so that what the budget learns stays true).
  llm.delay = 614ms;
  CascadeOptions o = Options(0.9);
  o.max_wait = 200ms;  // a plan of 160 ms: 14 code points fit, 614 do not
  o.char_seconds = 0.001;
  o.shown_comments = 1;
  std::vector<CascadeCallReport> reports;
  std::mutex mu;
  o.on_call = [&](const CascadeCallReport& r) {
    std::lock_guard lock(mu);
    reports.push_back(r);
  };
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(3, 60s);
  task.bundle.post_id = "p1";
  task.bundle.post.text = std::string();
  for (int i = 0; i < 600; ++i) task.bundle.post.text += "가";  // 600 code points
  sink.Attach(task);
  // First escalation of the bundle: the post is not cached, so the short
  // target is predicted slow and deferred.
  JudgeOutput out = cascade.JudgeBundle(task);
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().deferred.load(), 1u);
  ASSERT_EQ(sink.WaitFor(1).size(), 1u);
  // Again: the post is cached now and the latest comment ("comment") is short.
  llm.delay = 14ms;
  out = cascade.JudgeBundle(task);
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->judge, "llm");
  EXPECT_EQ(cascade.stats().escalated.load(), 1u);
  // A long latest comment is shown in every prompt, cached post or not.
  task.bundle.comments[1].text = task.bundle.post.text;
  llm.delay = 614ms;
  out = cascade.JudgeBundle(task);
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().deferred.load(), 2u);
  ASSERT_EQ(sink.WaitFor(2).size(), 2u);
  std::lock_guard lock(mu);
  ASSERT_GE(reports.size(), 2u);
  EXPECT_EQ(reports[0].context_chars, 600u + 7u);  // the post and the latest comment
  EXPECT_EQ(reports[1].context_chars, 7u);         // the latest comment only
  EXPECT_EQ(reports[0].chars, 7u + 600u + 7u);     // and the target's own text
  EXPECT_EQ(reports[1].chars, 7u + 7u);
}

TEST(Cascade, TheCostOfTextIsLearntFromCallsWhoseTextsDifferAndPlansTheNextOnes) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.per_char = 2ms;  // a prefill of 500 code points a second
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.01;
  o.char_seconds = 0.0001;  // a prior 20 times too fast
  o.max_wait = 500ms;       // a plan of 400 ms: 100 code points fit, 300 do not
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  auto task_of = [&](int chars) {
    JudgeTask t = Task(1, 60s);
    t.bundle.post.text.clear();
    for (int i = 0; i < chars; ++i) t.bundle.post.text += "가";
    sink.Attach(t);
    return t;
  };
  // Texts of 10 and 100 code points: the cost is in the text, not the target.
  for (int round = 0; round < 5; ++round) {
    for (int chars : {10, 100}) {
      JudgeOutput out = cascade.JudgeBundle(task_of(chars));
      ASSERT_TRUE(out[0].ok());
      EXPECT_EQ(out[0]->judge, "llm");  // 0.2 s at most: always within the plan
    }
  }
  EXPECT_GT(cascade.char_seconds(), 0.001);
  EXPECT_LT(cascade.char_seconds(), 0.004);
  EXPECT_LT(cascade.target_seconds(), 0.05);
  // 300 code points are predicted at ~0.6 s: deferred, answered for the store.
  JudgeOutput out = cascade.JudgeBundle(task_of(300));
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().deferred.load(), 1u);
  EXPECT_EQ(sink.WaitFor(1).size(), 1u);
}

TEST(Cascade, OnlyACallThatHadTheEngineToItselfIsLearntFrom) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}, {1, 0.2}, {2, 0.3}, {3, 0.4}};
  FakeLlm llm;
  llm.delay = 300ms;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.5;  // three targets fit the plan of 1.6 s, four do not
  o.max_wait = 2s;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask first = Task(4, 60s);
  sink.Attach(first);
  JudgeOutput out = cascade.JudgeBundle(first);
  ASSERT_TRUE(out[3].ok());
  EXPECT_EQ(out[3]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  ASSERT_TRUE(llm.WaitForCalls(2));  // the deferred call is on the engine
  // A waited call arrives while it runs and overtakes it there.
  JudgeTask second = Task(1, 60s);  // its target 0 is unsure too
  second.bundle.post_id = "other";
  JudgeOutput out2 = cascade.JudgeBundle(second);
  ASSERT_TRUE(out2[0].ok());
  EXPECT_EQ(out2[0]->judge, "llm");
  ASSERT_EQ(sink.WaitFor(1).size(), 1u);
  // The deferred answer arrived, but neither it nor the waited call that
  // ran beside it taught the estimate anything; the first call, alone, did.
  for (int i = 0; i < 100 && cascade.stats().shared.load() < 2; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(cascade.stats().shared.load(), 2u);
  EXPECT_EQ(cascade.stats().calls.load(), 3u);
  EXPECT_LT(cascade.target_seconds(), 0.2);  // 0.3 s for three targets, from 0.5 each
}

TEST(Cascade, WithoutATextTermOnlyTargetsAreLearnt) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.per_char = 1ms;
  CascadeOptions o = Options(0.9);  // char_seconds 0
  o.call_seconds = 0;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(1, 60s);
  task.bundle.post.text = std::string(100, 'a');  // 0.1 s
  cascade.JudgeBundle(task);
  EXPECT_EQ(cascade.char_seconds(), 0.0);
  EXPECT_GT(cascade.target_seconds(), 0.05);
}

// The stall risk of learning only from calls that had the engine to themselves: a prior so
// slow that nothing fits the wait escalates nothing it waits for, but every unsure target
// is still deferred, and a deferred call alone on the engine is learnt from, until the
// estimate lets the cascade wait for the LLM again.
TEST(Cascade, APriorTooSlowForAnyWaitStillLearnsFromTheDeferredCallsUntilItWaits) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.delay = 20ms;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 3.0;  // a prior 150 times too slow: no target fits the 500 ms wait
  o.max_wait = 500ms;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  int kept = 0;
  bool waited = false;
  for (int round = 0; round < 12 && !waited; ++round) {
    JudgeTask t = Task(1, 60s);
    sink.Attach(t);
    const double before = cascade.target_seconds();
    JudgeOutput out = cascade.JudgeBundle(t);
    ASSERT_TRUE(out[0].ok());
    if (out[0]->judge == "llm") {
      waited = true;
      break;
    }
    EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
    ++kept;
    ASSERT_EQ(sink.WaitFor(kept).size(), static_cast<size_t>(kept));  // the deferred answer
    for (int i = 0; i < 200 && cascade.target_seconds() >= before; ++i)
      std::this_thread::sleep_for(5ms);  // its thread learns after it hands the answer
    EXPECT_LT(cascade.target_seconds(), before) << "round " << round;
  }
  EXPECT_TRUE(waited) << "still deferring after " << kept << " calls, estimate "
                      << cascade.target_seconds();
  EXPECT_GE(kept, 1);
  EXPECT_EQ(cascade.stats().shared.load(), 0u);  // each deferred call ran alone
}

}  // namespace
}  // namespace nunchi::judges
