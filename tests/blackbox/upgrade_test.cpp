// Upgrading and backing up (docs/deploy.md, "Upgrading", "Backups"): the real
// `nunchi serve` is started on a judgments.db that the previous schema wrote
// (tests/blackbox/fixtures/store-schema-v1.sql, PRAGMA user_version 1). The
// migration on start must bring it to the current schema in place, keep its
// epoch (the backend sees no STATE_RESET) and keep serving its judgments
// (not judge those signals again); new judgments land in the migrated table.
// Then an online backup taken with the sqlite3 shell while nunchi serves
// must be a whole store: integrity_check ok, every judgment, and a nunchi
// started on the restored copy answers with the same epoch and judgments.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "blackbox/cycle.h"
#include "blackbox/server_process.h"
#include "ops/child_process.h"
#include "store/judgment_store.h"

namespace nunchi::testing {
namespace {

namespace fs = std::filesystem;

const char* kQuietPost = "지금 완전 한산해요 줄 하나도 없어요";  // op1 in the fixture
const char* kQuietComment = "줄 없어요 바로 들어감";             // oc2
const char* kBusyComment = "사람 너무 많아요 줄이 길어요";       // nc3, new after the upgrade

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// One SQL query's first column of every row, as text (the test's own read
// of the file; nunchi is stopped or in WAL mode, so reading is safe).
std::vector<std::string> Query(const std::string& db_path, const std::string& sql) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return {"<cannot open " + db_path + ">"};
  }
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &q, nullptr) != SQLITE_OK)
    out.push_back(std::string("<") + sqlite3_errmsg(db) + ">");
  while (q && sqlite3_step(q) == SQLITE_ROW) {
    const unsigned char* t = sqlite3_column_text(q, 0);
    out.emplace_back(t ? reinterpret_cast<const char*>(t) : "NULL");
  }
  sqlite3_finalize(q);
  sqlite3_close(db);
  return out;
}

nlohmann::json Sig(const std::string& id, const std::string& author, const std::string& at,
                   const std::string& text) {
  return {{"signal_id", id}, {"author_id", author}, {"created_at", at}, {"text", text}};
}

// The backend's view of spot s1: the fixture's post and comment, plus the
// comment nc3 once `with_new` (new in the cycle that sends it first).
nlohmann::json Cycle(bool with_new, bool nc3_is_new) {
  nlohmann::json comments = {Sig("oc2", "u2", "2026-11-29T18:33:00+09:00", kQuietComment)};
  if (with_new) comments.push_back(Sig("nc3", "u3", "2026-11-29T18:35:00+09:00", kBusyComment));
  nlohmann::json fresh = nlohmann::json::array();
  if (with_new && nc3_is_new)
    fresh.push_back({{"kind", "COMMENT"}, {"signal_id", "nc3"}, {"post_id", "op1"}});
  return {{"analyzed_at", "2026-11-29T18:36:00+09:00"},
          {"state_epoch", "e-fixture0v1"},
          {"spots",
           {{{"spot_id", "s1"},
             {"name", "성수 팝업"},
             {"bundles",
              {{{"post_id", "op1"},
                {"post", Sig("op1", "u1", "2026-11-29T18:30:00+09:00", kQuietPost)},
                {"comments", comments}}}}}}},
          {"new_signals", fresh}};
}

double Judged(httplib::Client& c) {
  return std::max(0.0, Metric(c, "nunchi_signals_total", "{disposition=\"judged\"}"));
}

// The old judgments say HIGH although the texts say quiet (see the fixture).
void ExpectServedFromTheOldStore(const httplib::Result& r, int reports) {
  ASSERT_TRUE(r) << "no answer";
  ASSERT_EQ(r->status, 200) << r->body;  // 409 STATE_RESET: the epoch was lost
  auto j = nlohmann::json::parse(r->body);
  EXPECT_EQ(j["state_epoch"], "e-fixture0v1");
  auto s1 = SpotOf(j, "s1");
  ASSERT_FALSE(s1.is_null()) << r->body;
  EXPECT_EQ(s1["analysis_status"], "OK") << r->body;
  EXPECT_EQ(s1["congestion_level"], "HIGH") << r->body;
  EXPECT_EQ(s1["report_count"], reports) << r->body;
}

