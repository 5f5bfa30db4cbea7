#include "engines/llama/loop_hold.h"

#include <gtest/gtest.h>

namespace nunchi::llama {
namespace {

llm::DegenerationGuard Fed(std::initializer_list<int32_t> tokens) {
  llm::DegenerationGuard g;
  for (int32_t t : tokens) g.AddToken(t);
  return g;
}

TEST(LoopHold, SuspectNeedsTwoCopiesOverTheSpan) {
  const LoopHoldOptions o;  // span 8
  EXPECT_FALSE(SuspectedLoop(Fed({1, 2, 3, 4, 5, 6, 7, 8, 9}), o));
  EXPECT_FALSE(SuspectedLoop(Fed({9, 1, 2, 3, 1, 2, 3}), o));       // 2 copies, span 6 < 8
  EXPECT_TRUE(SuspectedLoop(Fed({9, 1, 2, 3, 4, 1, 2, 3, 4}), o));  // 2 copies of 4
  EXPECT_TRUE(SuspectedLoop(Fed({5, 5, 5, 5, 5, 5, 5, 5}), o));     // 8 of one token
  EXPECT_FALSE(SuspectedLoop(Fed({5, 5, 5, 5, 5, 5, 5}), o));
  // Breaking out of the loop clears the suspicion.
  EXPECT_FALSE(SuspectedLoop(Fed({9, 1, 2, 3, 4, 1, 2, 3, 4, 7}), o));
  // Holding off: never a suspect.
  EXPECT_FALSE(SuspectedLoop(Fed({5, 5, 5, 5, 5, 5, 5, 5}), {8, 0}));
}

TEST(LoopHold, TrippedGuardIsNotASuspect) {
  llm::DegenerationGuard g;
  for (int i = 0; i < 60 && !g.tripped(); ++i) g.AddToken(i % 4);
  ASSERT_TRUE(g.tripped());
  EXPECT_FALSE(SuspectedLoop(g, {}));
}

TEST(LoopHold, SuspectsSitOutWhileHealthyWorkRuns) {
  const LoopHoldOptions o{8, 3};
  const HoldCandidate healthy{true, false, 0}, loop{true, true, 0};
  EXPECT_EQ(SequencesToHold(std::vector{healthy, loop, loop}, o),
            (std::vector<bool>{false, true, true}));
  // Only suspects: nothing would run in their place, so nobody sits out.
  EXPECT_EQ(SequencesToHold(std::vector{loop, loop}, o), (std::vector<bool>{false, false}));
  // A healthy sequence without pending work does not keep a suspect waiting.
  const HoldCandidate idle{false, false, 0};
  EXPECT_EQ(SequencesToHold(std::vector{idle, loop}, o), (std::vector<bool>{false, false}));
}

TEST(LoopHold, ASuspectSitsOutAtMostMaxSteps) {
  const LoopHoldOptions o{8, 3};
  const HoldCandidate healthy{true, false, 0};
  EXPECT_EQ(SequencesToHold(std::vector{healthy, HoldCandidate{true, true, 2}}, o),
            (std::vector<bool>{false, true}));
  EXPECT_EQ(SequencesToHold(std::vector{healthy, HoldCandidate{true, true, 3}}, o),
            (std::vector<bool>{false, false}));
  // An exhausted suspect counts as work that runs: a fresh suspect sits out next to it.
  EXPECT_EQ(
      SequencesToHold(std::vector{HoldCandidate{true, true, 3}, HoldCandidate{true, true, 0}}, o),
      (std::vector<bool>{false, true}));
  EXPECT_EQ(SequencesToHold(std::vector{healthy, HoldCandidate{true, true, 0}}, {8, 0}),
            (std::vector<bool>{false, false}));
}

}  // namespace
}  // namespace nunchi::llama
