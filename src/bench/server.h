// ManagedServer: a `nunchi serve` child process the benchmark starts on a
// free loopback port with its own empty data directory, restarts (for cold
// loads: a fresh directory, so an empty store) and stops. Its stderr goes to
// a log file in the output directory.
//
// Thread-safety: none; the cycle runner owns it.
#pragma once

#include <string>
#include <vector>

#include "ops/child_process.h"

namespace nunchi::bench {

class ManagedServer {
 public:
  // `binary`: the nunchi executable; `args`: extra `serve` arguments;
  // `work_dir`: where data directories and logs go.
  ManagedServer(std::string binary, std::vector<std::string> args, std::string work_dir);
  ~ManagedServer();
  ManagedServer(const ManagedServer&) = delete;
  ManagedServer& operator=(const ManagedServer&) = delete;

  // Starts with a fresh data directory and waits for /livez. False and
  // *error on failure.
  bool Start(std::string* error);
  void Stop();  // SIGTERM, then SIGKILL after 10 s; removes the data directory
  void Kill9();  // SIGKILL at once (a crash); the data directory stays until Start or Stop
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& banner() const { return banner_; }  // the "listening on" line

 private:
  std::string binary_, work_dir_, data_dir_;
  std::vector<std::string> args_;
  ChildProcess child_;
  int port_ = 0;
  int starts_ = 0;
  std::string banner_;
};

// Splits a command line on spaces, keeping "quoted parts" together.
std::vector<std::string> SplitArgs(const std::string& line);

}  // namespace nunchi::bench
