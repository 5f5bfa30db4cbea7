// LlamaCandidateChooser on the tiny random-weight model (label: model): its
// picks are noise, but every answer must name a shown candidate or none.
#include "choosers/llama_candidate_chooser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "choosers/choice_grammar.h"
#include "engines/llama/test_model.h"

namespace nunchi::choosers {
namespace {

using namespace std::chrono_literals;
using extract::Candidate;

struct Case {
  std::string field;
  std::vector<Candidate> candidates;
  std::string ocr_text;
};

Case RandomCase(std::mt19937& rng) {
  static const char* fields[] = {"amount",   "taxi_fare", "paid_at",
                                 "merchant", "issuer",    "approval_number"};
  static const char* labels[] = {"합계", "결제금액", "공급가액", "부가세", "받은금액",
                                 "",     "현재요금", "기본요금", "카드",   "₩"};
  Case c;
  c.field = fields[rng() % std::size(fields)];
  const int n = 1 + static_cast<int>(rng() % 14);  // more than are shown, sometimes
  for (int i = 0; i < n; ++i) {
    // Repeated values happen: the total is printed several times.
    std::string value = std::to_string(100 * (1 + rng() % (i % 3 == 2 ? 3 : 900)));
    std::string line = std::string(labels[rng() % std::size(labels)]) + " " + value + "원";
    c.candidates.push_back({value, static_cast<double>(rng() % 100), {"ocr", line, {}}});
    c.ocr_text += line + "\n";
    if (rng() % 2) c.ocr_text += "사업자번호 114-13-17031 대표 김민수\n";
  }
  return c;
}

class ChooserTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto engine = llama::LlamaEngine::Create(llama::testing::TinyEngineOptions());
    ASSERT_TRUE(engine.ok()) << engine.status().ToString();
    engine_ = std::move(engine).value().release();
  }
  static void TearDownTestSuite() {
    delete engine_;
    engine_ = nullptr;
  }
  static std::unique_ptr<LlamaCandidateChooser> Make(LlamaChooserOptions o) {
    auto chooser = LlamaCandidateChooser::Create(engine_, o);
    EXPECT_TRUE(chooser.ok()) << chooser.status().ToString();
    return chooser.ok() ? std::move(chooser).value() : nullptr;
  }
  static llama::LlamaEngine* engine_;
};
llama::LlamaEngine* ChooserTest::engine_ = nullptr;

TEST_F(ChooserTest, RequestCarriesTheCandidatesAndTheExactGrammar) {
  auto chooser = Make({});
  ASSERT_TRUE(chooser);
  std::vector<Candidate> c = {{"11000", 50, {"ocr", "공급가액 11,000원", {}}},
                              {"12100", 90, {"ocr", "결제금액 12,100원", {}}},
                              {"12100", 40, {"ocr", "신용카드 12,100원", {}}}};
  std::vector<size_t> shown;
  auto req = chooser->BuildRequest("amount", c, "공급가액 11,000원\n결제금액 12,100원\n", &shown);
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  EXPECT_EQ(shown, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(req->grammar, ChoiceGrammar(2));
  EXPECT_NE(req->prompt.find("0: 11000 (from: 공급가액 11,000원)"), std::string::npos);
  EXPECT_NE(req->prompt.find("1: 12100 (from: 결제금액 12,100원)"), std::string::npos);
  EXPECT_GE(req->max_tokens, static_cast<int>(MaxChoiceAnswerBytes(2)));
  EXPECT_EQ(chooser->prompt_version(), "choose-v1");
}

TEST_F(ChooserTest, HundredRandomCandidateListsAnswerInRangeOrNull) {
  auto chooser = Make({.timeout = 60s});
  ASSERT_TRUE(chooser);
  std::mt19937 rng(90210);
  constexpr int kCases = 100;
  int picked = 0;
  for (int i = 0; i < kCases; ++i) {
    const Case c = RandomCase(rng);
    std::optional<size_t> pick = chooser->Choose(c.field, c.candidates, c.ocr_text);
    if (pick) {
      ++picked;
      EXPECT_LT(*pick, c.candidates.size()) << "case " << i;
    }
  }
  const ChooserCounters n = chooser->Counters();
  EXPECT_EQ(n.calls, static_cast<uint64_t>(kCases));
  EXPECT_EQ(n.picks, static_cast<uint64_t>(picked));
  EXPECT_EQ(n.picks + n.kept, n.calls);  // the grammar held every time, nothing timed out
  EXPECT_EQ(n.errors, 0u);
  EXPECT_EQ(n.timeouts, 0u);
  EXPECT_LE(n.overrides, n.picks);
  std::printf("chooser on random weights: %d picks (%llu overrides) of %d\n", picked,
              static_cast<unsigned long long>(n.overrides), kCases);
}

TEST_F(ChooserTest, PassedDeadlineKeepsTheRulesChoiceFast) {
  auto chooser = Make({.timeout = 0ms});
  ASSERT_TRUE(chooser);
  std::mt19937 rng(7);
  Case c = RandomCase(rng);
  c.candidates = {{"4800", 10, {"ocr", "기본요금 4,800원", {}}},
                  {"12300", 12, {"ocr", "12,300원", {}}}};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(chooser->Choose("taxi_fare", c.candidates, c.ocr_text));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
  EXPECT_EQ(chooser->Counters().timeouts, 1u);
  EXPECT_EQ(chooser->Counters().picks, 0u);
}

TEST_F(ChooserTest, OneDistinctValueNeedsNoModel) {
  auto chooser = Make({});
  ASSERT_TRUE(chooser);
  const uint64_t before = engine_->Counters().requests;
  std::vector<Candidate> c = {{"12100", 50, {"ocr", "합계 12,100", {}}},
                              {"12100", 60, {"ocr", "결제금액 12,100", {}}}};
  EXPECT_FALSE(chooser->Choose("amount", c, "합계 12,100\n결제금액 12,100\n"));
  EXPECT_EQ(engine_->Counters().requests, before);
  EXPECT_EQ(chooser->Counters().kept, 1u);
}

TEST_F(ChooserTest, ConcurrentCallsAllAnswer) {
  auto chooser = Make({.timeout = 60s});
  ASSERT_TRUE(chooser);
  constexpr int kThreads = 6, kPerThread = 8;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      for (int i = 0; i < kPerThread; ++i) {
        const Case c = RandomCase(rng);
        auto pick = chooser->Choose(c.field, c.candidates, c.ocr_text);
        if (pick && *pick >= c.candidates.size()) ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  const ChooserCounters n = chooser->Counters();
  EXPECT_EQ(n.calls, static_cast<uint64_t>(kThreads * kPerThread));
  EXPECT_EQ(n.picks + n.kept, n.calls);
  EXPECT_EQ(n.errors + n.timeouts, 0u);
}

}  // namespace
}  // namespace nunchi::choosers
