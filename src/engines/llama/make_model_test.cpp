// make-model: the generated files load in llama.cpp with the Qwen2 vocabulary
// and a usable chat template (label: model).
#include "engines/llama/make_model.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "engines/llama/runtime.h"
#include "engines/llama/test_model.h"
#include "llama-cpp.h"

namespace nunchi::llama {
namespace {

llama_model_ptr Load(const std::string& path) {
  InitLlamaRuntime();
  return llama_model_ptr(llama_model_load_from_file(path.c_str(), llama_model_default_params()));
}

TEST(MakeModel, TinyLoadsFastWithTheQwen2VocabularyAndChatMl) {
  const auto& path = testing::TinyModelPath();
  const auto t0 = std::chrono::steady_clock::now();
  auto model = Load(path);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_NE(model, nullptr);
  // Nearly all of it is the 151k-token vocabulary; generous for shared CI machines.
  EXPECT_LT(took, std::chrono::seconds(5));
  std::printf("[make-model] tiny loads in %.0f ms\n",
              std::chrono::duration<double, std::milli>(took).count());
  EXPECT_GT(llama_vocab_n_tokens(llama_model_get_vocab(model.get())), 150000);
  EXPECT_EQ(llama_model_n_layer(model.get()), 2);
  EXPECT_EQ(llama_model_n_embd(model.get()), 64);
  const char* tmpl = llama_model_chat_template(model.get(), nullptr);
  ASSERT_NE(tmpl, nullptr);
  llama_chat_message msg{"user", "안녕"};
  char buf[256];
  const int n = llama_chat_apply_template(tmpl, &msg, 1, true, buf, sizeof(buf));
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n), "<|im_start|>user\n안녕<|im_end|>\n<|im_start|>assistant\n");
  char name[64];
  ASSERT_GT(llama_model_meta_val_str(model.get(), "general.architecture", name, sizeof(name)), 0);
  EXPECT_STREQ(name, "llama");
}

TEST(MakeModel, QuantizesToQ8_0) {
  MakeModelOptions o;
  o.shape = "tiny";
  o.quant = "Q8_0";
  o.out = testing::ScratchDir("q8") + "/tiny-q8.gguf";
  o.quiet = true;
  ASSERT_TRUE(MakeModel(o).ok());
  auto model = Load(o.out);
  ASSERT_NE(model, nullptr);
  char ftype[64];
  ASSERT_GT(llama_model_desc(model.get(), ftype, sizeof(ftype)), 0);
  EXPECT_NE(std::string(ftype).find("Q8_0"), std::string::npos) << ftype;
  EXPECT_LT(std::filesystem::file_size(o.out),
            std::filesystem::file_size(testing::TinyModelPath()));
}

TEST(MakeModel, RejectsUnknownShapesAndQuantizations) {
  MakeModelOptions o;
  o.out = testing::ScratchDir("bad") + "/x.gguf";
  o.shape = "huge";
  EXPECT_EQ(MakeModel(o).code(), ErrorCode::kInvalidArgument);
  o.shape = "tiny";
  o.quant = "Q3_X";
  EXPECT_EQ(MakeModel(o).code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(o.out));
}

TEST(ModelIdentity, DiffersBetweenSeeds) {
  MakeModelOptions o;
  o.out = testing::ScratchDir("seed") + "/a.gguf";
  o.quiet = true;
  o.seed = 99;
  ASSERT_TRUE(MakeModel(o).ok());
  const auto a = ModelIdentity(o.out);
  const auto b = ModelIdentity(testing::TinyModelPath());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(*b, *ModelIdentity(testing::TinyModelPath()));
}

}  // namespace
}  // namespace nunchi::llama
