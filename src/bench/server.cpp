#include "bench/server.h"

#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace nunchi::bench {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

std::vector<std::string> SplitArgs(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (char ch : line) {
    if (ch == '"') {
      quoted = !quoted;
      any = true;
    } else if (ch == ' ' && !quoted) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += ch;
      any = true;
    }
  }
  if (any) out.push_back(cur);
  return out;
}

ManagedServer::ManagedServer(std::string binary, std::vector<std::string> args,
                             std::string work_dir)
    : binary_(std::move(binary)), work_dir_(std::move(work_dir)), args_(std::move(args)) {}

ManagedServer::~ManagedServer() { Stop(); }

bool ManagedServer::Start(std::string* error) {
  Stop();
  ++starts_;
  const std::string data = work_dir_ + "/server-data-" + std::to_string(starts_);
  data_dir_ = data;
  std::filesystem::remove_all(data);
  std::filesystem::create_directories(data);
  const std::string log = work_dir_ + "/server-" + std::to_string(starts_) + ".log";
  std::vector<std::string> argv = {binary_, "serve", "--port", "0", "--data-dir", data};
  argv.insert(argv.end(), args_.begin(), args_.end());
  if (!child_.Spawn(argv, {"/dev/null", log}, error)) return false;
  const std::regex re("listening on http://[^:]+:([0-9]+)[^\n\"]*");  // ends at the JSON quote
  port_ = 0;
  // Loading a model can take minutes.
  for (int i = 0; i < 30000 && port_ == 0; ++i) {
    std::string text = ReadFile(log);
    std::smatch m;
    if (std::regex_search(text, m, re)) {
      port_ = std::stoi(m[1]);
      banner_ = m[0];
      break;
    }
    if (child_.Exited()) {
      *error = "nunchi serve exited at start: " + text;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (port_ == 0) {
    *error = "nunchi serve did not start: " + ReadFile(log);
    Stop();
    return false;
  }
  httplib::Client c("127.0.0.1", port_);
  c.set_connection_timeout(2, 0);
  for (int i = 0; i < 500; ++i) {
    if (auto r = c.Get("/livez"); r && r->status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  *error = "nunchi serve never answered /livez";
  return false;
}

void ManagedServer::Stop() {
  child_.Stop(std::chrono::seconds(10));
  // The store of a stopped server is never used again: only its log stays.
  if (!data_dir_.empty()) std::filesystem::remove_all(data_dir_);
  data_dir_.clear();
}

void ManagedServer::Kill9() { child_.Kill(); }

}  // namespace nunchi::bench
