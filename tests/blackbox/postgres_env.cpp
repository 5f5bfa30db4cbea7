// Runs the contract black-box suites against `nunchi serve --store
// postgres://...`: one throwaway PostgreSQL (PgTestServer) for the process,
// one database per data directory a test uses. Without a server every test
// fails with the reason (a skip from a global environment does not stop
// GoogleTest from running the tests, and they must never quietly run on
// SQLite instead); at the end it checks that the judgments really went to
// PostgreSQL.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "blackbox/server_process.h"
#include "store/pg_test_server.h"

namespace nunchi::testing {
namespace {

class PostgresStoreEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string why;
    if (!pg_.Start(&why)) {
      std::string msg = "PostgreSQL could not be started" +
                        std::string(PgTestServer::MustFailWithoutServer() ? " and CI=true" : "") +
                        ": " + why;
      ADD_FAILURE() << msg;
      StoreArgs = [msg](const std::string&) -> std::vector<std::string> {
        throw std::runtime_error(msg);
      };
      return;
    }
    StoreArgs = [this](const std::string& data_dir) {
      auto it = dbs_.find(data_dir);
      if (it == dbs_.end()) {
        std::string name = "bb" + std::to_string(dbs_.size());
        std::string why;
        if (!pg_.CreateDatabase(name, &why)) throw std::runtime_error(why);
        it = dbs_.emplace(data_dir, name).first;
      }
      return std::vector<std::string>{"--store", pg_.Url(it->second)};
    };
  }
  void TearDown() override {
    StoreArgs = nullptr;
    // Every database a server was started on has the schema, so the server
    // really opened PostgreSQL (not a SQLite file in its data dir).
    for (const auto& [dir, db] : dbs_) {
      std::string why;
      auto v = pg_.Query(db, "SELECT value FROM nunchi_meta WHERE key = 'schema_version'", &why);
      EXPECT_TRUE(v && !v->empty())
          << "database " << db << " for " << dir << " was never opened by nunchi: " << why;
    }
    pg_.Stop();
  }

 private:
  PgTestServer pg_;
  std::map<std::string, std::string> dbs_;  // data dir -> database
};

const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new PostgresStoreEnvironment);

}  // namespace
}  // namespace nunchi::testing
