// The store suite: every JudgmentStore implementation passes the same tests.
// Built twice: store_test runs it over the memory and SQLite stores (label
// unit); store_postgres_test (NUNCHI_STORE_TEST_POSTGRES) over a real
// PostgreSQL started for the test, plus the tests of replicas sharing one
// database (label postgres).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <thread>

#include "store/judgment_store.h"
#include "store/store_test_rows.h"

#ifdef NUNCHI_STORE_TEST_POSTGRES
#include <libpq-fe.h>

#include "store/pg_test_server.h"
#endif

namespace nunchi {
namespace {

using testing_rows::EscalatedRow;
using testing_rows::Row;

enum class Backend { kMemory, kSqlite, kPostgres };

std::string TestName() {
  std::string n = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::string out;
  for (char c : n) out += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '_';
  return out;
}

#ifdef NUNCHI_STORE_TEST_POSTGRES
// One server per test process (ctest runs each test in its own), stopped by
// the environment's TearDown; one fresh database per test.
PgTestServer* g_pg = nullptr;
std::string g_pg_error;

class PgEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    delete g_pg;
    g_pg = nullptr;
  }
};
const auto* const kPgEnv = ::testing::AddGlobalTestEnvironment(new PgEnvironment);

// A new database on the shared server; "" with *why when there is none.
std::string NewPgDatabase(std::string* why) {
  if (!g_pg && g_pg_error.empty()) {
    g_pg = new PgTestServer;
    if (!g_pg->Start(&g_pg_error)) {
      delete g_pg;
      g_pg = nullptr;
    }
  }
  if (!g_pg) {
    *why = g_pg_error;
    return "";
  }
  static int n = 0;
  std::string name = "t" + std::to_string(++n) + "_" + TestName().substr(0, 40);
  if (!g_pg->CreateDatabase(name, why)) return "";
  return g_pg->Url(name);
}

// Fails under CI=true, skips elsewhere: a missing server is never silent.
#define NUNCHI_NEED_PG(url)                                                       \
  std::string url;                                                                \
  {                                                                               \
    std::string why_;                                                             \
    url = NewPgDatabase(&why_);                                                   \
    if (url.empty()) {                                                            \
      if (PgTestServer::MustFailWithoutServer())                                  \
        FAIL() << "PostgreSQL could not be started and CI=true: " << why_;        \
      GTEST_SKIP() << "SKIPPED: PostgreSQL could not be started (set CI=true to " \
                      "make this a failure): "                                    \
                   << why_;                                                       \
    }                                                                             \
  }
#endif

class StoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case Backend::kMemory:
        store_ = NewMemoryStore();
        break;
      case Backend::kSqlite: {
        dir_ = std::filesystem::temp_directory_path() /
               ("nunchi-store-" + std::to_string(::getpid()) + "-" + TestName());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        auto s = OpenSqliteStore((dir_ / "j.db").string());
        ASSERT_TRUE(s.ok()) << s.status().ToString();
        store_ = std::move(s).value();
        break;
      }
      case Backend::kPostgres: {
#ifdef NUNCHI_STORE_TEST_POSTGRES
        NUNCHI_NEED_PG(url);
        auto s = OpenPostgresStore(url);
        ASSERT_TRUE(s.ok()) << s.status().ToString();
        store_ = std::move(s).value();
#else
        FAIL() << "built without the PostgreSQL tests";
#endif
        break;
      }
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

TEST_P(StoreTest, PutReplacesTheRowOfTheSameSignal) {
  ASSERT_TRUE(store_->Put({Row("a", "p")}).ok());
  StoredJudgment again = Row("a", "p", "s2", 5000);
  again.judgment.level = Level::kLow;
  again.judgment.cause_text = "한산";
  again.text_hash = 7;
  ASSERT_TRUE(store_->Put({again}).ok());
  EXPECT_EQ(store_->RowCount(), 1);
  auto got = store_->Get({"a"});
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->count("a"), 1u);
  EXPECT_EQ(got->at("a").spot_id, "s2");
  EXPECT_EQ(got->at("a").judgment.level, Level::kLow);
  EXPECT_EQ(got->at("a").judgment.cause_text, "한산");
  EXPECT_EQ(got->at("a").text_hash, 7u);
  EXPECT_EQ(got->at("a").judged_at, 5000);
}

