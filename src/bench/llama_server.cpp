#include "bench/llama_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>

namespace nunchi::bench {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string Tail(const std::string& path, size_t n = 2000) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  return s.size() > n ? s.substr(s.size() - n) : s;
}

}  // namespace

std::string FindLlamaServer(const std::string& prefer_commit) {
  if (auto p = Env("NUNCHI_LLAMA_SERVER"); !p.empty() && fs::exists(p)) return p;
  if (auto d = Env("NUNCHI_LLAMA_DIR"); !d.empty() && fs::exists(d + "/bin/llama-server"))
    return d + "/bin/llama-server";
  std::string cache = Env("NUNCHI_CACHE");
  if (cache.empty() && !Env("HOME").empty()) cache = Env("HOME") + "/.cache/nunchi";
  // Rank: the preferred commit first, then completed installs, then the newest.
  std::string best;
  std::tuple<bool, bool, fs::file_time_type> best_rank{};
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cache, ec)) {
    const std::string name = entry.path().filename().string();
    const fs::path bin = entry.path() / "bin" / "llama-server";
    if (name.rfind("llama-", 0) != 0 || !fs::exists(bin, ec)) continue;
    const fs::path stamp = entry.path() / ".nunchi-complete";
    std::tuple<bool, bool, fs::file_time_type> rank{
        !prefer_commit.empty() && name.rfind("llama-" + prefer_commit, 0) == 0,
        fs::exists(stamp, ec),
        fs::exists(stamp, ec) ? fs::last_write_time(stamp, ec) : fs::file_time_type{}};
    if (best.empty() || rank > best_rank) best = bin.string(), best_rank = rank;
  }
  return best;
}

std::string CommandOutput(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + ShellQuote(a);
  FILE* p = popen((cmd + " 2>&1 </dev/null").c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0 && out.size() < (64u << 10);)
    out.append(buf, n);
  pclose(p);
  return out;
}

std::string LlamaServerVersion(const std::string& bin) {
  const std::string out = CommandOutput({bin, "--version"});
  std::smatch v, c;
  if (!std::regex_search(out, v, std::regex(R"(version:\s*(\S+))"))) return "";
  std::string s = "llama-server " + v[1].str();
  if (std::regex_search(out, c, std::regex(R"(commit ([0-9a-f]{6,}))")) ||
      std::regex_search(out, c, std::regex(R"(\(([0-9a-f]{7,})\))")))
    s += ", llama.cpp " + c[1].str();
  return s;
}

int FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

ManagedLlamaServer::ManagedLlamaServer(std::string bin, std::vector<std::string> args,
                                       std::string log_path)
    : bin_(std::move(bin)), log_path_(std::move(log_path)), args_(std::move(args)) {}

ManagedLlamaServer::~ManagedLlamaServer() { Stop(); }

bool ManagedLlamaServer::Start(double timeout_s, std::string* error) {
  Stop();
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long>(timeout_s * 1000));
  // A port taken between FreeLoopbackPort() and the bind makes it exit: try again.
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = FreeLoopbackPort();
    std::vector<std::string> argv_s = {bin_, "--host", "127.0.0.1", "--port",
                                       std::to_string(port_)};
    argv_s.insert(argv_s.end(), args_.begin(), args_.end());
    command_.clear();
    for (const auto& a : argv_s) command_ += (command_.empty() ? "" : " ") + a;
    if (!child_.Spawn(argv_s, {log_path_}, error)) return false;
    httplib::Client c("127.0.0.1", port_);
    c.set_connection_timeout(1, 0);
    c.set_read_timeout(5, 0);
    bool exited = false;
    int code = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (auto r = c.Get("/health"); r && r->status == 200) {
        auto j = nlohmann::json::parse(r->body, nullptr, false);
        if (j.is_object() && j.value("status", "") == "ok") return true;
      }
      if (child_.Exited(&code)) {
        exited = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!exited) {
      Stop();
      *error = "llama-server not ready within " + std::to_string(static_cast<int>(timeout_s)) +
               " s: " + Tail(log_path_);
      return false;
    }
    *error =
        "llama-server exited at start (status " + std::to_string(code) + "): " + Tail(log_path_);
    if (Tail(log_path_).find("bind") == std::string::npos) return false;
  }
  return false;
}

void ManagedLlamaServer::Stop() { child_.Stop(std::chrono::seconds(10)); }

}  // namespace nunchi::bench