TEST(Upgrade, AStoreOfThePreviousSchemaIsMigratedAndStillServed) {
  const std::string fixture =
      std::string(NUNCHI_SOURCE_DIR) + "/tests/blackbox/fixtures/store-schema-v1.sql";
  const std::string sql = Slurp(fixture);
  ASSERT_FALSE(sql.empty()) << fixture;
  // The fixture's hashes must be this nunchi's TextHash, or a mismatch would
  // make nunchi judge the texts again and the test prove nothing.
  EXPECT_NE(sql.find(std::to_string(static_cast<int64_t>(TextHash(kQuietPost)))),
            std::string::npos);
  EXPECT_NE(sql.find(std::to_string(static_cast<int64_t>(TextHash(kQuietComment)))),
            std::string::npos);

  const std::string dir = TempDir("upgrade");
  const std::string db_path = dir + "/judgments.db";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_close(db);
  }
  ASSERT_EQ(Query(db_path, "PRAGMA user_version"), std::vector<std::string>{"1"});

  // The fixture's rows are from 2026-11-29; keep them past the 24 h default.
  const std::vector<std::string> args = {"--retention-hours", "876000"};
  auto server = std::make_unique<ServerProcess>(dir, args);
  auto c = server->Client();
  ExpectServedFromTheOldStore(PostAnalysis(c, Cycle(false, false)), 2);
  EXPECT_EQ(Judged(c), 0) << "the old judgments were made again";
  // A new signal after the upgrade is judged and stored in the migrated table.
  ExpectServedFromTheOldStore(PostAnalysis(c, Cycle(true, true)), 3);
  EXPECT_EQ(Judged(c), 1);

  // Online backup while nunchi serves (docs/deploy.md, "Backups").
  const std::string backup = TempDir("upgrade-backup") + "/judgments.db";
  {
    ChildProcess sh;
    std::string why;
    ASSERT_TRUE(sh.Spawn({"/usr/bin/sqlite3", db_path, ".backup '" + backup + "'"},
                         SpawnOptions(backup + ".log"), &why))
        << why;
    int code = -1;
    for (int i = 0; i < 3000 && !sh.Exited(&code); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(code, 0) << Slurp(backup + ".log");
  }
  ASSERT_TRUE(server->alive());
  EXPECT_EQ(server->Stop(), 0) << server->log();

  // The migration ran: the current schema version and its columns; the old
  // rows got the defaults of the columns added since.
  const auto version = Query(db_path, "PRAGMA user_version");
  ASSERT_EQ(version.size(), 1u);
  EXPECT_GE(std::stoi(version[0]), 2) << "the schema version was not raised";
  std::set<std::string> columns;
  for (const auto& name : Query(db_path, "SELECT name FROM pragma_table_info('judgments')"))
    columns.insert(name);
  EXPECT_TRUE(columns.count("cascade") && columns.count("text")) << "columns of schema 2 missing";
  EXPECT_EQ(Query(db_path, "SELECT cascade || '|' || text FROM judgments WHERE signal_id='oc2'"),
            std::vector<std::string>{"|"});
  // The old rows are the old judgments, untouched (not judged again).
  EXPECT_EQ(Query(db_path,
                  "SELECT signal_id || ' ' || level || ' ' || judged_at_ms FROM judgments "
                  "WHERE signal_id IN ('op1', 'oc2') ORDER BY signal_id"),
            (std::vector<std::string>{"oc2 HIGH 1795944790000", "op1 HIGH 1795944610000"}));
  EXPECT_EQ(Query(db_path, "SELECT signal_id FROM judgments ORDER BY signal_id"),
            (std::vector<std::string>{"nc3", "oc2", "op1"}));

  // The backup is a whole store with every judgment, and nunchi serves from it.
  EXPECT_EQ(Query(backup, "PRAGMA integrity_check"), std::vector<std::string>{"ok"});
  EXPECT_EQ(Query(backup, "SELECT count(*) FROM judgments"), std::vector<std::string>{"3"});
  EXPECT_EQ(Query(backup, "SELECT value FROM meta WHERE key='epoch'"),
            std::vector<std::string>{"e-fixture0v1"});
  const std::string restored_dir = fs::path(backup).parent_path().string();
  {
    ServerProcess restored(restored_dir, args);
    auto rc = restored.Client();
    ExpectServedFromTheOldStore(PostAnalysis(rc, Cycle(true, false)), 3);
    EXPECT_EQ(Judged(rc), 0) << "the restored copy lacked judgments";
  }
  if (!HasFailure()) {
    fs::remove_all(dir);
    fs::remove_all(restored_dir);
  }
}

}  // namespace
}  // namespace nunchi::testing
