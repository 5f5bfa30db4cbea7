#include "judges/cascade.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace nunchi::judges {
namespace {

using namespace std::chrono_literals;

// Answers target t with confidence conf[t] (RELEVANT/LOW), judge "cheap".
class ScriptedCheap : public Judge {
 public:
  std::map<size_t, double> conf;
  std::string_view name() const override { return "cheap"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    JudgeOutput out;
    for (size_t t : task.targets) {
      Judgment j;
      j.relevance = Relevance::kRelevant;
      j.level = Level::kLow;
      j.relevance_confidence = conf.count(t) ? conf[t] : 0.99;
      j.level_confidence = 1.0;
      out.emplace_back(j);
    }
    return out;
  }
};

// Answers every target HIGH after `delay`, or fails them; records what it was asked.
class FakeLlm : public Judge {
 public:
  std::chrono::milliseconds delay{0};
  bool gated = false;  // wait for Open() (at most 5 s) before answering
  bool fail = false;
  std::atomic<bool> finished{false};
  std::condition_variable gate_cv;
  bool gate_open = false;
  void Open() {
    std::lock_guard lock(mu);
    gate_open = true;
    gate_cv.notify_all();
  }
  bool ready = true;
  std::mutex mu;
  std::vector<std::vector<size_t>> asked;
  std::vector<int> priorities;  // JudgeTask::priority of each call
  std::string_view name() const override { return "llm"; }
  bool Ready() const override { return ready; }
  bool failed_for_good = false;
  bool Failed() const override { return failed_for_good; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    {
      std::lock_guard lock(mu);
      asked.push_back(task.targets);
      priorities.push_back(task.priority);
      gate_cv.notify_all();  // WaitForCalls
    }
    std::this_thread::sleep_for(delay);
    if (gated) {
      std::unique_lock lock(mu);
      gate_cv.wait_for(lock, 5s, [&] { return gate_open; });
    }
    finished = true;
    JudgeOutput out;
    for (size_t k = 0; k < task.targets.size(); ++k) {
      if (fail) {
        out.emplace_back(ErrorCode::kInvalidOutput, "scripted failure");
        continue;
      }
      Judgment j;
      j.relevance = Relevance::kRelevant;
      j.level = Level::kHigh;
      out.emplace_back(j);
    }
    return out;
  }
  size_t calls() {
    std::lock_guard lock(mu);
    return asked.size();
  }
  // The escalation runs on its own thread: a caller that returned at
  // max_wait may be back before the call has reached the LLM.
  bool WaitForCalls(size_t n) {
    std::unique_lock lock(mu);
    return gate_cv.wait_for(lock, 5s, [&] { return asked.size() >= n; });
  }
};

// Collects what a cascade hands JudgeTask::on_late, from any thread.
// Declare it before the cascade: the cascade's destructor may still deliver.
struct LateSink {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<size_t, Judgment>> got;
  void Attach(JudgeTask& task) {
    task.on_late = [this](size_t pos, const Judgment& j) {
      std::lock_guard lock(mu);
      got.emplace_back(pos, j);
      cv.notify_all();
    };
  }
  // What has arrived once there are n (or after 5 s).
  std::vector<std::pair<size_t, Judgment>> WaitFor(size_t n) {
    std::unique_lock lock(mu);
    cv.wait_for(lock, 5s, [&] { return got.size() >= n; });
    return got;
  }
};

JudgeTask Task(size_t n, std::chrono::milliseconds budget) {
  JudgeTask t;
  t.bundle.post.text = "post";
  for (size_t i = 1; i < n; ++i) t.bundle.comments.push_back(Signal{"c", "a", {}, "comment"});
  for (size_t i = 0; i < n; ++i) t.targets.push_back(i);
  t.deadline = Clock::now() + budget;
  return t;
}

CascadeOptions Options(double threshold) {
  CascadeOptions o;
  o.threshold = threshold;
  o.calibration_version = "cal-test";
  o.call_seconds = 0.01;
  o.target_seconds = 0.01;
  o.late_grace = 5s;
  return o;
}

TEST(CascadeConfidence, IrrelevantUsesRelevanceRelevantTheProduct) {
  Judgment j;
  j.relevance = Relevance::kIrrelevant;
  j.relevance_confidence = 0.8;
  j.level_confidence = 0.1;
  EXPECT_DOUBLE_EQ(CascadeConfidence(j), 0.8);
  j.relevance = Relevance::kRelevant;
  EXPECT_DOUBLE_EQ(CascadeConfidence(j), 0.08);
  j.level_confidence = Judgment::kNoConfidence;
  EXPECT_DOUBLE_EQ(CascadeConfidence(j), 0.0);
}

TEST(Cascade, EscalatesExactlyTheLowConfidenceTargets) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.95}, {1, 0.5}, {2, 0.99}, {3, 0.2}};
  FakeLlm llm;
  Cascade cascade(&cheap, &llm, Options(0.9));
  JudgeOutput out = cascade.JudgeBundle(Task(4, 5s));
  ASSERT_EQ(out.size(), 4u);
  ASSERT_EQ(llm.calls(), 1u);
  EXPECT_EQ(llm.asked[0], (std::vector<size_t>{1, 3}));  // bundle order, only the unsure
  for (size_t k : {0u, 2u}) {
    ASSERT_TRUE(out[k].ok());
    EXPECT_EQ(out[k]->judge, "cheap");
    EXPECT_EQ(out[k]->cascade->outcome, CascadeRecord::Outcome::kCheap);
  }
  for (size_t k : {1u, 3u}) {
    ASSERT_TRUE(out[k].ok());
    EXPECT_EQ(out[k]->judge, "llm");
    EXPECT_EQ(out[k]->level, Level::kHigh);
    const CascadeRecord& r = *out[k]->cascade;
    EXPECT_EQ(r.outcome, CascadeRecord::Outcome::kLlm);
    EXPECT_EQ(r.cheap_judge, "cheap");
    EXPECT_EQ(r.cheap_level, Level::kLow);
    EXPECT_EQ(r.calibration_version, "cal-test");
    EXPECT_DOUBLE_EQ(r.threshold, 0.9);
  }
  EXPECT_DOUBLE_EQ(out[3]->cascade->cheap_confidence, 0.2);
  EXPECT_EQ(cascade.stats().escalated.load(), 2u);
  EXPECT_EQ(cascade.stats().llm_in_time.load(), 2u);
  EXPECT_EQ(cascade.stats().overturned.load(), 2u);
  EXPECT_EQ(cascade.stats().agreed.load(), 0u);
}

