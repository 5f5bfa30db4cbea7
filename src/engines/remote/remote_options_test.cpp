#include "engines/remote/remote_options.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace nunchi::remote {
namespace {

TEST(RemoteOptionsTest, BackendKinds) {
  EXPECT_EQ(ParseBackendKind("openai"), BackendKind::kOpenAi);
  EXPECT_EQ(ParseBackendKind("vllm"), BackendKind::kVllm);
  EXPECT_EQ(ParseBackendKind("llama-server"), BackendKind::kLlamaServer);
  EXPECT_FALSE(ParseBackendKind("tgi").has_value());
  for (auto k : {BackendKind::kOpenAi, BackendKind::kVllm, BackendKind::kLlamaServer}) {
    EXPECT_EQ(ParseBackendKind(ToString(k)), k);
  }
}

TEST(RemoteOptionsTest, ApiKeyFromEnvThenFile) {
  RemoteOptions o;
  auto none = LoadApiKey(o);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  o.api_key_env = "NUNCHI_TEST_REMOTE_KEY";
  ::setenv("NUNCHI_TEST_REMOTE_KEY", " sk-env \n", 1);
  EXPECT_EQ(LoadApiKey(o)->value(), "sk-env");
  ::unsetenv("NUNCHI_TEST_REMOTE_KEY");
  auto missing = LoadApiKey(o);
  EXPECT_EQ(missing.status().code(), ErrorCode::kInvalidArgument);

  auto path = std::filesystem::temp_directory_path() / "nunchi_remote_key_test.txt";
  std::ofstream(path) << "sk-file\nignored\n";
  o.api_key_file = path.string();
  EXPECT_EQ(LoadApiKey(o)->value(), "sk-file");  // env unset: the file answers
  std::filesystem::remove(path);
  auto gone = LoadApiKey(o);
  EXPECT_EQ(gone.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(gone.status().message().find("sk-"), std::string::npos);
}

}  // namespace
}  // namespace nunchi::remote