TEST_P(StoreTest, IdsWithQuotesAndBackslashesRoundTrip) {
  // Ids are the backend's; nothing in them may break the store's queries.
  std::vector<std::string> ids = {"a\"b", "c\\d", "{e,f}", "g'h", "NULL", "x y"};
  std::vector<StoredJudgment> rows;
  for (const auto& id : ids) rows.push_back(Row(id, "p"));
  ASSERT_TRUE(store_->Put(rows).ok());
  auto got = store_->Get(ids);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), ids.size());
  for (const auto& id : ids) EXPECT_EQ(got->count(id), 1u) << id;
  ASSERT_TRUE(store_->RemoveMissingComments({{"p", {"{e,f}", "NULL"}}}).ok());
  EXPECT_EQ(store_->RowCount(), 2);
}

TEST_P(StoreTest, ConfidencesRoundTrip) {
  StoredJudgment r = Row("a", "p");
  r.judgment.relevance_confidence = 0.8125;
  r.judgment.level_confidence = 0.1;
  StoredJudgment none = Row("b", "p");
  none.judgment.relevance_confidence = none.judgment.level_confidence = Judgment::kNoConfidence;
  ASSERT_TRUE(store_->Put({r, none}).ok());
  auto got = store_->Get({"a", "b"});
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ(got->at("a").judgment.relevance_confidence, 0.8125);
  EXPECT_EQ(got->at("a").judgment.level_confidence, 0.1);
  EXPECT_EQ(got->at("b").judgment.relevance_confidence, Judgment::kNoConfidence);
  EXPECT_EQ(got->at("b").judgment.level_confidence, Judgment::kNoConfidence);
}

TEST_P(StoreTest, EmptyCallsAreNoOps) {
  EXPECT_TRUE(store_->Put({}).ok());
  EXPECT_TRUE(store_->RemoveMissingComments({}).ok());
  auto got = store_->Get({});
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got->empty());
  EXPECT_EQ(store_->RowCount(), 0);
  EXPECT_FALSE(store_->Epoch().empty());
}

