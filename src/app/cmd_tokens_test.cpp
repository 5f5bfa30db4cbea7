// `nunchi tokens` end to end (label: model): on the Qwen2 vocabulary-only
// GGUF of the llama.cpp install and on the tiny generated model (same
// tokenizer, random weights), over the training bundles the repository
// ships. Counts must be positive and the figures plausible for Korean text
// on a byte-level BPE; a bad model path is a usage error (exit 2) that names
// the file, a missing data file a runtime error (1).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "binary_test_util.h"

namespace nunchi {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::CommandOutput;

const std::string kData = std::string(NUNCHI_SOURCE_DIR) + "/data/train/congestion-train.jsonl";

std::string Tokens(const std::string& args) {
  return std::string(NUNCHI_BINARY) + " tokens --data '" + kData + "' --format json " + args;
}

// Exit status and stderr of a command.
int ExitOf(const std::string& cmd, std::string* err) {
  const std::string err_file =
      (fs::temp_directory_path() / ("nunchi-tokens-err-" + std::to_string(getpid()) + ".txt"))
          .string();
  const int raw = std::system((cmd + " >/dev/null 2>'" + err_file + "'").c_str());
  std::ifstream in(err_file);
  std::stringstream s;
  s << in.rdbuf();
  *err = s.str();
  fs::remove(err_file);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

void ExpectPlausible(const json& j) {
  EXPECT_GT(j["n_vocab"].get<int>(), 100000) << j;  // Qwen2: 151,936 tokens
  EXPECT_EQ(j["vocab_type"], "BPE");
  EXPECT_GE(j["bundles"].get<int>(), 100);
  EXPECT_GT(j["signals"].get<int>(), j["bundles"].get<int>());
  EXPECT_GT(j["tokens"].get<int>(), 0);
  EXPECT_GT(j["hangul_share"].get<double>(), 0.5);  // the texts are Korean
  // A Hangul syllable is 3 UTF-8 bytes: a byte-level BPE needs between a
  // fraction of a token (common words) and 3 tokens (byte fallback) for one.
  const double per_char = j["tokens_per_char"]["mean"];
  EXPECT_GT(per_char, 0.2) << j;
  EXPECT_LT(per_char, 3.0) << j;
  EXPECT_LE(j["tokens_per_char"]["p50"].get<double>(), j["tokens_per_char"]["p95"].get<double>());
  EXPECT_GE(j["tokens_per_signal"]["p50"].get<double>(), 1);
  // The judge prompt: a system prefix shared by every bundle, then more.
  const int system = j["system_prompt_tokens"];
  EXPECT_GT(system, 50);
  EXPECT_GT(j["prompt_tokens"]["p50"].get<double>(), system);
  EXPECT_GE(j["prompt_tokens"]["p95"].get<double>(), j["prompt_tokens"]["p50"].get<double>());
  EXPECT_NEAR(j["uncached_prompt_tokens"]["p50"].get<double>(),
              j["prompt_tokens"]["p50"].get<double>() - system, 1.0);
}

TEST(TokensCommand, VocabOnlyFileGivesCountsAndNoPrefillWithoutARate) {
  ASSERT_TRUE(fs::exists(NUNCHI_QWEN2_VOCAB)) << NUNCHI_QWEN2_VOCAB;
  const std::string out =
      CommandOutput(Tokens(std::string("--model '") + NUNCHI_QWEN2_VOCAB + "'"));
  const json j = json::parse(out);
  ExpectPlausible(j);
  EXPECT_FALSE(j["weights"].get<bool>());
  EXPECT_TRUE(j["prefill_tok_s"].is_null());
  EXPECT_EQ(j["prefill_rate_source"], "n/a: vocab only");

  // With a rate, the estimate is tokens / rate.
  const json given = json::parse(CommandOutput(
      Tokens(std::string("--model '") + NUNCHI_QWEN2_VOCAB + "' --prefill-rate 100")));
  EXPECT_EQ(given["prefill_rate_source"], "given");
  EXPECT_NEAR(given["prefill_ms"]["p50"].get<double>(),
              1000 * given["prompt_tokens"]["p50"].get<double>() / 100, 1e-6);

  // The Markdown table of docs/benchmarks.md: one row per model.
  const std::string md =
      CommandOutput(std::string(NUNCHI_BINARY) + " tokens --data '" + kData +
                    "' --format markdown --prefill-rate 100 --model '" + NUNCHI_QWEN2_VOCAB + "'");
  EXPECT_EQ(md.rfind("| vocabulary | type |", 0), 0u) << md;
  EXPECT_NE(md.find("\n| ggml-vocab-qwen2.gguf | BPE qwen2 | 151936 | own | "), std::string::npos)
      << md;
}

TEST(TokensCommand, ModelWithWeightsMeasuresThePrefillRate) {
  const fs::path dir = fs::temp_directory_path() / ("nunchi-tokens-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string model = testing::MakeTinyModel(dir);
  ASSERT_FALSE(model.empty());
  const std::string out = CommandOutput(Tokens("--model '" + model + "' -t 1"));
  const std::string vocab_out =
      CommandOutput(Tokens(std::string("--model '") + NUNCHI_QWEN2_VOCAB + "'"));
  fs::remove_all(dir);
  const json j = json::parse(out);
  ExpectPlausible(j);
  EXPECT_TRUE(j["weights"].get<bool>());
  EXPECT_GT(j["prefill_tok_s"].get<double>(), 0) << j;
  EXPECT_GT(j["prefill_ms"]["p95"].get<double>(), 0);
  // The tiny model carries the Qwen2 tokenizer: the same counts as the vocab file.
  const json v = json::parse(vocab_out);
  EXPECT_EQ(j["tokens"], v["tokens"]);
  EXPECT_EQ(j["prompt_tokens"], v["prompt_tokens"]);
}

TEST(TokensCommand, BadModelPathIsAUsageErrorNamingTheFile) {
  std::string err;
  EXPECT_EQ(ExitOf(Tokens("--model /nonexistent/model.gguf"), &err), 2);
  EXPECT_NE(err.find("/nonexistent/model.gguf"), std::string::npos) << err;
  // A file that is there but is no GGUF.
  EXPECT_EQ(ExitOf(Tokens("--model '" + kData + "'"), &err), 2);
  EXPECT_NE(err.find("not a GGUF file"), std::string::npos) << err;
  // A missing data file is a runtime error, as in eval and train.
  EXPECT_EQ(ExitOf(std::string(NUNCHI_BINARY) + " tokens --model '" + NUNCHI_QWEN2_VOCAB +
                       "' --data /nonexistent/bundles.jsonl",
                   &err),
            1);
  EXPECT_NE(err.find("/nonexistent/bundles.jsonl"), std::string::npos) << err;
}

}  // namespace
}  // namespace nunchi
