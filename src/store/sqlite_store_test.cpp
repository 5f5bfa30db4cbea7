// The SQLite store's own tests, beyond the suite every store passes
// (store_test.cpp): the epoch across reopen, migrations from older schemas,
// an unwritable path, a file corrupted under the open store; and the text hash.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "store/judgment_store.h"
#include "store/store_test_rows.h"

namespace nunchi {
namespace {

using testing_rows::Row;

TEST(SqliteStore, EpochPersistsAcrossReopenAndDiffersForNewStore) {
  auto dir =
      std::filesystem::temp_directory_path() / ("nunchi-epoch-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string e1, e2, e3;
  {
    auto s = OpenSqliteStore((dir / "a.db").string());
    ASSERT_TRUE(s.ok());
    e1 = (*s)->Epoch();
    ASSERT_TRUE((*s)->Put({Row("a", "p")}).ok());
  }
  {
    auto s = OpenSqliteStore((dir / "a.db").string());
    ASSERT_TRUE(s.ok());
    e2 = (*s)->Epoch();
    EXPECT_EQ((*s)->RowCount(), 1);
  }
  {
    auto s = OpenSqliteStore((dir / "b.db").string());
    ASSERT_TRUE(s.ok());
    e3 = (*s)->Epoch();
  }
  EXPECT_EQ(e1, e2);
  EXPECT_NE(e1, e3);
  std::filesystem::remove_all(dir);
}

// A store written before the confidence columns existed (schema version 0) opens,
// keeps its rows (their confidence unmeasured), and takes new rows with confidence.
TEST(SqliteStore, MigratesAStoreWithoutConfidenceColumns) {
  auto dir =
      std::filesystem::temp_directory_path() / ("nunchi-migrate-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string path = (dir / "old.db").string();
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const char* old_schema = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('epoch', 'e-old');
CREATE TABLE judgments (
  signal_id TEXT PRIMARY KEY, spot_id TEXT NOT NULL, post_id TEXT NOT NULL,
  author_id TEXT NOT NULL, created_at_ms INTEGER NOT NULL, created_at TEXT NOT NULL,
  text_hash INTEGER NOT NULL, relevance TEXT NOT NULL, level TEXT NOT NULL,
  cause TEXT NOT NULL, cause_text TEXT NOT NULL, judge TEXT NOT NULL, model TEXT NOT NULL,
  prompt_version TEXT NOT NULL, judged_at_ms INTEGER NOT NULL);
INSERT INTO judgments VALUES ('old', 's1', 'old', 'u1', 1000, '2026-11-29T18:40:00+09:00', 7,
  'RELEVANT', 'HIGH', 'EVENT', '팝업 대기줄', 'rules', 'default-v1', 'rules-v1', 1000);
)sql";
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db, old_schema, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_close(db);
  }
  for (int open = 0; open < 2; ++open) {  // the second open finds it migrated already
    auto s = OpenSqliteStore(path);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ((*s)->Epoch(), "e-old");
    auto got = (*s)->Get({"old"});
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got->count("old"), 1u);
    EXPECT_EQ(got->at("old").judgment.level, Level::kHigh);
    EXPECT_DOUBLE_EQ(got->at("old").judgment.relevance_confidence, Judgment::kNoConfidence);
    EXPECT_DOUBLE_EQ(got->at("old").judgment.level_confidence, Judgment::kNoConfidence);
    if (open == 0) {
      ASSERT_TRUE((*s)->Put({Row("new", "p")}).ok());
    }
    auto fresh = (*s)->Get({"new"});
    ASSERT_TRUE(fresh.ok());
    ASSERT_EQ(fresh->count("new"), 1u);
    EXPECT_DOUBLE_EQ(fresh->at("new").judgment.relevance_confidence, 0.875);
    EXPECT_EQ((*s)->RowCount(), 2);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, nullptr);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(q, 0), 2);
  sqlite3_finalize(q);
  sqlite3_close(db);
  std::filesystem::remove_all(dir);
}

TEST(SqliteStore, UnwritablePathIsAnIoError) {
  auto s = OpenSqliteStore("/proc/nonexistent-dir/x.db");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo);
}

// Overwrites every page but the first (the header and the schema) of the
// database file with garbage, after checkpointing the WAL into it through a
// connection of our own, as a failing disk or a stray writer would.
void CorruptPagesAfterTheFirst(const std::string& path) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 8192u);
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(4096);
  std::string junk(size - 4096, '\0');
  for (size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 131) ^ 0x5a);
  f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

// Corruption that SQLite finds while serving (not at open) moves the file
// aside and starts a new, empty store with a new epoch: the service then
// answers STATE_RESET, and never reads from the damaged file again.
TEST(SqliteStore, CorruptionFoundWhileServingIsANewEpoch) {
  auto dir =
      std::filesystem::temp_directory_path() / ("nunchi-corrupt-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "judgments.db").string();
  auto s = OpenSqliteStore(path);
  ASSERT_TRUE(s.ok());
  JudgmentStore& store = **s;
  const std::string epoch = store.Epoch();
  std::vector<StoredJudgment> rows;
  std::vector<std::string> ids;
  for (int i = 0; i < 400; ++i) {
    ids.push_back("c" + std::to_string(i));
    rows.push_back(Row(ids.back(), "p" + std::to_string(i % 40)));
    rows.back().judgment.cause_text = std::string(200, 'x');  // a few pages of rows
  }
  ASSERT_TRUE(store.Put(rows).ok());
  CorruptPagesAfterTheFirst(path);

  // The call that meets the damage fails; it answers nothing from the file.
  auto got = store.Get(ids);
  EXPECT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), ErrorCode::kIo);
  EXPECT_NE(got.status().message().find("corrupt"), std::string::npos) << got.status().ToString();
  // From then on: a new epoch, an empty store that works, the old file kept aside.
  EXPECT_NE(store.Epoch(), epoch);
  auto after = store.Get(ids);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_TRUE(after->empty());
  ASSERT_TRUE(store.Put({Row("new", "p")}).ok());
  EXPECT_EQ(store.RowCount(), 1);
  int aside = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().rfind("judgments.db.corrupt-", 0) == 0) ++aside;
  EXPECT_GE(aside, 1);
  s->reset();
  // The new file is the store a restart opens: same new epoch, the new row.
  auto reopened = OpenSqliteStore(path);
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  EXPECT_EQ((*reopened)->RowCount(), 1);
  std::filesystem::remove_all(dir);
}

TEST(TextHash, DiffersForDifferentText) {
  EXPECT_NE(TextHash("한산해요"), TextHash("한산해요."));
  EXPECT_EQ(TextHash("x"), TextHash("x"));
}

}  // namespace
}  // namespace nunchi