TEST_P(StoreTest, ClaimIsExclusiveUntilItsLeaseExpires) {
  auto a = store_->Claim({"s1", "s2", "s1"}, "replica-a", 1000, 30'000);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  std::sort(a->begin(), a->end());
  EXPECT_EQ(*a, (std::vector<std::string>{"s1", "s2"}));
  // Another owner gets only what nobody holds.
  auto b = store_->Claim({"s1", "s2", "s3"}, "replica-b", 2000, 30'000);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, (std::vector<std::string>{"s3"}));
  // The holder renews its own claim.
  auto again = store_->Claim({"s1"}, "replica-a", 3000, 30'000);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, (std::vector<std::string>{"s1"}));
  // Past the lease (s2 at 31000, s1 renewed to 33000), another owner takes it.
  auto late = store_->Claim({"s1", "s2"}, "replica-b", 32'000, 30'000);
  ASSERT_TRUE(late.ok());
  EXPECT_EQ(*late, (std::vector<std::string>{"s2"}));
}

TEST_P(StoreTest, PutAndReleaseFreeTheClaim) {
  ASSERT_TRUE(store_->Claim({"a", "b", "c"}, "replica-a", 1000, 60'000).ok());
  ASSERT_TRUE(store_->Put({Row("a", "p")}).ok());
  // Releasing someone else's claim does nothing.
  ASSERT_TRUE(store_->ReleaseClaims({"c"}, "replica-b").ok());
  ASSERT_TRUE(store_->ReleaseClaims({"b"}, "replica-a").ok());
  auto b = store_->Claim({"a", "b", "c"}, "replica-b", 2000, 60'000);
  ASSERT_TRUE(b.ok());
  std::sort(b->begin(), b->end());
  EXPECT_EQ(*b, (std::vector<std::string>{"a", "b"}));
}

#ifdef NUNCHI_STORE_TEST_POSTGRES
INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values(Backend::kPostgres),
                         [](const auto&) { return "Postgres"; });
#else
INSTANTIATE_TEST_SUITE_P(Backends, StoreTest, ::testing::Values(Backend::kMemory, Backend::kSqlite),
                         [](const auto& info) {
                           return info.param == Backend::kSqlite ? "Sqlite" : "Memory";
                         });
#endif

#ifdef NUNCHI_STORE_TEST_POSTGRES
std::unique_ptr<JudgmentStore> MustOpen(const std::string& url) {
  auto s = OpenPostgresStore(url);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(s).value() : nullptr;
}

// Runs SQL on the database directly (the test's view from outside the store).
std::string Sql(const std::string& url, const std::string& sql) {
  PGconn* c = PQconnectdb(url.c_str());
  PGresult* r = PQexec(c, sql.c_str());
  std::string out;
  if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0) out = PQgetvalue(r, 0, 0);
  if (PQresultStatus(r) != PGRES_TUPLES_OK && PQresultStatus(r) != PGRES_COMMAND_OK)
    ADD_FAILURE() << sql << ": " << PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(c);
  return out;
}

TEST(PostgresStore, ReplicasShareOneEpochAndSeeEachOthersJudgments) {
  NUNCHI_NEED_PG(url);
  auto a = MustOpen(url);
  auto b = MustOpen(url);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->Epoch(), b->Epoch());
  // A late judgment stored by one replica is found by the other.
  ASSERT_TRUE(a->Put({Row("late", "p")}).ok());
  auto got = b->Get({"late"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->count("late"), 1u);
  auto reports = b->ReportsForSpot("s1", 0);
  ASSERT_TRUE(reports.ok());
  ASSERT_EQ(reports->size(), 1u);
  // A reopened store keeps its epoch; a new database has another.
  a.reset();
  auto again = MustOpen(url);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->Epoch(), b->Epoch());
  EXPECT_EQ(again->RowCount(), 1);
  NUNCHI_NEED_PG(other);
  auto fresh = MustOpen(other);
  ASSERT_TRUE(fresh);
  EXPECT_NE(fresh->Epoch(), b->Epoch());
}

TEST(PostgresStore, AClaimHeldByOneReplicaIsNotTakenByAnother) {
  NUNCHI_NEED_PG(url);
  auto a = MustOpen(url);
  auto b = MustOpen(url);
  ASSERT_TRUE(a && b);
  auto ca = a->Claim({"x", "y"}, "replica-a", 1000, 30'000);
  ASSERT_TRUE(ca.ok()) << ca.status().ToString();
  EXPECT_EQ(ca->size(), 2u);
  auto cb = b->Claim({"x", "y", "z"}, "replica-b", 1500, 30'000);
  ASSERT_TRUE(cb.ok());
  EXPECT_EQ(*cb, (std::vector<std::string>{"z"}));
  // Replica a stores x: the claim goes with it, and b finds the judgment.
  ASSERT_TRUE(a->Put({Row("x", "p")}).ok());
  EXPECT_EQ(Sql(url, "SELECT count(*) FROM claims WHERE signal_id = 'x'"), "0");
  // Replica a dies holding y: b takes it once the lease has run out.
  a.reset();
  auto early = b->Claim({"y"}, "replica-b", 30'000, 30'000);
  ASSERT_TRUE(early.ok());
  EXPECT_TRUE(early->empty());
  auto expired = b->Claim({"y"}, "replica-b", 31'000, 30'000);
  ASSERT_TRUE(expired.ok());
  EXPECT_EQ(*expired, (std::vector<std::string>{"y"}));
}

TEST(PostgresStore, RacingReplicasNeverBothClaimASignal) {
  NUNCHI_NEED_PG(url);
  constexpr int kReplicas = 4;
  std::vector<std::unique_ptr<JudgmentStore>> stores;
  for (int i = 0; i < kReplicas; ++i) stores.push_back(MustOpen(url));
  std::vector<std::string> ids;
  for (int i = 0; i < 300; ++i) ids.push_back("sig-" + std::to_string(i));
  std::vector<std::vector<std::string>> won(kReplicas);
  std::vector<std::thread> threads;
  for (int i = 0; i < kReplicas; ++i)
    threads.emplace_back([&, i] {
      // Each replica asks in its own order, so their inserts interleave.
      std::vector<std::string> mine = ids;
      std::rotate(mine.begin(), mine.begin() + i * 75, mine.end());
      for (size_t k = 0; k < mine.size(); k += 10) {
        std::vector<std::string> batch(mine.begin() + k, mine.begin() + k + 10);
        auto got = stores[i]->Claim(batch, "replica-" + std::to_string(i), 1000, 60'000);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        won[i].insert(won[i].end(), got->begin(), got->end());
      }
    });
  for (auto& t : threads) t.join();
  std::map<std::string, int> owners;
  for (const auto& w : won)
    for (const auto& id : w) ++owners[id];
  EXPECT_EQ(owners.size(), ids.size());
  for (const auto& [id, n] : owners) EXPECT_EQ(n, 1) << id << " claimed by " << n << " replicas";
}

TEST(PostgresStore, MigratesAVersionOneDatabaseInPlace) {
  NUNCHI_NEED_PG(url);
  // A database as the first PostgreSQL schema left it: no confidences, no claims.
  Sql(url,
      "CREATE TABLE nunchi_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
      "INSERT INTO nunchi_meta VALUES ('schema_version', '1'), ('epoch', 'e-old');"
      "CREATE TABLE judgments (signal_id TEXT PRIMARY KEY, spot_id TEXT NOT NULL, "
      "post_id TEXT NOT NULL, author_id TEXT NOT NULL, created_at_ms BIGINT NOT NULL, "
      "created_at TEXT NOT NULL, text_hash BIGINT NOT NULL, relevance TEXT NOT NULL, "
      "level TEXT NOT NULL, cause TEXT NOT NULL, cause_text TEXT NOT NULL, judge TEXT NOT NULL, "
      "model TEXT NOT NULL, prompt_version TEXT NOT NULL, judged_at_ms BIGINT NOT NULL);"
      "INSERT INTO judgments VALUES ('old', 's1', 'p', 'u', 100, 't', 5, 'RELEVANT', 'HIGH', "
      "'EVENT', '줄', 'rules', 'm', 'v', 100);");
  auto s = MustOpen(url);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->Epoch(), "e-old");
  auto got = s->Get({"old"});
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->count("old"), 1u);
  EXPECT_EQ(got->at("old").judgment.level, Level::kHigh);
  EXPECT_EQ(got->at("old").judgment.relevance_confidence, Judgment::kNoConfidence);
  auto claimed = s->Claim({"old"}, "r", 0, 1000);
  ASSERT_TRUE(claimed.ok()) << claimed.status().ToString();
  EXPECT_EQ(claimed->size(), 1u);
  EXPECT_EQ(Sql(url, "SELECT value FROM nunchi_meta WHERE key = 'schema_version'"), "4");
  // Opening again migrates nothing and keeps everything.
  s.reset();
  auto again = MustOpen(url);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->RowCount(), 1);
}

TEST(PostgresStore, ANewerSchemaIsRefused) {
  NUNCHI_NEED_PG(url);
  ASSERT_TRUE(MustOpen(url));
  Sql(url, "UPDATE nunchi_meta SET value = '99' WHERE key = 'schema_version'");
  auto s = OpenPostgresStore(url);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo);
  EXPECT_NE(s.status().message().find("99"), std::string::npos) << s.status().message();
}

TEST(PostgresStore, AcknowledgedJudgmentsSurviveAServerCrash) {
  NUNCHI_NEED_PG(url);
  auto s = MustOpen(url);
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->Put({Row("kept", "p")}).ok());
  s.reset();
  // Kill the server without a checkpoint (immediate: as a crash), restart it.
  std::string why;
  ASSERT_TRUE(g_pg->CrashAndRestart(&why)) << why;
  auto after = MustOpen(url);
  ASSERT_TRUE(after);
  auto got = after->Get({"kept"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->count("kept"), 1u);
}

TEST(PostgresStore, UnreachableServerIsAnIoError) {
  auto s =
      OpenPostgresStore("postgresql://nobody@/none?host=/nonexistent-dir&port=1&connect_timeout=2");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kIo);
}
#endif

}  // namespace
}  // namespace nunchi
