#include "app/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>

namespace nunchi {
namespace {

struct Parsed {
  std::string host = "default";
  int port = 1;
  bool texts = false;
};

Parsed Parse(std::vector<std::string> argv_in) {
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string config;
  app.add_option("--config", config);
  Parsed p;
  CLI::App* serve = app.add_subcommand("serve");
  serve->add_option("--host", p.host);
  serve->add_option("--port", p.port);
  serve->add_flag("--log-texts", p.texts);
  serve->add_option("--config", config);
  argv_in.insert(argv_in.begin(), "nunchi");
  std::vector<char*> argv;
  for (auto& a : argv_in) argv.push_back(a.data());
  std::vector<std::string> args;
  std::string error;
  EXPECT_TRUE(LayerArguments(app, static_cast<int>(argv.size()), argv.data(), &args, &error))
      << error;
  std::reverse(args.begin(), args.end());
  app.parse(args);
  return p;
}

TEST(Config, PrecedenceIsCommandLineThenEnvironmentThenFileThenDefault) {
  const std::string path = ::testing::TempDir() + "/nunchi-config-test.toml";
  {
    std::ofstream f(path);
    f << "host = \"from-file\"\nport = 7000\n[serve]\nlog_texts = true\n";
  }
  unsetenv("NUNCHI_HOST");
  unsetenv("NUNCHI_PORT");
  Parsed p = Parse({"serve"});
  EXPECT_EQ(p.host, "default");
  p = Parse({"serve", "--config", path});
  EXPECT_EQ(p.host, "from-file");
  EXPECT_EQ(p.port, 7000);
  EXPECT_TRUE(p.texts);
  setenv("NUNCHI_PORT", "7100", 1);
  p = Parse({"serve", "--config", path});
  EXPECT_EQ(p.port, 7100);
  EXPECT_EQ(p.host, "from-file");
  p = Parse({"serve", "--config", path, "--port", "7200"});
  EXPECT_EQ(p.port, 7200);
  unsetenv("NUNCHI_PORT");
}

TEST(Config, EnvNames) {
  EXPECT_EQ(EnvName("data-dir"), "NUNCHI_DATA_DIR");
  EXPECT_EQ(EnvName("port"), "NUNCHI_PORT");
}

TEST(Config, BadFileIsAnError) {
  const std::string path = ::testing::TempDir() + "/nunchi-bad.toml";
  {
    std::ofstream f(path);
    f << "host = = \"x\"\n";
  }
  CLI::App app;
  app.add_subcommand("serve");
  std::string a0 = "nunchi", a1 = "serve", a2 = "--config";
  std::string a3 = path;
  char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data()};
  std::vector<std::string> args;
  std::string error;
  EXPECT_FALSE(LayerArguments(app, 4, argv, &args, &error));
  EXPECT_NE(error.find("nunchi-bad.toml"), std::string::npos);
}

// One app with two subcommands, layered and parsed like main.cpp does.
struct Outcome {
  bool layered = false;
  std::string error;        // from LayerArguments
  std::string parse_error;  // from CLI11, through DescribeParseError
  int port = 8080;
  int deadline_ms = 45000;
  size_t max_body = 100;
  int seed = 0;
};

Outcome LayerAndParse(std::vector<std::string> argv_in) {
  CLI::App app;
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string config, key_env;
  app.add_option("--config", config);
  Outcome r;
  CLI::App* serve = app.add_subcommand("serve");
  serve->add_option("--port", r.port);
  serve->add_option("--deadline-ms", r.deadline_ms);
  serve->add_option("--max-body-bytes", r.max_body);
  serve->add_option("--config", config);
  CLI::App* judge = app.add_subcommand("judge");
  judge->add_option("--seed", r.seed);
  judge->add_option("--api-key-env", key_env);
  CheckNumericRanges(app);
  argv_in.insert(argv_in.begin(), "nunchi");
  std::vector<char*> argv;
  for (auto& a : argv_in) argv.push_back(a.data());
  std::vector<std::string> args;
  std::map<std::string, std::string> sources;
  r.layered =
      LayerArguments(app, static_cast<int>(argv.size()), argv.data(), &args, &r.error, &sources);
  if (!r.layered) return r;
  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    r.parse_error = DescribeParseError(e, sources);
  }
  return r;
}

