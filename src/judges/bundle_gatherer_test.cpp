#include "judges/bundle_gatherer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>

namespace nunchi::judges {
namespace {

using namespace std::chrono_literals;

JudgeTask Task(const std::string& post_id, TimeMs analyzed_at, size_t targets) {
  JudgeTask t;
  t.bundle.post_id = post_id;
  t.bundle.post.signal_id = post_id;
  t.bundle.post.text = "post";
  for (size_t i = 1; i < targets; ++i) t.bundle.comments.push_back({"c", "u", {}, "text"});
  for (size_t i = 0; i < targets; ++i) t.targets.push_back(i);
  t.analyzed_at = analyzed_at;
  return t;
}

// Records every batch; answers each target with the task's post id as cause text.
struct Recorder {
  std::mutex mu;
  std::vector<std::vector<std::string>> batches;  // post ids per batch
  BundleGatherer::BatchFn Fn() {
    return [this](const std::vector<const JudgeTask*>& tasks) {
      std::vector<JudgeOutput> out;
      std::vector<std::string> ids;
      for (const JudgeTask* t : tasks) {
        ids.push_back(t->bundle.post_id);
        JudgeOutput o;
        for (size_t k = 0; k < t->targets.size(); ++k) {
          Judgment j;
          j.relevance = Relevance::kRelevant;
          j.cause_text = t->bundle.post_id;
          o.emplace_back(j);
        }
        out.push_back(std::move(o));
      }
      std::lock_guard lock(mu);
      batches.push_back(ids);
      return out;
    };
  }
};

// Submits tasks on one thread each, all at once; returns each caller's output.
std::vector<JudgeOutput> SubmitAll(BundleGatherer& g, const std::vector<JudgeTask>& tasks) {
  std::vector<JudgeOutput> outs(tasks.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < tasks.size(); ++i)
    threads.emplace_back([&, i] { outs[i] = g.Submit(tasks[i]); });
  for (auto& t : threads) t.join();
  return outs;
}

TEST(BundleGathererTest, ConcurrentCallsShareOneBatchAndGetTheirOwnOutput) {
  Recorder rec;
  // A long window: the batch must run because it is full, not because time passed.
  BundleGatherer g(4, 10s, rec.Fn());
  std::vector<JudgeTask> tasks = {Task("p1", 1000, 1), Task("p2", 1000, 3), Task("p3", 1000, 2),
                                  Task("p4", 1000, 5)};
  auto start = Clock::now();
  auto outs = SubmitAll(g, tasks);
  EXPECT_LT(Clock::now() - start, 5s);
  ASSERT_EQ(rec.batches.size(), 1u);
  EXPECT_EQ(rec.batches[0].size(), 4u);
  EXPECT_EQ(g.batches(), 1u);
  EXPECT_EQ(g.tasks(), 4u);
  for (size_t i = 0; i < tasks.size(); ++i) {
    ASSERT_EQ(outs[i].size(), tasks[i].targets.size()) << i;
    for (const auto& r : outs[i]) {
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->cause_text, tasks[i].bundle.post_id);
    }
  }
}

TEST(BundleGathererTest, ALoneTaskRunsWhenTheWindowPasses) {
  Recorder rec;
  BundleGatherer g(8, 30ms, rec.Fn());
  JudgeTask t = Task("p1", 1000, 2);
  JudgeOutput out = g.Submit(t);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(out[0].ok());
  ASSERT_EQ(rec.batches.size(), 1u);
  EXPECT_EQ(rec.batches[0], std::vector<std::string>{"p1"});
}

TEST(BundleGathererTest, BatchesHoldAtMostMaxBundles) {
  Recorder rec;
  BundleGatherer g(4, 300ms, rec.Fn());
  std::vector<JudgeTask> tasks;
  for (int i = 0; i < 6; ++i) tasks.push_back(Task("p" + std::to_string(i), 1000, 1));
  auto outs = SubmitAll(g, tasks);
  std::vector<size_t> sizes;
  for (const auto& b : rec.batches) sizes.push_back(b.size());
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(sizes, (std::vector<size_t>{2, 4}));
  for (size_t i = 0; i < tasks.size(); ++i)
    EXPECT_EQ(outs[i][0]->cause_text, tasks[i].bundle.post_id);
}

TEST(BundleGathererTest, DifferentNowsNeverShareABatch) {
  Recorder rec;
  BundleGatherer g(4, 200ms, rec.Fn());
  std::vector<JudgeTask> tasks = {Task("a1", 1000, 1), Task("b1", 2000, 1), Task("a2", 1000, 1),
                                  Task("b2", 2000, 1)};
  SubmitAll(g, tasks);
  ASSERT_EQ(rec.batches.size(), 2u);
  for (const auto& b : rec.batches) {
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0][0], b[1][0]) << "a batch mixed analyzed_at";
  }
}

TEST(BundleGathererTest, AMissingOutputFailsOnlyThatTask) {
  BundleGatherer g(2, 5s, [](const std::vector<const JudgeTask*>& tasks) {
    std::vector<JudgeOutput> out(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i)
      if (tasks[i]->bundle.post_id == "good")
        out[i] = JudgeOutput(tasks[i]->targets.size(), Result<Judgment>(Judgment{}));
    return out;
  });
  std::vector<JudgeTask> tasks = {Task("good", 1000, 2), Task("bad", 1000, 3)};
  auto outs = SubmitAll(g, tasks);
  ASSERT_EQ(outs[0].size(), 2u);
  EXPECT_TRUE(outs[0][0].ok());
  ASSERT_EQ(outs[1].size(), 3u);
  EXPECT_EQ(outs[1][0].status().code(), ErrorCode::kInternal);
}

TEST(BundleGathererTest, AThrowingBatchFailsEveryMemberInsteadOfHangingThem) {
  BundleGatherer g(2, 5s, [](const std::vector<const JudgeTask*>&) -> std::vector<JudgeOutput> {
    throw std::runtime_error("engine exploded");
  });
  std::vector<JudgeTask> tasks = {Task("a", 1000, 1), Task("b", 1000, 2)};
  auto outs = SubmitAll(g, tasks);
  ASSERT_EQ(outs[1].size(), 2u);
  EXPECT_EQ(outs[0][0].status().code(), ErrorCode::kInternal);
  EXPECT_EQ(outs[1][1].status().code(), ErrorCode::kInternal);
}

}  // namespace
}  // namespace nunchi::judges
