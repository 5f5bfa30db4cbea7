#include "judges/cascade.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "judges/cascade_test_support.h"

namespace nunchi::judges {
namespace {

using namespace std::chrono_literals;
using namespace cascade_fakes;

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

}  // namespace
}  // namespace nunchi::judges
