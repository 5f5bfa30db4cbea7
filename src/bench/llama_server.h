// llama-server for the comparison arms (b) and (c): finds the binary that
// scripts/setup-llama.sh installed, reads its version, and runs it as a child
// process — on a free loopback port, its output in a log file, ready once
// GET /health says "ok" — until Stop() or destruction (SIGTERM, then SIGKILL).
//
// Thread-safety: none; the comparison driver owns it.
#pragma once

#include <string>
#include <vector>

#include "ops/child_process.h"

namespace nunchi::bench {

// $NUNCHI_LLAMA_SERVER, $NUNCHI_LLAMA_DIR/bin/llama-server, or
// $NUNCHI_CACHE|~/.cache/nunchi/llama-*/bin/llama-server (an install of
// `prefer_commit` first, then the most recently completed one); "" when none.
std::string FindLlamaServer(const std::string& prefer_commit = "");

// "llama-server 0.4.0-dev, llama.cpp 80fb11a" from `bin --version`; "" when it does not say.
std::string LlamaServerVersion(const std::string& bin);

// What a command prints on stdout and stderr (at most 64 KiB; "" when it cannot run).
std::string CommandOutput(const std::vector<std::string>& argv);

// A free TCP port on 127.0.0.1 (0 when none could be bound).
int FreeLoopbackPort();

class ManagedLlamaServer {
 public:
  // `args`: llama-server arguments other than --host and --port.
  ManagedLlamaServer(std::string bin, std::vector<std::string> args, std::string log_path);
  ~ManagedLlamaServer();
  ManagedLlamaServer(const ManagedLlamaServer&) = delete;
  ManagedLlamaServer& operator=(const ManagedLlamaServer&) = delete;

  // Starts it and waits until /health answers {"status":"ok"}. False and
  // *error when it exits or is not ready within `timeout_s`.
  bool Start(double timeout_s, std::string* error);
  void Stop();  // SIGTERM, then SIGKILL after 10 s
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // The full command line it was started with.
  const std::string& command() const { return command_; }

 private:
  std::string bin_, log_path_, command_;
  std::vector<std::string> args_;
  ChildProcess child_;
  int port_ = 0;
};

}  // namespace nunchi::bench
