#include "service/analysis_service.h"

#include <gtest/gtest.h>

#include <functional>
#include <mutex>

#include <algorithm>
#include <chrono>
#include <thread>

#include "store/fault_store.h"

namespace nunchi {
namespace {

using namespace std::chrono_literals;

// A judge whose answer is driven by the text: "HIGH..." -> RELEVANT HIGH,
// "LOW..." -> RELEVANT LOW, "FAIL" -> error, anything else IRRELEVANT.
class FakeJudge : public Judge {
 public:
  std::string_view name() const override { return "fake"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    calls.fetch_add(1);
    targets.fetch_add(task.targets.size());
    {
      std::lock_guard lock(late_mu);
      last_on_late = task.on_late;
    }
    if (const auto d = delay.load(); d.count() > 0) std::this_thread::sleep_for(d);
    JudgeOutput out;
    for (size_t i : task.targets) {
      const std::string& text = task.bundle.at(i).text;
      if (text.rfind("FAIL", 0) == 0) {
        out.push_back(Status(ErrorCode::kUnavailable, "fake failure"));
        continue;
      }
      Judgment j;
      j.judge = "fake";
      if (text.rfind("HIGH", 0) == 0) {
        j = {Relevance::kRelevant, Level::kHigh, Cause::kEvent, "행사", "fake", "m", "p"};
        j.relevance_confidence = 0.92;
        j.level_confidence = 0.55;
      } else if (text.rfind("LOW", 0) == 0) {
        j = {Relevance::kRelevant, Level::kLow, Cause::kNone, "", "fake", "m", "p"};
      }
      out.push_back(j);
    }
    return out;
  }
  std::atomic<int> calls{0};
  std::atomic<size_t> targets{0};
  std::mutex late_mu;
  std::function<void(size_t, const Judgment&)> last_on_late;  // of the last task
  std::atomic<std::chrono::milliseconds> delay{std::chrono::milliseconds(0)};  // set by the test thread
  // Judge::Failed: a part of it failed for good while it still answers
  // (a router whose engine died, answering through its fallback).
  bool Failed() const override { return failed.load(); }
  std::atomic<bool> failed{false};
};

constexpr TimeMs kT0 = 1'800'000'000'000;

Signal Sig(const std::string& id, const std::string& author, TimeMs at, const std::string& text) {
  return Signal{id, author, Timestamp{at, FormatUtc(at)}, text};
}

class ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override { Make(); }
  void Make() {
    service_.reset();
    service_ =
        std::make_unique<AnalysisService>(*store_, judge_, metrics_, nullptr, ServiceOptions{});
  }
  AnalysisRequest Req(TimeMs at, std::vector<Spot> spots, std::vector<NewSignal> fresh,
                      std::optional<std::string> epoch) {
    AnalysisRequest r;
    r.analyzed_at = {at, FormatUtc(at)};
    r.spots = std::move(spots);
    r.new_signals = std::move(fresh);
    r.state_epoch = std::move(epoch);
    return r;
  }
  Result<AnalysisResponse> Run(const AnalysisRequest& r, Deadline d = Clock::now() + 10s) {
    errors_.clear();
    return service_->Analyze(r, "req", d, &errors_);
  }
  static Spot OneBundle(std::vector<Signal> comments, Signal post) {
    Spot s;
    s.info = {"s1", "강남역 11번 출구", "출구 앞"};
    Bundle b;
    b.post_id = post.signal_id;
    b.post = std::move(post);
    b.comments = std::move(comments);
    s.bundles.push_back(std::move(b));
    return s;
  }
  std::unique_ptr<JudgmentStore> store_ = NewMemoryStore();
  FakeJudge judge_;
  MetricsRegistry metrics_;
  std::unique_ptr<AnalysisService> service_;
  std::vector<FieldError> errors_;
};

TEST_F(ServiceTest, JudgesNewSignalsAndAggregates) {
  Spot s = OneBundle(
      {Sig("c1", "u2", kT0 - 60'000, "HIGH 미어터져요"), Sig("c2", "u3", kT0 - 30'000, "ㅋㅋ")},
      Sig("p1", "u1", kT0 - 120'000, "HIGH 줄 김"));
  auto r = Run(Req(kT0, {s},
                   {{SignalKind::kPost, "p1", "p1"},
                    {SignalKind::kComment, "c1", "p1"},
                    {SignalKind::kComment, "c2", "p1"}},
                   std::nullopt));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->spots.size(), 1u);
  EXPECT_EQ(r->spots[0].status, AnalysisStatus::kOk);
  EXPECT_EQ(r->spots[0].level, Level::kHigh);
  EXPECT_EQ(r->spots[0].report_count, 2);
  EXPECT_EQ(r->spots[0].cause_summary, "행사");
  EXPECT_EQ(r->state_epoch, store_->Epoch());
  EXPECT_EQ(judge_.calls, 1);  // one call per bundle
  EXPECT_EQ(judge_.targets, 3u);
  EXPECT_EQ(store_->RowCount(), 3);
}

TEST_F(ServiceTest, StoresAndExportsConfidence) {
  Spot s = OneBundle({Sig("c1", "u2", kT0 - 60'000, "LOW")},
                     Sig("p1", "u1", kT0 - 120'000, "HIGH 줄 김"));
  ASSERT_TRUE(
      Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kComment, "c1", "p1"}},
              std::nullopt))
          .ok());
  auto rows = store_->Get({"p1", "c1"});
  ASSERT_TRUE(rows.ok());
  EXPECT_DOUBLE_EQ(rows->at("p1").judgment.relevance_confidence, 0.92);
  EXPECT_DOUBLE_EQ(rows->at("p1").judgment.level_confidence, 0.55);
  EXPECT_DOUBLE_EQ(rows->at("c1").judgment.relevance_confidence, Judgment::kNoConfidence);
  std::string text = metrics_.Render();
  // One measured relevance (0.92) and one level (0.55); the unmeasured judgment adds none.
  EXPECT_NE(text.find("nunchi_judgment_confidence_count{judge=\"fake\",field=\"relevance\"} 1"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("nunchi_judgment_confidence_bucket{judge=\"fake\",field=\"level\",le=\"0.5\"} 0"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("nunchi_judgment_confidence_bucket{judge=\"fake\",field=\"level\",le=\"0.6\"} 1"),
      std::string::npos)
      << text;
}

TEST_F(ServiceTest, ResentBundleJudgesOnlyTheNewSignal) {
  Spot s = OneBundle({Sig("c1", "u2", kT0 - 60'000, "LOW")}, Sig("p1", "u1", kT0 - 90'000, "x"));
  ASSERT_TRUE(
      Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kComment, "c1", "p1"}},
              std::nullopt))
          .ok());
  s.bundles[0].comments.push_back(Sig("c2", "u3", kT0, "LOW 한산"));
  auto r = Run(Req(kT0 + 60'000, {s}, {{SignalKind::kComment, "c2", "p1"}}, store_->Epoch()));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(judge_.targets, 3u);  // 2 + 1, nothing recomputed
  EXPECT_EQ(r->spots[0].level, Level::kLow);
  EXPECT_EQ(r->spots[0].report_count, 2);
}

TEST_F(ServiceTest, SpotWithoutBundlesOnlyReaggregates) {
  Spot s = OneBundle({}, Sig("p1", "u1", kT0, "HIGH"));
  ASSERT_TRUE(Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt)).ok());
  const uint64_t calls = service_->judge_calls();
  Spot empty;
  empty.info = s.info;
  auto r = Run(Req(kT0 + 5 * kMinuteMs, {empty}, {}, store_->Epoch()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(service_->judge_calls(), calls);
  EXPECT_EQ(r->spots[0].level, Level::kHigh);
  // Time moves past the window: the same stored report no longer counts.
  r = Run(Req(kT0 + 21 * kMinuteMs, {empty}, {}, store_->Epoch()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spots[0].level, Level::kUnknown);
  EXPECT_EQ(r->spots[0].report_count, 0);
  EXPECT_EQ(service_->judge_calls(), calls);
}

TEST_F(ServiceTest, ResentSignalWithoutJudgmentIsStateResetAndChangesNothing) {
  Spot s = OneBundle({Sig("c1", "u2", kT0, "HIGH"), Sig("c2", "u3", kT0, "HIGH")},
                     Sig("p1", "u1", kT0, "HIGH"));
  auto r = Run(Req(kT0, {s}, {{SignalKind::kComment, "c2", "p1"}}, store_->Epoch()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kStateReset);
  EXPECT_EQ(store_->RowCount(), 0);
  EXPECT_EQ(judge_.calls, 0);
  // Recovery: everything resent as new is accepted, then normal service resumes.
  r = Run(Req(kT0, {s},
              {{SignalKind::kPost, "p1", "p1"},
               {SignalKind::kComment, "c1", "p1"},
               {SignalKind::kComment, "c2", "p1"}},
              "e-stale"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spots[0].level, Level::kHigh);
  s.bundles[0].comments.push_back(Sig("c3", "u4", kT0, "LOW"));
  r = Run(Req(kT0 + 1000, {s}, {{SignalKind::kComment, "c3", "p1"}}, r->state_epoch));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spots[0].report_count, 4);
}

TEST_F(ServiceTest, EpochMismatchIsStateReset) {
  Spot s = OneBundle({Sig("c1", "u2", kT0, "HIGH")}, Sig("p1", "u1", kT0, "HIGH"));
  ASSERT_TRUE(
      Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kComment, "c1", "p1"}},
              std::nullopt))
          .ok());
  s.bundles[0].comments.push_back(Sig("c2", "u3", kT0, "HIGH"));
  auto r = Run(Req(kT0, {s}, {{SignalKind::kComment, "c2", "p1"}}, "e-other"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kStateReset);
  EXPECT_EQ(store_->RowCount(), 2);
}

TEST_F(ServiceTest, EditedTextIsJudgedAgain) {
  Spot s = OneBundle({}, Sig("p1", "u1", kT0, "LOW"));
  ASSERT_TRUE(Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt)).ok());
  s.bundles[0].post.text = "HIGH now";
  auto r = Run(Req(kT0 + 1000, {s}, {}, store_->Epoch()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(judge_.targets, 2u);
  EXPECT_EQ(r->spots[0].level, Level::kHigh);
}

TEST_F(ServiceTest, CommentMissingFromResentBundleStopsCounting) {
  Spot s = OneBundle({Sig("c1", "u2", kT0, "HIGH"), Sig("c2", "u3", kT0, "HIGH")},
                     Sig("p1", "u1", kT0, "LOW"));
  ASSERT_TRUE(Run(Req(kT0, {s},
                      {{SignalKind::kPost, "p1", "p1"},
                       {SignalKind::kComment, "c1", "p1"},
                       {SignalKind::kComment, "c2", "p1"}},
                      std::nullopt))
                  .ok());
  s.bundles[0].comments.pop_back();  // c2 deleted
  s.bundles[0].comments.push_back(Sig("c3", "u4", kT0, "LOW"));
  auto r = Run(Req(kT0 + 1000, {s}, {{SignalKind::kComment, "c3", "p1"}}, store_->Epoch()));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spots[0].report_count, 3);
  EXPECT_EQ(r->spots[0].level, Level::kLow);  // LOW 2 vs HIGH 1
}

TEST_F(ServiceTest, StaleNewSignalIsRecordedWithoutJudging) {
  Spot s = OneBundle({}, Sig("p1", "u1", kT0 - 30 * kMinuteMs, "HIGH"));
  auto r = Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(judge_.calls, 0);
  EXPECT_EQ(store_->RowCount(), 1);
  EXPECT_EQ(r->spots[0].level, Level::kUnknown);
}

TEST_F(ServiceTest, JudgeFailureMakesOnlyThatSpotFailed) {
  Spot bad = OneBundle({}, Sig("p1", "u1", kT0, "FAIL"));
  Spot good = OneBundle({}, Sig("p2", "u2", kT0, "HIGH"));
  good.info.spot_id = "s2";
  auto r =
      Run(Req(kT0, {bad, good}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kPost, "p2", "p2"}},
              std::nullopt));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spots[0].status, AnalysisStatus::kFailed);
  EXPECT_FALSE(r->spots[0].level.has_value());
  EXPECT_EQ(r->spots[1].status, AnalysisStatus::kOk);
  EXPECT_EQ(r->spots[1].level, Level::kHigh);
}