TEST(Cascade, ConfidentBundleNeverCallsTheLlm) {
  ScriptedCheap cheap;
  FakeLlm llm;
  Cascade cascade(&cheap, &llm, Options(0.9));
  JudgeOutput out = cascade.JudgeBundle(Task(3, 5s));
  EXPECT_EQ(llm.calls(), 0u);
  for (auto& r : out) EXPECT_EQ(r->judge, "cheap");
}

TEST(Cascade, SlowLlmLeavesTheCheapAnswersOnTimeAndTheLateAnswerReplacesThem) {
  ScriptedCheap cheap;
  cheap.conf = {{1, 0.3}};
  FakeLlm llm;
  llm.gated = true;
  LateSink sink;
  Cascade cascade(&cheap, &llm, Options(0.9));
  JudgeTask task = Task(2, 100ms);
  sink.Attach(task);
  JudgeOutput out = cascade.JudgeBundle(task);
  EXPECT_FALSE(llm.finished);  // returned at the deadline, not when the LLM finished
  llm.Open();
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->judge, "cheap");
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptError);
  const auto late = sink.WaitFor(1);
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(late[0].first, 1u);
  EXPECT_EQ(late[0].second.judge, "llm");
  EXPECT_EQ(late[0].second.level, Level::kHigh);
  EXPECT_EQ(late[0].second.cascade->outcome, CascadeRecord::Outcome::kLlm);
  EXPECT_EQ(late[0].second.cascade->cheap_level, Level::kLow);
  EXPECT_EQ(cascade.stats().kept_for_error.load(), 1u);
  EXPECT_EQ(cascade.stats().late_replaced.load(), 1u);
}

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

TEST(Cascade, MaxWaitReturnsBeforeTheDeadlineAndTheLateAnswerStillArrives) {
  ScriptedCheap cheap;
  cheap.conf = {{1, 0.3}};
  FakeLlm llm;
  llm.gated = true;  // slower than max_wait, far faster than the deadline
  CascadeOptions o = Options(0.9);
  o.max_wait = 50ms;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(2, 60s);
  sink.Attach(task);
  JudgeOutput out = cascade.JudgeBundle(task);
  EXPECT_FALSE(llm.finished);  // returned after max_wait, long before the deadline
  llm.Open();
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->judge, "cheap");
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptError);
  const auto late = sink.WaitFor(1);
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(late[0].second.judge, "llm");
}

