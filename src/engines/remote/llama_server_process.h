// Test-only: runs a real llama-server for tests (the remote-engine tests and
// the black-box ones). FindLlamaServer locates the binary installed by
// scripts/setup-llama.sh ($NUNCHI_LLAMA_SERVER, $NUNCHI_LLAMA_DIR/bin or
// $NUNCHI_CACHE|~/.cache/nunchi/llama-*/bin); TestModel names the GGUF to
// serve ($NUNCHI_TEST_MODEL, or a tiny random-weight one it has generated);
// LlamaServerProcess starts llama-server on a free loopback port (--port 0,
// read back from its log), reads its /slots and /metrics, and stops it with
// SIGTERM or kills it with SIGKILL. Test-thread use only.
#pragma once

#include <httplib.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ops/child_process.h"

namespace nunchi::testing {

inline std::string EnvOr(const char* name, const std::string& fallback = "") {
  const char* v = std::getenv(name);
  return v == nullptr ? fallback : v;
}

// The llama-server binary, or "" when none is installed.
inline std::string FindLlamaServer() {
  namespace fs = std::filesystem;
  if (auto p = EnvOr("NUNCHI_LLAMA_SERVER"); !p.empty() && fs::exists(p)) return p;
  if (auto d = EnvOr("NUNCHI_LLAMA_DIR"); !d.empty() && fs::exists(d + "/bin/llama-server")) {
    return d + "/bin/llama-server";
  }
  std::string cache = EnvOr("NUNCHI_CACHE");
  if (cache.empty() && !EnvOr("HOME").empty()) cache = EnvOr("HOME") + "/.cache/nunchi";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cache, ec)) {
    fs::path bin = entry.path() / "bin" / "llama-server";
    if (entry.path().filename().string().rfind("llama-", 0) == 0 && fs::exists(bin)) {
      return bin.string();
    }
  }
  return "";
}

// The model to serve: $NUNCHI_TEST_MODEL when set (*generated = false), else
// the tiny random-weight model in the temp directory, which make(path) writes
// (atomically) when it is missing (*generated = true). "" when neither works.
inline std::string TestModel(const std::function<bool(const std::string&)>& make, bool* generated) {
  namespace fs = std::filesystem;
  *generated = false;
  if (auto m = EnvOr("NUNCHI_TEST_MODEL"); !m.empty()) return fs::exists(m) ? m : "";
  if (!make) return "";
  std::string path = (fs::temp_directory_path() / "nunchi-remote-test-tiny.gguf").string();
  if (!fs::exists(path) && !make(path)) return "";
  *generated = fs::exists(path);
  return *generated ? path : "";
}

class LlamaServerProcess {
 public:
  // Starts `bin -m model --host 127.0.0.1 --port 0 -c 4096 -np 1 -t 1
  // --metrics --slots extra...`, its output in a log file. One thread: on a
  // small shared machine more threads spin against each other.
  LlamaServerProcess(const std::string& bin, const std::string& model,
                     std::vector<std::string> extra = {}) {
    namespace fs = std::filesystem;
    static int n = 0;
    log_path_ = (fs::temp_directory_path() / ("nunchi-llama-server-" + std::to_string(getpid()) +
                                              "-" + std::to_string(n++) + ".log"))
                    .string();
    std::vector<std::string> args = {bin,      "-m", model, "--host",    "127.0.0.1",
                                     "--port", "0",  "-c",  "4096",      "-np",
                                     "1",      "-t", "1",   "--metrics", "--slots"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::string error;
    child_.Spawn(args, {log_path_}, &error);
  }
  ~LlamaServerProcess() {
    Stop();
    std::error_code ec;
    std::filesystem::remove(log_path_, ec);
  }
  LlamaServerProcess(const LlamaServerProcess&) = delete;
  LlamaServerProcess& operator=(const LlamaServerProcess&) = delete;

  // Waits until the model is loaded and the server listens (it logs
  // "listening on" only then). False when it exited or took too long.
  bool WaitReady(std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    const std::regex re("listening on http://[^:]+:([0-9]+)");
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (child_.running() && std::chrono::steady_clock::now() < until) {
      std::smatch m;
      std::string text = log();
      if (std::regex_search(text, m, re)) {
        port_ = std::stoi(m[1]);
        return true;
      }
      if (child_.Exited()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // SIGKILL now, no cleanup, and reap it.
  void Kill9() { child_.Kill(); }
  // SIGTERM; SIGKILL when it has not exited after 5 s.
  void Stop() { child_.Stop(std::chrono::seconds(5)); }

  bool alive() const { return child_.running(); }
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::string log() const {
    std::ifstream f(log_path_);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  // GET /slots: the slots as a JSON array (null when the server does not answer).
  nlohmann::json Slots() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(5, 0);
    auto r = c.Get("/slots");
    if (!r || r->status != 200) return nullptr;
    return nlohmann::json::parse(r->body, nullptr, false);
  }
  // Whether any slot is_processing; nullopt when /slots does not answer.
  std::optional<bool> AnySlotProcessing() const {
    nlohmann::json slots = Slots();
    if (!slots.is_array()) return std::nullopt;
    for (const auto& s : slots)
      if (s.value("is_processing", false)) return true;
    return false;
  }
  // A value of GET /metrics, e.g. "llamacpp:n_decode_total"; -1 when absent.
  double Metric(const std::string& name) const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(5, 0);
    auto r = c.Get("/metrics");
    if (!r || r->status != 200) return -1;
    std::istringstream in(r->body);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
    return -1;
  }

 private:
  std::string log_path_;
  ChildProcess child_;
  int port_ = 0;
};

}  // namespace nunchi::testing