TEST_F(ServiceTest, MissedDeadlineIsFailedOnTimeAndTheLateJudgmentIsKept) {
  judge_.delay = 600ms;
  Spot s = OneBundle({}, Sig("p1", "u1", kT0, "HIGH"));
  const auto start = Clock::now();
  auto r =
      Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt), Clock::now() + 300ms);
  const auto took = Clock::now() - start;
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spots[0].status, AnalysisStatus::kFailed);
  EXPECT_LT(took, 550ms);
  // The next cycle, sent while the judgment is still in flight, waits for it
  // instead of judging again; it is stored by then.
  judge_.delay = 0ms;
  Spot empty = s;
  auto r2 = Run(Req(kT0 + 1000, {empty}, {{SignalKind::kPost, "p1", "p1"}}, store_->Epoch()));
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->spots[0].status, AnalysisStatus::kOk);
  EXPECT_EQ(r2->spots[0].level, Level::kHigh);
  EXPECT_EQ(judge_.calls, 1);
  EXPECT_EQ(store_->RowCount(), 1);
}

TEST_F(ServiceTest, LateJudgmentReplacesTheStoredOneForLaterCycles) {
  Spot s = OneBundle({}, Sig("p1", "u1", kT0, "LOW"));
  auto r = Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->spots[0].level, Level::kLow);
  // The judge hands over a better answer after the cycle answered (the cascade's LLM).
  Judgment late{Relevance::kRelevant, Level::kHigh, Cause::kEvent, "행사", "llm", "m", "p"};
  ASSERT_TRUE(judge_.last_on_late);
  judge_.last_on_late(0, late);
  auto stored = store_->Get({"p1"});
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->at("p1").judgment.judge, "llm");
  EXPECT_EQ(stored->at("p1").spot_id, "s1");
  auto r2 = Run(Req(kT0 + 1000, {s}, {}, store_->Epoch()));
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->spots[0].level, Level::kHigh);
  EXPECT_EQ(judge_.calls, 1);  // reused, not judged again
  // A late answer after the service is gone is dropped, not written.
  service_.reset();
  late.level = Level::kMedium;
  judge_.last_on_late(0, late);
  EXPECT_EQ(store_->Get({"p1"})->at("p1").judgment.level, Level::kHigh);
}

