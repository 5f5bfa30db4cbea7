// Black-box: the binary's command line does not surprise. Out-of-range
// numbers, unknown config keys and unknown NUNCHI_* variables are usage errors
// (exit 2) whose message names the culprit; runtime failures exit 1; --help
// and --version exit 0.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "blackbox/server_process.h"
#include "ops/child_process.h"

namespace nunchi::testing {
namespace {

struct Exit {
  int code = -1;
  std::string output;  // stdout and stderr
};

Exit RunNunchi(const std::vector<std::string>& args) {
  const std::string dir = TempDir("cli");
  const std::string out = dir + "/out.txt";
  std::vector<std::string> argv = {NUNCHI_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  ChildProcess child;
  std::string error;
  EXPECT_TRUE(child.Spawn(argv, {out, ""}, &error)) << error;
  Exit e;
  for (int i = 0; i < 3000 && !child.Exited(&e.code); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (child.running()) e.code = 1000 + child.Stop();  // did not exit by itself
  std::ifstream f(out);
  std::stringstream ss;
  ss << f.rdbuf();
  e.output = ss.str();
  return e;
}

bool Has(const Exit& e, const std::string& s) { return e.output.find(s) != std::string::npos; }

TEST(Cli, OutOfRangeNumbersAreUsageErrorsThatNameTheFlag) {
  const std::string data = TempDir("cli-data");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"serve", "--port", "99999"},
        std::vector<std::string>{"serve", "--port", "-1"},
        std::vector<std::string>{"serve", "--deadline-ms", "-5"},
        std::vector<std::string>{"serve", "--deadline-ms", "0"},
        std::vector<std::string>{"serve", "--max-body-bytes", "-1"},
        std::vector<std::string>{"serve", "--retention-hours", "0"},
        std::vector<std::string>{"serve", "--judge-threads", "0"}}) {
    std::vector<std::string> full = args;
    full.insert(full.end(), {"--data-dir", data});
    Exit e = RunNunchi(full);
    EXPECT_EQ(e.code, 2) << args[1] << " " << args[2] << ": " << e.output;
    EXPECT_TRUE(Has(e, args[1])) << e.output;
    EXPECT_FALSE(Has(e, "listening")) << e.output;
  }
}

TEST(Cli, UnknownConfigKeysAndVariablesAreUsageErrorsThatNameThem) {
  const std::string dir = TempDir("cli-conf");
  const std::string path = dir + "/nunchi.toml";
  std::ofstream(path) << "port = 0\n[serve]\ndeadline = 100\n";
  Exit e = RunNunchi({"serve", "--config", path, "--data-dir", dir});
  EXPECT_EQ(e.code, 2) << e.output;
  EXPECT_TRUE(Has(e, "deadline")) << e.output;

  setenv("NUNCHI_DEADLINE", "100", 1);
  e = RunNunchi({"serve", "--port", "0", "--data-dir", dir});
  unsetenv("NUNCHI_DEADLINE");
  EXPECT_EQ(e.code, 2) << e.output;
  EXPECT_TRUE(Has(e, "NUNCHI_DEADLINE")) << e.output;

  setenv("NUNCHI_PORT", "eighty", 1);
  e = RunNunchi({"serve", "--data-dir", dir});
  unsetenv("NUNCHI_PORT");
  EXPECT_EQ(e.code, 2) << e.output;
  EXPECT_TRUE(Has(e, "NUNCHI_PORT")) << e.output;
}

TEST(Cli, TheExampleConfigHasOnlyKnownKeys) {
  Exit e = RunNunchi({"serve", "--config", NUNCHI_SOURCE_DIR "/nunchi.example.toml", "--port",
                      "99999"});  // stops at the port, after the file's keys were checked
  EXPECT_EQ(e.code, 2) << e.output;
  EXPECT_TRUE(Has(e, "--port")) << e.output;
  EXPECT_FALSE(Has(e, "unknown")) << e.output;
}

TEST(Cli, RuntimeFailureIsOneHelpAndVersionAreZero) {
  Exit e =
      RunNunchi({"serve", "--host", "256.0.0.1", "--port", "1", "--data-dir", TempDir("cli-bind")});
  EXPECT_EQ(e.code, 1) << e.output;
  EXPECT_EQ(RunNunchi({"--version"}).code, 0);
  Exit help = RunNunchi({"serve", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(Has(help, "--deadline-ms")) << help.output;
  Exit top = RunNunchi({"--help"});
  EXPECT_TRUE(Has(top, "Exit codes")) << top.output;
  EXPECT_EQ(RunNunchi({"no-such-command"}).code, 2);
}

// --version (and nunchi_build_info, from the same generated header) names the
// commit the binary was built from, refreshed by every build, not the one
// CMake configured at. Run after a build, as CTest does.
TEST(Cli, VersionNamesTheCommitBuilt) {
  const std::string cmd =
      std::string("git -C '") + NUNCHI_SOURCE_DIR + "' rev-parse --short=12 HEAD 2>/dev/null";
  std::string head;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[64] = {};
    if (fgets(buf, sizeof buf, p)) head = buf;
    pclose(p);
  }
  while (!head.empty() && (head.back() == '\n' || head.back() == '\r')) head.pop_back();
  if (head.size() != 12) GTEST_SKIP() << "not a git checkout: " << NUNCHI_SOURCE_DIR;
  Exit v = RunNunchi({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_TRUE(Has(v, "(commit " + head)) << v.output << " HEAD " << head;
}

}  // namespace
}  // namespace nunchi::testing
