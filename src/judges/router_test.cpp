#include "judges/router.h"

#include <gtest/gtest.h>

#include <functional>

namespace nunchi::judges {
namespace {

// Answers targets whose index passes `ok`, fails the others; optionally not ready.
class FakeJudge : public Judge {
 public:
  FakeJudge(std::string name, std::function<bool(size_t)> ok, bool ready = true, bool sign = true)
      : name_(std::move(name)), ok_(std::move(ok)), ready_(ready), sign_(sign) {}
  std::string_view name() const override { return name_; }
  bool Ready() const override { return ready_ && !failed; }
  bool Failed() const override { return failed; }
  bool failed = false;
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    ++calls;
    seen_targets = task.targets;
    JudgeOutput out;
    for (size_t t : task.targets) {
      if (!ok_(t)) {
        out.emplace_back(ErrorCode::kDeadlineExceeded, name_ + " too slow");
        continue;
      }
      Judgment j;
      j.relevance = Relevance::kRelevant;
      j.level = Level::kHigh;
      if (sign_) j.judge = name_;
      out.emplace_back(j);
    }
    return out;
  }
  int calls = 0;
  std::vector<size_t> seen_targets;

 private:
  std::string name_;
  std::function<bool(size_t)> ok_;
  bool ready_, sign_;
};

JudgeTask Task(size_t comments) {
  JudgeTask t;
  t.bundle.post.text = "post";
  for (size_t i = 0; i < comments; ++i) t.bundle.comments.push_back({"c", "u", {}, "text"});
  for (size_t i = 0; i <= comments; ++i) t.targets.push_back(i);
  return t;
}

TEST(RouterTest, FirstOkWinsAndFailuresFallThrough) {
  auto llm = std::make_shared<FakeJudge>("llm", [](size_t t) { return t % 2 == 0; });
  auto fallback = std::make_shared<FakeJudge>("rules", [](size_t) { return true; });
  Router r({llm, fallback});
  JudgeOutput out = r.JudgeBundle(Task(3));
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0]->judge, "llm");
  EXPECT_EQ(out[1]->judge, "rules");
  EXPECT_EQ(out[2]->judge, "llm");
  EXPECT_EQ(out[3]->judge, "rules");
  EXPECT_EQ(fallback->seen_targets, (std::vector<size_t>{1, 3}));  // only the failed ones
  EXPECT_EQ(r.answered_by(0), 2u);
  EXPECT_EQ(r.answered_by(1), 2u);
  EXPECT_EQ(r.unanswered(), 0u);
}

TEST(RouterTest, SkipsJudgesThatAreNotReady) {
  auto down = std::make_shared<FakeJudge>(
      "llm", [](size_t) { return true; }, /*ready=*/false);
  auto fallback = std::make_shared<FakeJudge>("default", [](size_t) { return true; });
  Router r({down, fallback});
  EXPECT_TRUE(r.Ready());
  JudgeOutput out = r.JudgeBundle(Task(1));
  EXPECT_EQ(down->calls, 0);
  EXPECT_EQ(out[0]->judge, "default");
}

TEST(RouterTest, AJudgeThatFailedForGoodMakesTheRouterFailedWhileTheFallbackAnswers) {
  auto llm = std::make_shared<FakeJudge>("llm", [](size_t) { return true; });
  auto fallback = std::make_shared<FakeJudge>("default", [](size_t) { return true; });
  Router r({llm, fallback});
  EXPECT_FALSE(r.Failed());
  llm->failed = true;
  EXPECT_TRUE(r.Failed());
  EXPECT_TRUE(r.Ready());
  JudgeOutput out = r.JudgeBundle(Task(1));
  EXPECT_EQ(llm->calls, 0);
  EXPECT_EQ(out[0]->judge, "default");
}

TEST(RouterTest, NamesUnsignedJudgmentsAndReportsLastError) {
  auto unsigned_judge = std::make_shared<FakeJudge>(
      "remote:x", [](size_t t) { return t == 0; }, true, false);
  Router r({unsigned_judge});
  JudgeOutput out = r.JudgeBundle(Task(1));
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->judge, "remote:x");
  ASSERT_FALSE(out[1].ok());
  EXPECT_EQ(out[1].status().code(), ErrorCode::kDeadlineExceeded);
  EXPECT_EQ(r.unanswered(), 1u);
}

TEST(RouterTest, BorrowsJudges) {
  FakeJudge a("a", [](size_t) { return false; });
  FakeJudge b("b", [](size_t) { return true; });
  Router r(std::vector<Judge*>{&a, &b});
  JudgeOutput out = r.JudgeBundle(Task(0));
  EXPECT_EQ(out[0]->judge, "b");
}

TEST(RouterTest, NoReadyJudgeIsUnavailable) {
  auto down = std::make_shared<FakeJudge>(
      "llm", [](size_t) { return true; }, false);
  Router r({down});
  EXPECT_FALSE(r.Ready());
  JudgeOutput out = r.JudgeBundle(Task(0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].status().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace nunchi::judges