TEST_F(ServiceTest, InvalidRequestChangesNothing) {
  Spot s = OneBundle({}, Sig("p1", "u1", kT0, "HIGH"));
  auto r = Run(Req(kT0, {s}, {{SignalKind::kComment, "nope", "p1"}}, std::nullopt));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument);
  ASSERT_FALSE(errors_.empty());
  EXPECT_EQ(errors_[0].pointer, "/new_signals/0/signal_id");
  EXPECT_EQ(store_->RowCount(), 0);
  EXPECT_EQ(judge_.calls, 0);
}

TEST_F(ServiceTest, OverTheJudgeQueueBoundIsUnavailableAndChangesNothing) {
  ServiceOptions o;
  o.max_judge_queue = 1;
  service_ = std::make_unique<AnalysisService>(*store_, judge_, metrics_, nullptr, o);
  Spot s = OneBundle({}, Sig("p1", "u1", kT0 - 60'000, "HIGH"));
  Bundle second;
  second.post_id = "p2";
  second.post = Sig("p2", "u2", kT0 - 50'000, "HIGH");
  s.bundles.push_back(second);
  auto r = Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kPost, "p2", "p2"}},
                   std::nullopt));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(judge_.calls, 0);
  EXPECT_EQ(store_->RowCount(), 0);
  EXPECT_EQ(service_->signals_in_flight(), 0u);
  // One bundle fits.
  s.bundles.pop_back();
  EXPECT_TRUE(Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}}, std::nullopt)).ok());
}