TEST(Cascade, WhatMissesTheWaitIsDeferredAndItsAnswerReplacesTheCheapOne) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.target_seconds = 1;  // slower than max_wait, well within the deadline
  o.max_wait = 1ms;
  llm.gated = true;
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(1, 60s);
  sink.Attach(task);
  JudgeOutput out = cascade.JudgeBundle(task);
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->judge, "cheap");
  EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().escalated.load(), 0u);  // not waited for: not counted as escalated
  EXPECT_EQ(cascade.stats().kept_for_time.load(), 1u);
  EXPECT_EQ(cascade.stats().deferred.load(), 1u);
  EXPECT_TRUE(llm.WaitForCalls(1));  // sent, although slower than max_wait
  llm.Open();
  const auto late = sink.WaitFor(1);
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(late[0].second.judge, "llm");
  EXPECT_EQ(cascade.stats().late_replaced.load(), 1u);
}

TEST(Cascade, WithoutDeferralWhatMissesTheWaitIsNeverSent) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.target_seconds = 1;
  o.max_wait = 1ms;
  o.defer_beyond_wait = false;
  Cascade cascade(&cheap, &llm, o);
  JudgeOutput out = cascade.JudgeBundle(Task(1, 60s));
  EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().deferred.load(), 0u);
  EXPECT_EQ(llm.calls(), 0u);
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
  o.max_wait = 500ms;  // 10 ms a target fits easily; 450 extra syllables x 10 ms do not
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

TEST(Cascade, FailedLlmKeepsTheCheapAnswer) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.fail = true;
  Cascade cascade(&cheap, &llm, Options(0.9));
  JudgeOutput out = cascade.JudgeBundle(Task(1, 2s));
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->judge, "cheap");
  EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptError);
}

TEST(Cascade, LlmNotReadyIsNeverAsked) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.ready = false;
  Cascade cascade(&cheap, &llm, Options(0.9));
  JudgeOutput out = cascade.JudgeBundle(Task(1, 2s));
  EXPECT_EQ(llm.calls(), 0u);
  EXPECT_TRUE(cascade.Ready());
  EXPECT_FALSE(cascade.Failed());  // not ready for now is not failed for good
  EXPECT_EQ(out[0]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
}

TEST(Cascade, AnLlmThatFailedForGoodMakesTheCascadeFailedAndTheCheapOneAnswers) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.ready = false;  // what a failed engine's judge reports
  llm.failed_for_good = true;
  Cascade cascade(&cheap, &llm, Options(0.9));
  EXPECT_TRUE(cascade.Failed());
  EXPECT_TRUE(cascade.Ready());
  JudgeOutput out = cascade.JudgeBundle(Task(1, 2s));
  EXPECT_EQ(llm.calls(), 0u);
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->judge, "cheap");
}

TEST(Cascade, ObservedCallsMoveTheEstimate) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}};
  FakeLlm llm;
  llm.delay = 200ms;
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.001;
  o.ewma_alpha = 1.0;  // the last observation only
  Cascade cascade(&cheap, &llm, o);
  cascade.JudgeBundle(Task(1, 5s));
  EXPECT_GE(cascade.target_seconds(), 0.15);
}

