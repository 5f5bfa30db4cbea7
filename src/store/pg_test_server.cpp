// PgTestServer: see pg_test_server.h.
#include "store/pg_test_server.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "ops/child_process.h"

namespace nunchi {
namespace {

namespace fs = std::filesystem;

constexpr int kPort = 5432;  // names the socket file only; no TCP listener
constexpr const char* kRole = "nunchi";

// The newest /usr/lib/postgresql/<major>/bin holding initdb, or
// $NUNCHI_PG_BINDIR.
std::string FindBindir() {
  if (const char* env = std::getenv("NUNCHI_PG_BINDIR"); env && *env) return env;
  std::string best;
  int best_major = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    int major = std::atoi(e.path().filename().c_str());
    if (major > best_major && fs::exists(e.path() / "bin" / "initdb")) {
      best_major = major;
      best = (e.path() / "bin").string();
    }
  }
  return best;
}

std::string Tail(const std::string& path, size_t n = 1500) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return s.size() > n ? s.substr(s.size() - n) : s;
}

}  // namespace

bool PgTestServer::MustFailWithoutServer() {
  const char* ci = std::getenv("CI");
  return ci && std::string(ci) == "true";
}

bool PgTestServer::RunTool(const std::string& tool, const std::vector<std::string>& args,
                           std::string* why) {
  std::vector<std::string> argv;
  if (!run_as_.empty()) {
    std::string runuser = fs::exists("/usr/sbin/runuser") ? "/usr/sbin/runuser" : "/sbin/runuser";
    argv = {runuser, "-u", run_as_, "--"};
  }
  argv.push_back(bindir_ + "/" + tool);
  argv.insert(argv.end(), args.begin(), args.end());
  std::string log = dir_ + "/" + tool + ".out";
  ChildProcess child;
  if (!child.Spawn(argv, SpawnOptions(log), why)) return false;
  int code = -1;
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!child.Exited(&code)) {
    if (std::chrono::steady_clock::now() > give_up) {
      child.Kill();
      *why = tool + " did not finish in 120 s: " + Tail(log);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (code != 0) {
    *why = tool + " exited " + std::to_string(code) + ": " + Tail(log);
    return false;
  }
  return true;
}

bool PgTestServer::Start(std::string* why) {
  bindir_ = FindBindir();
  if (bindir_.empty()) {
    *why =
        "no PostgreSQL server found (/usr/lib/postgresql/*/bin/initdb): install Debian's "
        "`postgresql` package (scripts/setup-deps.sh does)";
    return false;
  }
  char tmpl[] = "/tmp/nunchi-pg-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    *why = "mkdtemp failed";
    return false;
  }
  dir_ = tmpl;
  if (::geteuid() == 0) {
    const passwd* pw = ::getpwnam("postgres");
    if (!pw) {
      *why = "running as root and there is no `postgres` user to run the server as";
      return false;
    }
    run_as_ = "postgres";
    if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
      *why = "cannot chown " + dir_ + " to postgres";
      return false;
    }
  }
  std::string data = dir_ + "/data";
  if (!RunTool("initdb",
               {"-D", data, "-A", "trust", "-U", kRole, "-E", "UTF8", "--locale=C", "--no-sync"},
               why))
    return false;
  return StartServer(why);
}

bool PgTestServer::StartServer(std::string* why) {
  std::string data = dir_ + "/data";
  // Sockets only, in our own directory; fsync stays on (the default), so a
  // commit the store acknowledges is on disk as in production.
  std::string opts = "-k " + dir_ + " -p " + std::to_string(kPort) + " -c listen_addresses=''";
  if (!RunTool("pg_ctl",
               {"-D", data, "-l", dir_ + "/server.log", "-w", "-t", "60", "-o", opts, "start"},
               why)) {
    *why += "\nserver log: " + Tail(dir_ + "/server.log");
    return false;
  }
  running_ = true;
  return true;
}

bool PgTestServer::CreateDatabase(const std::string& name, std::string* why) {
  // createdb is a client: it connects over the socket as the test role.
  std::vector<std::string> argv = {bindir_ + "/createdb", "-h", dir_,  "-p",
                                   std::to_string(kPort), "-U", kRole, name};
  ChildProcess child;
  std::string log = dir_ + "/createdb-" + name + ".out";
  if (!child.Spawn(argv, SpawnOptions(log), why)) return false;
  int code = -1;
  while (!child.Exited(&code)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (code != 0) {
    *why = "createdb " + name + " exited " + std::to_string(code) + ": " + Tail(log);
    return false;
  }
  return true;
}

std::optional<std::string> PgTestServer::Query(const std::string& db, const std::string& sql,
                                               std::string* why) {
  static int n = 0;
  std::vector<std::string> argv = {bindir_ + "/psql",
                                   "-X",
                                   "-q",
                                   "-t",
                                   "-A",
                                   "-v",
                                   "ON_ERROR_STOP=1",
                                   "-h",
                                   dir_,
                                   "-p",
                                   std::to_string(kPort),
                                   "-U",
                                   kRole,
                                   "-d",
                                   db,
                                   "-c",
                                   sql};
  std::string log = dir_ + "/psql-" + std::to_string(++n) + ".out";
  ChildProcess child;
  if (!child.Spawn(argv, SpawnOptions(log), why)) return std::nullopt;
  int code = -1;
  while (!child.Exited(&code)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::string out = Tail(log, 1 << 20);
  if (code != 0) {
    *why = "psql exited " + std::to_string(code) + ": " + out;
    return std::nullopt;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string PgTestServer::Url(const std::string& name) const {
  return "postgresql://" + std::string(kRole) + "@/" + name + "?host=" + dir_ +
         "&port=" + std::to_string(kPort);
}

bool PgTestServer::CrashAndRestart(std::string* why) {
  if (!running_) {
    *why = "not running";
    return false;
  }
  running_ = false;
  if (!RunTool("pg_ctl", {"-D", dir_ + "/data", "-m", "immediate", "-w", "stop"}, why))
    return false;
  return StartServer(why);
}

void PgTestServer::Stop() {
  if (running_) {
    std::string why;
    RunTool("pg_ctl", {"-D", dir_ + "/data", "-m", "immediate", "-w", "stop"}, &why);
    running_ = false;
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }
}

}  // namespace nunchi
