#include "ops/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace nunchi {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string TempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("nunchi-child-" + std::to_string(getpid()) + "-" + name))
      .string();
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Gone, or a zombie nobody has reaped yet.
bool Dead(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  std::string stat = ReadAll("/proc/" + std::to_string(pid) + "/stat");
  const size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

bool DiesWithin(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (Dead(pid)) return true;
    std::this_thread::sleep_for(10ms);
  }
  return Dead(pid);
}

TEST(ChildProcessTest, WritesOutputToFilesAndReportsTheExitCode) {
  const std::string out = TempPath("out"), err = TempPath("err");
  ChildProcess p;
  std::string error;
  ASSERT_TRUE(
      p.Spawn({"/bin/sh", "-c", "echo to-out; echo to-err >&2; exit 3"}, {out, err}, &error))
      << error;
  int code = -1;
  for (int i = 0; i < 500 && !p.Exited(&code); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(p.running());
  EXPECT_EQ(code, 3);
  EXPECT_EQ(ReadAll(out), "to-out\n");
  EXPECT_EQ(ReadAll(err), "to-err\n");
  fs::remove(out);
  fs::remove(err);
}

TEST(ChildProcessTest, AMissingProgramIsAClearError) {
  ChildProcess p;
  std::string error;
  EXPECT_FALSE(p.Spawn({"/nonexistent/nunchi-no-such-binary"}, {}, &error));
  EXPECT_NE(error.find("/nonexistent/nunchi-no-such-binary"), std::string::npos) << error;
  EXPECT_FALSE(p.running());
}

TEST(ChildProcessTest, StopTerminatesAndKillsWhatIgnoresTerm) {
  ChildProcess polite, stubborn;
  std::string error;
  ASSERT_TRUE(polite.Spawn({"/bin/sleep", "30"}, {}, &error)) << error;
  ASSERT_TRUE(
      stubborn.Spawn({"/bin/sh", "-c", "trap '' TERM; while :; do sleep 0.05; done"}, {}, &error))
      << error;
  std::this_thread::sleep_for(100ms);  // let the shell set its trap
  const pid_t a = polite.pid(), b = stubborn.pid();
  EXPECT_EQ(polite.Stop(5s), 128 + SIGTERM);
  EXPECT_EQ(stubborn.Stop(200ms), 128 + SIGKILL);
  EXPECT_TRUE(Dead(a));
  EXPECT_TRUE(Dead(b));
  EXPECT_FALSE(polite.running());
  EXPECT_EQ(polite.Stop(), -1);  // nothing left to stop
}

// A parent killed by SIGTERM takes its children with it.
TEST(ChildProcessTest, AnInterruptedParentStopsItsChildren) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    close(fds[0]);
    StopChildrenOnSignal();
    static ChildProcess child;  // never destroyed: only the handler may stop it
    std::string error;
    if (!child.Spawn({"/bin/sleep", "60"}, {}, &error)) _exit(2);
    const pid_t pid = child.pid();
    if (write(fds[1], &pid, sizeof pid) != sizeof pid) _exit(3);
    for (;;) pause();
  }
  close(fds[1]);
  pid_t child = 0;
  ASSERT_EQ(read(fds[0], &child, sizeof child), static_cast<ssize_t>(sizeof child));
  close(fds[0]);
  ASSERT_GT(child, 0);
  EXPECT_FALSE(Dead(child));
  kill(parent, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(parent, &status, 0), parent);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_TRUE(DiesWithin(child, 5s)) << "the child outlived its interrupted parent";
  kill(child, SIGKILL);  // in case it did not
}

}  // namespace
}  // namespace nunchi