TEST(Cascade, AnLlmAnswerWithoutCauseTextGetsTheCheapOneOrOneFromItsCode) {
  Judgment cheap;
  cheap.relevance = Relevance::kRelevant;
  cheap.level = Level::kHigh;
  cheap.cause = Cause::kEvent;
  cheap.cause_text = "팝업 대기줄";
  Judgment llm;
  llm.relevance = Relevance::kRelevant;
  llm.level = Level::kMedium;
  llm.cause = Cause::kEvent;
  Judgment same = llm;
  FillCauseText(same, cheap);
  EXPECT_EQ(same.cause_text, "팝업 대기줄");  // same cause: the cheap judge's words
  Judgment other = llm;
  other.cause = Cause::kWeather;
  FillCauseText(other, cheap);
  EXPECT_FALSE(other.cause_text.empty());
  EXPECT_NE(other.cause_text, cheap.cause_text);
  Judgment written = llm;
  written.cause_text = "모델 판단";
  FillCauseText(written, cheap);
  EXPECT_EQ(written.cause_text, "모델 판단");  // the LLM's own words stand
  Judgment irrelevant;
  FillCauseText(irrelevant, cheap);
  EXPECT_EQ(irrelevant.cause_text, "");
  // Through the cascade: FakeLlm writes no text.
  ScriptedCheap cheap_judge;
  cheap_judge.conf = {{1, 0.2}};
  FakeLlm fake;
  Cascade cascade(&cheap_judge, &fake, Options(0.5));
  JudgeOutput out = cascade.JudgeBundle(Task(3, 5s));
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->judge, "llm");
  EXPECT_FALSE(out[1]->cause_text.empty());
}

TEST(Cascade, EachCallIsReportedWithItsPlanItsQueueAndWhetherItMissedTheWait) {
  ScriptedCheap cheap;
  cheap.conf = {{0, 0.1}, {1, 0.2}};
  FakeLlm llm;
  llm.gated = true;  // the waited call misses the wait
  CascadeOptions o = Options(0.9);
  o.call_seconds = 0;
  o.target_seconds = 0.05;  // one target fits in 0.8 x 100 ms, two do not
  o.max_wait = 100ms;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<CascadeCallReport> reports;
  o.on_call = [&](const CascadeCallReport& r) {
    std::lock_guard lock(mu);
    reports.push_back(r);
    cv.notify_all();
  };
  LateSink sink;
  Cascade cascade(&cheap, &llm, o);
  JudgeTask task = Task(2, 60s);
  task.bundle.comments[0].text = "긴 댓글입니다";  // 7 code points, 19 bytes
  sink.Attach(task);
  cascade.JudgeBundle(task);
  llm.Open();
  std::unique_lock lock(mu);
  ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return reports.size() >= 2; }));
  // The deferred call starts when the waited one leaves the engine and may report first.
  if (reports[0].deferred) std::swap(reports[0], reports[1]);
  const CascadeCallReport& waited = reports[0];
  EXPECT_FALSE(waited.deferred);
  EXPECT_TRUE(waited.late);
  EXPECT_EQ(waited.targets, 1u);
  EXPECT_EQ(waited.failed, 0u);
  EXPECT_NEAR(waited.predicted_s, 0.05, 1e-9);
  EXPECT_GE(waited.llm_s, 0.09);         // held at the gate past the 100 ms wait
  EXPECT_EQ(waited.max_text_chars, 4u);  // "post"
  const CascadeCallReport& deferred = reports[1];
  EXPECT_TRUE(deferred.deferred);
  EXPECT_FALSE(deferred.late);
  EXPECT_NEAR(deferred.predicted_s, 0.10, 1e-9);
  EXPECT_GE(deferred.queued_s, 0.09);  // started once the waited call was off the engine
  EXPECT_EQ(deferred.max_text_chars, 7u);
}

TEST(Cascade, AnUncachedLongPostOrLatestCommentsMakeTheFirstTargetSlower) {
  ScriptedCheap cheap;
  cheap.conf = {{1, 0.1}};  // only the short comment is unsure
  FakeLlm llm;
  CascadeOptions o = Options(0.9);
  o.max_wait = 500ms;  // 10 ms a target fits easily; 450 extra syllables x 10 ms do not
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
  out = cascade.JudgeBundle(task);
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(out[1]->judge, "llm");
  EXPECT_EQ(cascade.stats().escalated.load(), 1u);
  // A long latest comment is shown in every prompt, cached post or not.
  task.bundle.comments[1].text = task.bundle.post.text;
  out = cascade.JudgeBundle(task);
  EXPECT_EQ(out[1]->cascade->outcome, CascadeRecord::Outcome::kKeptTime);
  EXPECT_EQ(cascade.stats().deferred.load(), 2u);
  ASSERT_EQ(sink.WaitFor(2).size(), 2u);
  std::lock_guard lock(mu);
  ASSERT_GE(reports.size(), 2u);
  EXPECT_EQ(reports[0].context_chars, 600u + 7u);  // the post and the latest comment
  EXPECT_EQ(reports[1].context_chars, 7u);         // the latest comment only
}

}  // namespace
}  // namespace nunchi::judges
