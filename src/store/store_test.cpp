#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "store/judgment_store.h"

namespace nunchi {
namespace {

StoredJudgment Row(std::string id, std::string post, std::string spot = "s1", TimeMs at = 1000) {
  StoredJudgment r;
  r.signal_id = std::move(id);
  r.post_id = std::move(post);
  r.spot_id = std::move(spot);
  r.author_id = "u1";
  r.created_at = {at, "2026-11-29T18:40:00+09:00"};
  r.text_hash = 0xfeedbeefcafef00dull;
  r.judgment = {Relevance::kRelevant, Level::kHigh, Cause::kEvent, "팝업 대기줄", "rules",
                "default-v1",         "rules-v1"};
  r.judgment.relevance_confidence = 0.875;
  r.judgment.level_confidence = 0.625;
  r.judged_at = at;
  return r;
}

// A row the cascade made: the LLM's answer with the cheap one kept, and its text.
StoredJudgment EscalatedRow(std::string id) {
  StoredJudgment r = Row(std::move(id), "p1");
  CascadeRecord c;
  c.outcome = CascadeRecord::Outcome::kLlm;
  c.calibration_version = "cal-share-0badf00d";
  c.threshold = 0.8;
  c.cheap_judge = "classifier";
  c.cheap_relevance = Relevance::kRelevant;
  c.cheap_level = Level::kLow;
  c.cheap_cause = Cause::kNone;
  c.cheap_confidence = 0.42;
  r.judgment.judge = "llama";
  r.judgment.cascade = c;
  r.text = "줄이 끝이 안 보여요";
  return r;
}

class StoreTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      dir_ = std::filesystem::temp_directory_path() /
             ("nunchi-store-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
      std::filesystem::remove_all(dir_);
      std::filesystem::create_directories(dir_);
      auto s = OpenSqliteStore((dir_ / "j.db").string());
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      store_ = std::move(s).value();
    } else {
      store_ = NewMemoryStore();
    }
  }
  void TearDown() override {
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::unique_ptr<JudgmentStore> store_;
};

TEST_P(StoreTest, CascadeRecordAndKeptTextRoundTrip) {
  ASSERT_TRUE(store_->Put({EscalatedRow("c9"), Row("c8", "p1")}).ok());
  auto got = store_->Get({"c9", "c8"});
  ASSERT_TRUE(got.ok());
  const StoredJudgment& r = got->at("c9");
  ASSERT_TRUE(r.judgment.cascade);
  EXPECT_EQ(r.judgment.cascade->outcome, CascadeRecord::Outcome::kLlm);
  EXPECT_EQ(r.judgment.cascade->calibration_version, "cal-share-0badf00d");
  EXPECT_EQ(r.judgment.cascade->cheap_level, Level::kLow);
  EXPECT_DOUBLE_EQ(r.judgment.cascade->cheap_confidence, 0.42);
  EXPECT_EQ(r.text, "줄이 끝이 안 보여요");
  EXPECT_FALSE(got->at("c8").judgment.cascade);
  EXPECT_EQ(got->at("c8").text, "");
}

TEST_P(StoreTest, LlmLabeledRowsAreTheEscalatedOnesWithText) {
  StoredJudgment cheap_kept = EscalatedRow("k1");
  cheap_kept.judgment.cascade->outcome = CascadeRecord::Outcome::kKeptTime;
  StoredJudgment no_text = EscalatedRow("n1");
  no_text.text.clear();
  StoredJudgment later = EscalatedRow("e2");
  later.judged_at = 5000;
  ASSERT_TRUE(
      store_->Put({later, EscalatedRow("e1"), cheap_kept, no_text, Row("plain", "p1")}).ok());
  auto rows = store_->LlmLabeledRows();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].signal_id, "e1");  // oldest judged first
  EXPECT_EQ((*rows)[1].signal_id, "e2");
}

TEST_P(StoreTest, PutGetRoundTripsEveryField) {
  ASSERT_TRUE(store_->Put({Row("p1", "p1"), Row("c1", "p1")}).ok());
  auto got = store_->Get({"c1", "missing"});
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 1u);
  const StoredJudgment& r = got->at("c1");
  EXPECT_EQ(r.post_id, "p1");
  EXPECT_EQ(r.text_hash, 0xfeedbeefcafef00dull);
  EXPECT_EQ(r.judgment.level, Level::kHigh);
  EXPECT_EQ(r.judgment.cause, Cause::kEvent);
  EXPECT_EQ(r.judgment.cause_text, "팝업 대기줄");
  EXPECT_EQ(r.judgment.judge, "rules");
  EXPECT_EQ(r.created_at.text, "2026-11-29T18:40:00+09:00");
  EXPECT_DOUBLE_EQ(r.judgment.relevance_confidence, 0.875);
  EXPECT_DOUBLE_EQ(r.judgment.level_confidence, 0.625);
  EXPECT_EQ(store_->RowCount(), 2);
}

TEST_P(StoreTest, UnmeasuredConfidenceRoundTrips) {
  StoredJudgment row = Row("p1", "p1");
  row.judgment.relevance_confidence = Judgment::kNoConfidence;
  row.judgment.level_confidence = Judgment::kNoConfidence;
  ASSERT_TRUE(store_->Put({row}).ok());
  auto got = store_->Get({"p1"});
  ASSERT_TRUE(got.ok());
  EXPECT_DOUBLE_EQ(got->at("p1").judgment.relevance_confidence, Judgment::kNoConfidence);
  EXPECT_DOUBLE_EQ(got->at("p1").judgment.level_confidence, Judgment::kNoConfidence);
}

TEST_P(StoreTest, RemoveMissingCommentsKeepsPostAndListed) {
  ASSERT_TRUE(
      store_->Put({Row("p1", "p1"), Row("c1", "p1"), Row("c2", "p1"), Row("x", "p2")}).ok());
  ASSERT_TRUE(store_->RemoveMissingComments({{"p1", {"p1", "c2"}}}).ok());
  auto got = store_->Get({"p1", "c1", "c2", "x"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->count("c1"), 0u);
  EXPECT_EQ(got->count("p1"), 1u);
  EXPECT_EQ(got->count("c2"), 1u);
  EXPECT_EQ(got->count("x"), 1u);
}

TEST_P(StoreTest, ReportsForSpotFiltersBySpotAndTime) {
  ASSERT_TRUE(
      store_->Put({Row("a", "p", "s1", 100), Row("b", "p", "s1", 200), Row("c", "q", "s2", 300)})
          .ok());
  auto rs = store_->ReportsForSpot("s1", 150);
  ASSERT_TRUE(rs.ok());
  ASSERT_EQ(rs->size(), 1u);
  EXPECT_EQ((*rs)[0].signal_id, "b");
}

TEST_P(StoreTest, PruneDeletesOldRows) {
  ASSERT_TRUE(store_->Put({Row("a", "p", "s1", 100), Row("b", "p", "s1", 200)}).ok());
  auto n = store_->Prune(150);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1);
  EXPECT_EQ(store_->RowCount(), 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Sqlite" : "Memory"; });

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
