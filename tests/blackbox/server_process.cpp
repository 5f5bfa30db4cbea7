#include "blackbox/server_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "blackbox/cycle.h"  // Metric

namespace nunchi::testing {

std::function<std::vector<std::string>(const std::string&)> StoreArgs;

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

std::string TempDir(const std::string& tag) {
  static int n = 0;
  auto dir = std::filesystem::temp_directory_path() /
             ("nunchi-bb-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string Kst(long long ms) {
  time_t secs = static_cast<time_t>(ms / 1000) + 9 * 3600;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[80];
  std::snprintf(out, sizeof out, "%s.%03d+09:00", buf, static_cast<int>(ms % 1000));
  return out;
}

ServerProcess::ServerProcess(std::string data_dir, std::vector<std::string> extra)
    : data_dir_(std::move(data_dir)) {
  log_path_ = data_dir_ + "/server.log";
  std::vector<std::string> args = {NUNCHI_BINARY, "serve", "--port", "0", "--data-dir", data_dir_};
  args.insert(args.end(), extra.begin(), extra.end());
  if (StoreArgs) {
    std::vector<std::string> store = StoreArgs(data_dir_);
    args.insert(args.end(), store.begin(), store.end());
  }
  std::string error;
  if (!child_.Spawn(args, {"/dev/null", log_path_}, &error))
    throw std::runtime_error("cannot spawn nunchi: " + error);
  const std::regex re("listening on http://[^:]+:([0-9]+)");
  for (int i = 0; i < 600 && port_ == 0; ++i) {
    std::smatch m;
    std::string text = log();
    if (std::regex_search(text, m, re)) port_ = std::stoi(m[1]);
    if (child_.Exited()) throw std::runtime_error("nunchi exited at start: " + text);
    if (port_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (port_ == 0) throw std::runtime_error("nunchi did not start: " + log());
  auto c = Client();
  for (int i = 0; i < 200; ++i) {
    if (auto r = c.Get("/livez"); r && r->status == 200) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("nunchi /livez never answered");
}

ServerProcess::~ServerProcess() { child_.Kill(); }

void ServerProcess::Kill9() { child_.Kill(); }

int ServerProcess::Stop() { return child_.Stop(std::chrono::seconds(120)); }

httplib::Client ServerProcess::Client() const {
  httplib::Client c("127.0.0.1", port_);
  c.set_read_timeout(60, 0);
  c.set_connection_timeout(5, 0);
  RecordResponses(c);
  return c;
}

long ServerProcess::StatusKiB(const std::string& field) const {
  std::ifstream f("/proc/" + std::to_string(child_.pid()) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  return -1;
}

void RecordResponses(httplib::Client& c) {
  // With BLACKBOX_RECORD=FILE every exchange is appended as one JSON line, for
  // tests/openapi/validate_responses.py to check against docs/openapi.yaml.
  const char* path = std::getenv("BLACKBOX_RECORD");
  if (!path || !*path) return;
  c.set_logger(
      [file = std::string(path)](const httplib::Request& req, const httplib::Response& res) {
        static std::mutex mu;
        nlohmann::json headers = nlohmann::json::object();
        for (const auto& [k, v] : res.headers) headers[k] = v;
        nlohmann::json line = {{"method", req.method},
                               {"path", req.path},
                               {"status", res.status},
                               {"headers", headers},
                               {"body", res.body}};
        std::lock_guard lock(mu);
        std::ofstream(file, std::ios::app)
            << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      });
}

std::string ServerProcess::log() const {
  std::ifstream f(log_path_);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

httplib::Result PostAnalysis(httplib::Client& c, const nlohmann::json& body) {
  return c.Post("/v1/congestion-analyses", body.dump(), "application/json");
}

double Metric(httplib::Client& c, const std::string& name, const std::string& labels) {
  auto r = c.Get("/metrics");
  if (!r || r->status != 200) return -1;
  std::istringstream in(r->body);
  std::string line;
  const std::string key = name + labels + " ";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stod(line.substr(key.size()));
  return -1;
}

}  // namespace nunchi::testing
