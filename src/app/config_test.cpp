#include "app/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

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

}  // namespace
}  // namespace nunchi
