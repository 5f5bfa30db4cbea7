// The SQLite store's own tests, beyond the suite every store passes
// (store_test.cpp): the epoch across reopen, migrations from older schemas,
// an unwritable path; and the text hash.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
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

TEST(TextHash, DiffersForDifferentText) {
  EXPECT_NE(TextHash("한산해요"), TextHash("한산해요."));
  EXPECT_EQ(TextHash("x"), TextHash("x"));
}

}  // namespace
}  // namespace nunchi
