// PgTestServer: a throwaway PostgreSQL for tests. initdb into a fresh
// directory under /tmp, pg_ctl start listening on a Unix socket in that
// directory only (no TCP port, so parallel tests never collide), stopped and
// removed by Stop() or the destructor. As root it runs the server as the
// unprivileged `postgres` user from Debian's postgresql package (initdb
// refuses root), through runuser.
//
// MustFailWithoutServer(): true when CI=true, where a test that needs a
// server fails rather than skips.
//
// Thread-safety: one thread drives one PgTestServer.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nunchi {

class PgTestServer {
 public:
  PgTestServer() = default;
  ~PgTestServer() { Stop(); }
  PgTestServer(const PgTestServer&) = delete;
  PgTestServer& operator=(const PgTestServer&) = delete;

  // Starts the server; false with *why when it cannot (no PostgreSQL
  // installed, no unprivileged user, initdb or pg_ctl failed: the log's tail).
  bool Start(std::string* why);
  // Creates database `name` (owned by the test role); false with *why.
  bool CreateDatabase(const std::string& name, std::string* why);
  // Runs `sql` in database `db` with psql; its unaligned output, or nullopt
  // with *why.
  std::optional<std::string> Query(const std::string& db, const std::string& sql, std::string* why);
  // libpq URL of database `name` on this server.
  std::string Url(const std::string& name) const;
  // Stops the server as a crash would (pg_ctl -m immediate: no checkpoint)
  // and starts it again on the same data; false with *why.
  bool CrashAndRestart(std::string* why);
  void Stop();

  bool running() const { return running_; }
  const std::string& dir() const { return dir_; }

  static bool MustFailWithoutServer();

 private:
  bool StartServer(std::string* why);
  bool RunTool(const std::string& tool, const std::vector<std::string>& args, std::string* why);

  std::string bindir_;
  std::string dir_;
  std::string run_as_;  // "" when not root
  bool running_ = false;
};

}  // namespace nunchi
