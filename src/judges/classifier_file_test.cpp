#include "judges/classifier_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace nunchi::judges {
namespace {

std::vector<TrainExample> Examples() {
  std::vector<TrainExample> ex;
  const char* busy[] = {"사람 너무 많아요", "줄이 끝이 안 보여요", "미어터져요", "대기 1시간"};
  const char* quiet[] = {"한산해요", "줄 없어요", "널널합니다", "바로 들어감"};
  const char* off[] = {"ㅋㅋㅋ", "광고 링크", "내일 갈까요", "헐 대박"};
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 4; ++i) {
      ex.push_back({busy[i], Relevance::kRelevant, Level::kHigh, Cause::kEvent});
      ex.push_back({quiet[i], Relevance::kRelevant, Level::kLow, Cause::kNone});
      ex.push_back({off[i], Relevance::kIrrelevant, Level::kUnknown, Cause::kNone});
    }
  return ex;
}

TEST(ClassifierFile, RoundTripPredictsTheSame) {
  auto model = TrainClassifier(Examples());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  model->calibration.rel_a = 2.5f;
  model->calibration.fitted = true;
  model->features.word_bigrams = true;
  std::string path = (std::filesystem::temp_directory_path() /
                      ("nunchi-clf-" + std::to_string(::getpid()) + ".model"))
                         .string();
  ASSERT_TRUE(WriteClassifierModel(*model, path).ok());
  auto back = ReadClassifierModel(path);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->feature_ids, model->feature_ids);
  EXPECT_EQ(back->weights, model->weights);
  EXPECT_FLOAT_EQ(back->calibration.rel_a, 2.5f);
  EXPECT_TRUE(back->features.word_bigrams);
  Classifier a(*model), b(*back);
  for (const char* t : {"사람 많아요", "한산", "ㅋㅋ"}) {
    EXPECT_FLOAT_EQ(a.Predict(t).p_relevant, b.Predict(t).p_relevant);
    EXPECT_EQ(a.Predict(t).level, b.Predict(t).level);
  }
  // A cut file is rejected, not half-loaded.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
  EXPECT_EQ(ReadClassifierModel(path).status().code(), ErrorCode::kInvalidArgument);
  std::ofstream(path) << "not a model";
  EXPECT_EQ(ReadClassifierModel(path).status().code(), ErrorCode::kInvalidArgument);
  std::filesystem::remove(path);
  EXPECT_EQ(ReadClassifierModel(path).status().code(), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace nunchi::judges
