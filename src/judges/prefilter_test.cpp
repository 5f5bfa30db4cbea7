#include "judges/prefilter.h"

#include <gtest/gtest.h>

namespace nunchi::judges {
namespace {

TEST(PrefilterTest, ClassifiesNoise) {
  EXPECT_EQ(ClassifyNoise(""), NoiseKind::kBlank);
  EXPECT_EQ(ClassifyNoise("  \n\t "), NoiseKind::kBlank);
  EXPECT_EQ(ClassifyNoise("?!...~~"), NoiseKind::kPunctuation);
  EXPECT_EQ(ClassifyNoise("😂😂 🔥"), NoiseKind::kEmoji);
  EXPECT_EQ(ClassifyNoise("!! 👍"), NoiseKind::kEmoji);
}

TEST(PrefilterTest, LeavesWordsAndLaughterToTheRules) {
  EXPECT_EQ(ClassifyNoise("ㅋㅋㅋㅋ"), NoiseKind::kNone);
  EXPECT_EQ(ClassifyNoise("ㅠㅠ"), NoiseKind::kNone);
  EXPECT_EQ(ClassifyNoise("222"), NoiseKind::kNone);
  EXPECT_EQ(ClassifyNoise("한산해요"), NoiseKind::kNone);
  EXPECT_EQ(ClassifyNoise("packed!"), NoiseKind::kNone);
}

TEST(PrefilterTest, JudgesOnlyNoiseAndCounts) {
  Prefilter p;
  JudgeTask task;
  task.bundle.post.text = "...";
  task.bundle.comments.push_back({"c1", "u", {}, "미어터져요"});
  task.bundle.comments.push_back({"c2", "u", {}, "😂"});
  task.targets = {0, 1, 2};
  JudgeOutput out = p.JudgeBundle(task);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(out[0].ok());
  EXPECT_EQ(out[0]->relevance, Relevance::kIrrelevant);
  EXPECT_EQ(out[0]->judge, "prefilter");
  EXPECT_FALSE(out[1].ok());
  EXPECT_TRUE(out[2].ok());
  auto c = p.counts();
  EXPECT_EQ(c.seen, 3u);
  EXPECT_EQ(c.punctuation, 1u);
  EXPECT_EQ(c.emoji, 1u);
  EXPECT_EQ(c.blank, 0u);
}

}  // namespace
}  // namespace nunchi::judges