TEST(ServiceStorage, DiskFullIsAnIoErrorNotReadyAndRecoversWhenSpaceReturns) {
  auto faulty = std::make_unique<FaultInjectingStore>(NewMemoryStore());
  FaultInjectingStore* store = faulty.get();
  FakeJudge judge;
  MetricsRegistry metrics;
  AnalysisService service(*store, judge, metrics, nullptr, ServiceOptions{});
  auto request = [](const std::string& id) {
    AnalysisRequest r;
    r.analyzed_at = {kT0, FormatUtc(kT0)};
    Spot s;
    s.info.spot_id = "s1";
    Bundle b;
    b.post_id = id;
    b.post = Sig(id, "u1", kT0 - 60'000, "HIGH");
    s.bundles.push_back(b);
    r.spots.push_back(s);
    r.new_signals = {{SignalKind::kPost, id, id}};
    return r;
  };
  std::vector<FieldError> errs;
  ASSERT_TRUE(service.Analyze(request("p1"), "r", Clock::now() + 10s, &errs).ok());
  EXPECT_TRUE(service.Ready());

  store->Set(StoreFault::kDiskFull);
  auto r = service.Analyze(request("p2"), "r", Clock::now() + 10s, &errs);
  ASSERT_FALSE(r.ok()) << "a judgment that cannot be stored is not a 200 with FAILED spots";
  EXPECT_EQ(r.status().code(), ErrorCode::kIo);
  EXPECT_FALSE(service.storage_ok());
  EXPECT_FALSE(service.Ready());  // its probe write fails too
  const int calls = judge.calls;
  auto refused = service.Analyze(request("p3"), "r", Clock::now() + 10s, &errs);
  EXPECT_EQ(refused.status().code(), ErrorCode::kIo) << "refused while down, before judging";
  EXPECT_EQ(judge.calls, calls);
  EXPECT_NE(metrics.Render().find("nunchi_storage_errors_total"), std::string::npos);

  store->Set(StoreFault::kNone);
  // The next probe (at most one a second) finds the space back.
  bool ready = false;
  for (int i = 0; i < 40 && !ready; ++i) {
    std::this_thread::sleep_for(100ms);
    ready = service.Ready();
  }
  EXPECT_TRUE(ready);
  EXPECT_TRUE(service.Analyze(request("p4"), "r", Clock::now() + 10s, &errs).ok());
}

// An engine failure the engine cannot survive: the router still answers
// through its fallback, but /readyz (Ready) reports the lost model.
TEST(ServiceReadiness, AJudgeThatFailedForGoodIsNotReadyButStillAnswers) {
  auto store = NewMemoryStore();
  FakeJudge judge;
  MetricsRegistry metrics;
  AnalysisService service(*store, judge, metrics, nullptr, ServiceOptions{});
  AnalysisRequest r;
  r.analyzed_at = {kT0, FormatUtc(kT0)};
  Spot s;
  s.info.spot_id = "s1";
  Bundle b;
  b.post_id = "p1";
  b.post = Sig("p1", "u1", kT0 - 60'000, "HIGH");
  s.bundles.push_back(b);
  r.spots.push_back(s);
  r.new_signals = {{SignalKind::kPost, "p1", "p1"}};
  EXPECT_TRUE(service.Ready());
  judge.failed = true;
  EXPECT_FALSE(service.Ready());
  std::vector<FieldError> errs;
  auto answered = service.Analyze(r, "r", Clock::now() + 10s, &errs);
  ASSERT_TRUE(answered.ok()) << answered.status().ToString();
  EXPECT_EQ(judge.calls, 1);
}

TEST(ServiceStorage, IoErrorOnReadsIsAnIoError) {
  auto store = std::make_unique<FaultInjectingStore>(NewMemoryStore());
  FakeJudge judge;
  MetricsRegistry metrics;
  AnalysisService service(*store, judge, metrics, nullptr, ServiceOptions{});
  store->Set(StoreFault::kIoError);
  AnalysisRequest r;
  r.analyzed_at = {kT0, FormatUtc(kT0)};
  std::vector<FieldError> errs;
  Spot s;
  s.info.spot_id = "s1";
  r.spots.push_back(s);
  auto out = service.Analyze(r, "r", Clock::now() + 10s, &errs);
  EXPECT_EQ(out.status().code(), ErrorCode::kIo);
  EXPECT_FALSE(service.storage_ok());
  EXPECT_GT(store->injected(), 0u);
}

TimeMs WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Replicas sharing one store: a bundle with a signal another replica has
// claimed is not judged here; its spot is FAILED, what this replica claimed
// for it is given back, and once the other replica has stored its judgments
// the backend's resend reuses them without judging anything.
TEST_F(ServiceTest, ASignalClaimedByAnotherReplicaIsNotJudgedAgain) {
  auto other = store_->Claim({"c2"}, "other-replica", WallMs(), 60'000);
  ASSERT_TRUE(other.ok());
  ASSERT_EQ(other->size(), 1u);
  Spot s = OneBundle(
      {Sig("c1", "u2", kT0 - 60'000, "HIGH 미어터져요"), Sig("c2", "u3", kT0 - 30'000, "HIGH 줄")},
      Sig("p1", "u1", kT0 - 120'000, "HIGH 줄 김"));
  std::vector<NewSignal> fresh = {{SignalKind::kPost, "p1", "p1"},
                                  {SignalKind::kComment, "c1", "p1"},
                                  {SignalKind::kComment, "c2", "p1"}};
  auto r = Run(Req(kT0, {s}, fresh, std::nullopt));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spots[0].status, AnalysisStatus::kFailed);
  EXPECT_EQ(judge_.calls, 0);
  // p1 and c1 were given back; c2 is still the other replica's.
  auto third = store_->Claim({"p1", "c1", "c2"}, "third-replica", WallMs(), 1);
  ASSERT_TRUE(third.ok());
  std::sort(third->begin(), third->end());
  EXPECT_EQ(*third, (std::vector<std::string>{"c1", "p1"}));
  ASSERT_TRUE(store_->ReleaseClaims({"p1", "c1"}, "third-replica").ok());

  // The other replica stores its judgments of the whole bundle.
  std::vector<StoredJudgment> rows;
  for (const auto& [id, at] : std::vector<std::pair<std::string, TimeMs>>{
           {"p1", kT0 - 120'000}, {"c1", kT0 - 60'000}, {"c2", kT0 - 30'000}}) {
    StoredJudgment row{id, "s1", "p1", "u-" + id, Timestamp{at, FormatUtc(at)}, 0, {}, kT0};
    for (const Signal* sig :
         {&s.bundles[0].post, &s.bundles[0].comments[0], &s.bundles[0].comments[1]})
      if (sig->signal_id == id) row.text_hash = TextHash(sig->text);
    row.judgment = {Relevance::kRelevant, Level::kHigh, Cause::kEvent, "행사", "other", "m", "v"};
    rows.push_back(row);
  }
  ASSERT_TRUE(store_->Put(rows).ok());
  // The FAILED spot's signals come again as new: all reused, none judged.
  r = Run(Req(kT0 + 60'000, {s}, fresh, store_->Epoch()));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->spots[0].status, AnalysisStatus::kOk);
  EXPECT_EQ(r->spots[0].report_count, 3);
  EXPECT_EQ(judge_.calls, 0);
}

TEST_F(ServiceTest, StoredJudgmentsFreeTheirClaims) {
  Spot s = OneBundle({Sig("c1", "u2", kT0 - 60'000, "HIGH")}, Sig("p1", "u1", kT0 - 90'000, "x"));
  ASSERT_TRUE(
      Run(Req(kT0, {s}, {{SignalKind::kPost, "p1", "p1"}, {SignalKind::kComment, "c1", "p1"}},
              std::nullopt))
          .ok());
  EXPECT_EQ(judge_.calls, 1);
  auto other = store_->Claim({"p1", "c1"}, "other-replica", WallMs(), 60'000);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->size(), 2u);
}

}  // namespace
}  // namespace nunchi