std::string WriteToml(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Config, UnknownKeysInTheFileAreErrorsThatNameThem) {
  std::string path = WriteToml("unknown-keys.toml",
                               "prot = 1\nseed = 3\n[serve]\nport = 9000\n"
                               "deadline = 5\n[servr]\nport = 1\n");
  Outcome r = LayerAndParse({"serve", "--config", path});
  EXPECT_FALSE(r.layered);
  EXPECT_NE(r.error.find("prot"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("[serve] deadline"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("[servr]"), std::string::npos) << r.error;
  // A top-level key of another subcommand (seed is judge's) is not unknown.
  EXPECT_EQ(r.error.find("seed"), std::string::npos) << r.error;

  path = WriteToml("known-keys.toml", "seed = 3\n[serve]\nport = 9000\ndeadline_ms = 5\n");
  r = LayerAndParse({"serve", "--config", path});
  EXPECT_TRUE(r.layered) << r.error;
  EXPECT_EQ(r.port, 9000);
  EXPECT_EQ(r.deadline_ms, 5);
}

TEST(Config, UnknownNunchiVariablesAreErrorsThatNameThem) {
  setenv("NUNCHI_PROT", "1", 1);
  Outcome r = LayerAndParse({"serve"});
  unsetenv("NUNCHI_PROT");
  EXPECT_FALSE(r.layered);
  EXPECT_NE(r.error.find("NUNCHI_PROT"), std::string::npos) << r.error;

  // Twins of any subcommand's options, documented names, and names a value
  // points at are fine.
  setenv("NUNCHI_SEED", "4", 1);
  setenv("NUNCHI_CONFIG_UNUSED_BY_TEST", "x", 1);
  r = LayerAndParse({"serve"});
  EXPECT_FALSE(r.layered);  // NUNCHI_CONFIG_UNUSED_BY_TEST is no option
  unsetenv("NUNCHI_CONFIG_UNUSED_BY_TEST");
  setenv("NUNCHI_API_KEY", "k", 1);
  setenv("NUNCHI_SERVER_A_KEY", "k", 1);
  r = LayerAndParse({"judge", "--api-key-env", "NUNCHI_SERVER_A_KEY"});
  EXPECT_TRUE(r.layered) << r.error;
  EXPECT_EQ(r.seed, 4);
  unsetenv("NUNCHI_SEED");
  unsetenv("NUNCHI_API_KEY");
  unsetenv("NUNCHI_SERVER_A_KEY");
}

TEST(Config, NumericRangesAndTheSourceOfABadValue) {
  EXPECT_NE(LayerAndParse({"serve", "--port", "99999"}).parse_error.find("--port"),
            std::string::npos);
  EXPECT_NE(LayerAndParse({"serve", "--deadline-ms", "-5"}).parse_error, "");
  EXPECT_NE(LayerAndParse({"serve", "--deadline-ms", "0"}).parse_error, "");
  EXPECT_NE(LayerAndParse({"serve", "--max-body-bytes", "-1"}).parse_error, "");
  Outcome ok =
      LayerAndParse({"serve", "--port", "0", "--deadline-ms", "1", "--max-body-bytes", "0"});
  EXPECT_EQ(ok.parse_error, "");
  EXPECT_EQ(ok.port, 0);

  setenv("NUNCHI_PORT", "abc", 1);
  Outcome env = LayerAndParse({"serve"});
  unsetenv("NUNCHI_PORT");
  EXPECT_NE(env.parse_error.find("NUNCHI_PORT"), std::string::npos) << env.parse_error;

  std::string path = WriteToml("bad-value.toml", "[serve]\ndeadline_ms = -3\n");
  Outcome file = LayerAndParse({"serve", "--config", path});
  EXPECT_NE(file.parse_error.find("deadline_ms"), std::string::npos) << file.parse_error;
  EXPECT_NE(file.parse_error.find("bad-value.toml"), std::string::npos) << file.parse_error;
}

}  // namespace
}  // namespace nunchi
