// ChildProcess: one child process that nunchi starts (the bench's `nunchi
// serve` and llama-server, the tests' servers): spawn with output to files,
// poll for exit, stop it (SIGTERM, then SIGKILL after a grace period) and
// reap it. StopChildrenOnSignal() makes an interrupted parent (Ctrl-C,
// SIGTERM, SIGHUP) pass SIGTERM to every child still running before it dies,
// so no server is left behind holding a model in memory.
//
// Thread-safety: one ChildProcess is used by one thread at a time; the
// registry of live children that the signal handler reads is lock-free.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace nunchi {

struct SpawnOptions {
  SpawnOptions(std::string out = "/dev/null", std::string err = "")
      : stdout_path(std::move(out)), stderr_path(std::move(err)) {}
  std::string stdout_path;  // truncated and written
  std::string stderr_path;  // "": the same file as stdout
  bool stdin_null = true;   // stdin from /dev/null
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess() { Stop(); }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts argv[0] (a path) with argv. False, with *error, when it cannot.
  bool Spawn(const std::vector<std::string>& argv, const SpawnOptions& options, std::string* error);
  // True (and reaped) when it has exited; *exit_code is the exit status, or
  // 128 + the signal that ended it.
  bool Exited(int* exit_code = nullptr);
  // SIGTERM, then SIGKILL when it is still running after `grace`; reaps it.
  // Returns its exit code as Exited() does, or -1 when none was running.
  int Stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  // SIGKILL now, and reap.
  void Kill();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

 private:
  void Reaped();

  pid_t pid_ = -1;
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP that send SIGTERM to every
// running ChildProcess of this process and then end it by the same signal.
// Idempotent.
void StopChildrenOnSignal();

}  // namespace nunchi
