// ServerProcess: runs the real `nunchi serve` binary for black-box tests on a
// free loopback port with its own data directory, and kills or stops it.
// Also builds contract requests. Test-thread use only.
#pragma once

#include <httplib.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ops/child_process.h"

namespace nunchi::testing {

class ServerProcess {
 public:
  // Starts `nunchi serve --port 0 --data-dir DIR extra...` and waits until /livez answers.
  explicit ServerProcess(std::string data_dir, std::vector<std::string> extra = {});
  ~ServerProcess();
  void Kill9();  // SIGKILL, no cleanup
  int Stop();    // SIGTERM and wait (SIGKILL after 120 s); returns the exit status
  bool alive() const { return child_.running(); }
  int port() const { return port_; }
  int pid() const { return child_.pid(); }
  // A line of /proc/PID/status in KiB ("VmRSS", "VmHWM"); -1 when unreadable.
  long StatusKiB(const std::string& field) const;
  httplib::Client Client() const;
  std::string log() const;  // what the server wrote to stderr
  const std::string& data_dir() const { return data_dir_; }

 private:
  std::string data_dir_;
  std::string log_path_;
  ChildProcess child_;
  int port_ = 0;
};

// When set, every ServerProcess adds StoreArgs(data_dir) to its command line:
// the contract tests on PostgreSQL give each data dir a database of its own
// (`--store URL`), so a new data dir is still a new store with a new epoch.
extern std::function<std::vector<std::string>(const std::string& data_dir)> StoreArgs;

// A fresh empty directory under the temp dir.
// A TCP port on 127.0.0.1 that was free a moment ago (0 when none was found).
int FreePort();

std::string TempDir(const std::string& tag);

// ISO 8601 in +09:00 for a ms timestamp.
std::string Kst(long long ms);

// With BLACKBOX_RECORD=FILE set, appends every exchange of c to FILE (JSON lines).
void RecordResponses(httplib::Client& c);

// POSTs JSON to /v1/congestion-analyses.
httplib::Result PostAnalysis(httplib::Client& c, const nlohmann::json& body);

}  // namespace nunchi::testing
