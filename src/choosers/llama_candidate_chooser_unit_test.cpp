// LlamaCandidateChooser on the scripted engine (llm/fake_text_engine.h), no
// model file (label: unit): what it makes of each kind of answer.
#include <gtest/gtest.h>

#include <stdexcept>

#include "choosers/choice_grammar.h"
#include "choosers/llama_candidate_chooser.h"
#include "llm/fake_text_engine.h"

namespace nunchi::choosers {
namespace {

using namespace std::chrono_literals;
using extract::Candidate;
using llm::EngineRequest;
using llm::FakeAnswer;
using llm::FakeTextEngine;

const std::vector<Candidate> kCandidates = {{"11000", 50, {"ocr", "공급가액 11,000원", {}}},
                                            {"12100", 90, {"ocr", "결제금액 12,100원", {}}},
                                            {"1100", 40, {"ocr", "부가세 1,100원", {}}}};
const char* kOcr = "공급가액 11,000원\n결제금액 12,100원\n부가세 1,100원\n";

llm::FakeScript Answer(std::string text) {
  return [text](const EngineRequest&) {
    return FakeAnswer{llm::EngineResult{.text = text, .stop = llm::StopReason::kGrammarDone}};
  };
}

std::unique_ptr<LlamaCandidateChooser> Make(llm::TextEngine* e, LlamaChooserOptions o = {}) {
  auto c = LlamaCandidateChooser::Create(e, o);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return c.ok() ? std::move(c).value() : nullptr;
}

TEST(ChooserUnit, APickOfAnotherCandidateOverridesTheRules) {
  FakeTextEngine engine(Answer("{\"choice\":0}"));
  auto chooser = Make(&engine);
  ASSERT_TRUE(chooser);
  EXPECT_EQ(engine.warmed().size(), 1u);
  std::vector<size_t> shown;
  ASSERT_TRUE(chooser->BuildRequest("amount", kCandidates, kOcr, &shown).ok());
  const auto pick = chooser->Choose("amount", kCandidates, kOcr);
  ASSERT_TRUE(pick);
  EXPECT_EQ(*pick, shown[0]);
  const auto seen = engine.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].grammar, ChoiceGrammar(shown.size()));
  EXPECT_FALSE(seen[0].retry_on_loop);
  EXPECT_NE(seen[0].deadline, llm::EngineClock::time_point::max());
  const ChooserCounters c = chooser->Counters();
  EXPECT_EQ(c.picks, 1u);
  EXPECT_EQ(c.overrides, kCandidates[*pick].value == "12100" ? 0u : 1u);
}

TEST(ChooserUnit, NullKeepsTheRulesChoice) {
  FakeTextEngine engine(Answer("{\"choice\":null}"));
  auto chooser = Make(&engine);
  EXPECT_FALSE(chooser->Choose("amount", kCandidates, kOcr));
  EXPECT_EQ(chooser->Counters().kept, 1u);
}

TEST(ChooserUnit, AnAnswerOutsideTheGrammarIsAnError) {
  FakeTextEngine engine(Answer("{\"choice\":7}"));
  auto chooser = Make(&engine);
  EXPECT_FALSE(chooser->Choose("amount", kCandidates, kOcr));
  EXPECT_EQ(chooser->Counters().errors, 1u);
}

TEST(ChooserUnit, ASlowEngineTimesOutAndTheRulesStand) {
  FakeTextEngine engine([](const EngineRequest&) {
    FakeAnswer a{llm::EngineResult{.text = "{\"choice\":0}"}};
    a.delay = 300ms;
    return a;
  });
  auto chooser = Make(&engine, {.timeout = 5ms});
  EXPECT_FALSE(chooser->Choose("amount", kCandidates, kOcr));
  EXPECT_EQ(chooser->Counters().timeouts, 1u);
  EXPECT_EQ(chooser->Counters().picks, 0u);
}

TEST(ChooserUnit, AFaultOnTheEngineThreadIsAnErrorAndTheNextCallAnswers) {
  FakeTextEngine engine(Answer("{\"choice\":1}"));
  int calls = 0;
  engine.set_fault_hook([&](const EngineRequest&) {
    if (++calls == 1) throw std::runtime_error("injected");
  });
  auto chooser = Make(&engine);
  EXPECT_FALSE(chooser->Choose("amount", kCandidates, kOcr));
  EXPECT_EQ(chooser->Counters().errors, 1u);
  EXPECT_TRUE(chooser->Choose("amount", kCandidates, kOcr));
  EXPECT_EQ(engine.Counters().faults, 1u);
}

TEST(ChooserUnit, OneDistinctValueNeedsNoEngine) {
  FakeTextEngine engine(Answer("{\"choice\":0}"));
  auto chooser = Make(&engine);
  std::vector<Candidate> same = {{"12100", 50, {"ocr", "합계 12,100", {}}},
                                 {"12100", 60, {"ocr", "결제금액 12,100", {}}}};
  EXPECT_FALSE(chooser->Choose("amount", same, "합계 12,100\n"));
  EXPECT_TRUE(engine.requests().empty());
}

}  // namespace
}  // namespace nunchi::choosers
