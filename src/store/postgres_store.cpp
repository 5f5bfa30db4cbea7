// PostgreSQL implementation of JudgmentStore, on libpq. Several nunchi
// replicas share one database: the epoch is one row of nunchi_meta, the
// judgments one row per signal, and the claims (which replica is judging which
// signal, until when) a table that every replica reads and writes under
// INSERT ... ON CONFLICT, so two replicas never both hold a live claim.
//
// Schema: created and migrated on open, one numbered migration at a time
// under a transaction-scoped advisory lock (replicas starting together
// migrate once); nunchi_meta.schema_version says how far a database is.
// Durability: every write is one transaction, and PostgreSQL's default
// synchronous_commit=on means COMMIT returns only after the WAL is flushed,
// so a Put that returned OK survives a crash of either side.
//
// One connection, guarded by a mutex; a broken connection is reset once and
// the call retried when it failed before its transaction began.
#include <libpq-fe.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unordered_set>

#include "domain/cascade_codec.h"
#include "store/judgment_store.h"
#include "store/row_format.h"

namespace nunchi {
namespace {

// Migration N takes a database from schema version N to N + 1. Append only:
// a released migration never changes.
constexpr const char* kMigrations[] = {
    // 0 -> 1: the judgments as the SQLite store keeps them.
    R"sql(
CREATE TABLE IF NOT EXISTS judgments (
  signal_id TEXT PRIMARY KEY,
  spot_id TEXT NOT NULL,
  post_id TEXT NOT NULL,
  author_id TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL,
  created_at TEXT NOT NULL,
  text_hash BIGINT NOT NULL,
  relevance TEXT NOT NULL,
  level TEXT NOT NULL,
  cause TEXT NOT NULL,
  cause_text TEXT NOT NULL,
  judge TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  judged_at_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS judgments_spot ON judgments (spot_id, created_at_ms);
CREATE INDEX IF NOT EXISTS judgments_post ON judgments (post_id);
CREATE INDEX IF NOT EXISTS judgments_judged ON judgments (judged_at_ms);
)sql",
    // 1 -> 2: the judge's confidence in relevance and level (-1: not measured).
    R"sql(
ALTER TABLE judgments ADD COLUMN IF NOT EXISTS relevance_confidence DOUBLE PRECISION NOT NULL DEFAULT -1;
ALTER TABLE judgments ADD COLUMN IF NOT EXISTS level_confidence DOUBLE PRECISION NOT NULL DEFAULT -1;
)sql",
    // 2 -> 3: claims, so that replicas sharing the store judge a signal once.
    R"sql(
CREATE TABLE IF NOT EXISTS claims (
  signal_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS claims_expiry ON claims (expires_at_ms);
)sql",
    // 3 -> 4: the cascade's record (domain/cascade_codec.h) and the text when kept.
    R"sql(
ALTER TABLE judgments ADD COLUMN IF NOT EXISTS cascade TEXT NOT NULL DEFAULT '';
ALTER TABLE judgments ADD COLUMN IF NOT EXISTS text TEXT NOT NULL DEFAULT '';
)sql",
};
constexpr int kSchemaVersion = static_cast<int>(std::size(kMigrations));
// pg_advisory_xact_lock key for the migration: "nunchi" in ASCII.
constexpr const char* kMigrationLock = "SELECT pg_advisory_xact_lock(110117110099104105)";

constexpr const char* kColumns = store_detail::kJudgmentColumns;

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;
struct ConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};

using store_detail::NewEpoch;

// A PostgreSQL text[] literal: {"a","b"} with " and \ escaped.
std::string TextArray(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

std::vector<std::string> Unique(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const std::string& id : ids)
    if (seen.insert(id).second) out.push_back(id);
  return out;
}

// Formats a double so that it reads back exactly.
std::string Double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

class PostgresStore final : public JudgmentStore {
 public:
  Status Open(const std::string& url) {
    conn_.reset(PQconnectdb(url.c_str()));
    if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK) return Err("connect");
    // NOTICEs ("relation already exists, skipping") are not errors; keep stderr clean.
    PQsetNoticeProcessor(
        conn_.get(), [](void*, const char*) {}, nullptr);
    if (Status s = Migrate(); !s.ok()) return s;
    return LoadEpoch();
  }

  std::string Epoch() const override { return epoch_; }

  Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& ids) override {
    std::unordered_map<std::string, StoredJudgment> out;
    if (ids.empty()) return out;
    std::lock_guard lock(mu_);
    std::string sql =
        std::string("SELECT ") + kColumns + " FROM judgments WHERE signal_id = ANY($1::text[])";
    std::string arr = TextArray(ids);
    PgResult r = Query(sql.c_str(), {arr.c_str()});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return ErrOf(r.get(), "get");
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      StoredJudgment s = ReadRow(r.get(), i);
      std::string id = s.signal_id;
      out.emplace(std::move(id), std::move(s));
    }
    return out;
  }

  Status Put(const std::vector<StoredJudgment>& rows) override {
    if (rows.empty()) return Status::Ok();
    std::lock_guard lock(mu_);
    if (Status s = Begin(); !s.ok()) return s;
    std::string sql = std::string("INSERT INTO judgments (") + kColumns +
                      ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19) "
                      "ON CONFLICT (signal_id) DO UPDATE SET "
                      "spot_id = EXCLUDED.spot_id, post_id = EXCLUDED.post_id, "
                      "author_id = EXCLUDED.author_id, created_at_ms = EXCLUDED.created_at_ms, "
                      "created_at = EXCLUDED.created_at, text_hash = EXCLUDED.text_hash, "
                      "relevance = EXCLUDED.relevance, level = EXCLUDED.level, "
                      "cause = EXCLUDED.cause, cause_text = EXCLUDED.cause_text, "
                      "judge = EXCLUDED.judge, model = EXCLUDED.model, "
                      "prompt_version = EXCLUDED.prompt_version, "
                      "judged_at_ms = EXCLUDED.judged_at_ms, "
                      "relevance_confidence = EXCLUDED.relevance_confidence, "
                      "level_confidence = EXCLUDED.level_confidence, "
                      "cascade = EXCLUDED.cascade, text = EXCLUDED.text";
    std::vector<std::string> ids;
    ids.reserve(rows.size());
    for (const StoredJudgment& r : rows) {
      std::string created = std::to_string(r.created_at.ms);
      std::string hash = std::to_string(static_cast<int64_t>(r.text_hash));
      std::string judged = std::to_string(r.judged_at);
      std::string rel(ToString(r.judgment.relevance)), level(ToString(r.judgment.level)),
          cause(ToString(r.judgment.cause));
      std::string rc = Double(r.judgment.relevance_confidence);
      std::string lc = Double(r.judgment.level_confidence);
      std::string cascade = EncodeCascadeRecord(r.judgment.cascade);
      PgResult res =
          Query(sql.c_str(),
                {r.signal_id.c_str(), r.spot_id.c_str(), r.post_id.c_str(), r.author_id.c_str(),
                 created.c_str(), r.created_at.text.c_str(), hash.c_str(), rel.c_str(),
                 level.c_str(), cause.c_str(), r.judgment.cause_text.c_str(),
                 r.judgment.judge.c_str(), r.judgment.model.c_str(),
                 r.judgment.prompt_version.c_str(), judged.c_str(), rc.c_str(), lc.c_str(),
                 cascade.c_str(), r.text.c_str()});
      if (PQresultStatus(res.get()) != PGRES_COMMAND_OK) return Rollback(res.get(), "insert");
      ids.push_back(r.signal_id);
    }
    std::string arr = TextArray(ids);
    PgResult del = Query("DELETE FROM claims WHERE signal_id = ANY($1::text[])", {arr.c_str()});
    if (PQresultStatus(del.get()) != PGRES_COMMAND_OK) return Rollback(del.get(), "release claims");
    return Commit();
  }

  Status RemoveMissingComments(
      const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) override {
    if (keep_by_post.empty()) return Status::Ok();
    std::lock_guard lock(mu_);
    if (Status s = Begin(); !s.ok()) return s;
    for (const auto& [post_id, keep] : keep_by_post) {
      std::string arr = TextArray(keep);
      PgResult r = Query(
          "DELETE FROM judgments WHERE post_id = $1 AND signal_id <> $1 "
          "AND NOT (signal_id = ANY($2::text[]))",
          {post_id.c_str(), arr.c_str()});
      if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) return Rollback(r.get(), "delete");
    }
    return Commit();
  }

  Result<std::vector<Report>> ReportsForSpot(const std::string& spot_id, TimeMs since) override {
    std::lock_guard lock(mu_);
    std::string sql = std::string("SELECT ") + kColumns +
                      " FROM judgments WHERE spot_id = $1 AND created_at_ms >= $2";
    std::string since_s = std::to_string(since);
    PgResult r = Query(sql.c_str(), {spot_id.c_str(), since_s.c_str()});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return ErrOf(r.get(), "reports");
    std::vector<Report> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      StoredJudgment s = ReadRow(r.get(), i);
      out.push_back(Report{s.signal_id, s.author_id, s.created_at, s.judgment.relevance,
                           s.judgment.level, s.judgment.cause, s.judgment.cause_text});
    }
    return out;
  }

  Result<int64_t> Prune(TimeMs cutoff) override {
    std::lock_guard lock(mu_);
    std::string c = std::to_string(cutoff);
    PgResult r = Query("DELETE FROM judgments WHERE judged_at_ms < $1", {c.c_str()});
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) return ErrOf(r.get(), "prune");
    int64_t n = std::strtoll(PQcmdTuples(r.get()), nullptr, 10);
    PgResult cl = Query("DELETE FROM claims WHERE expires_at_ms < $1", {c.c_str()});
    if (PQresultStatus(cl.get()) != PGRES_COMMAND_OK) return ErrOf(cl.get(), "prune claims");
    return n;
  }

  Result<std::vector<StoredJudgment>> LlmLabeledRows() override {
    std::lock_guard lock(mu_);
    std::string sql = std::string("SELECT ") + kColumns +
                      " FROM judgments WHERE cascade LIKE 'llm|%' AND text <> '' "
                      "ORDER BY judged_at_ms";
    PgResult r = Query(sql.c_str(), {});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return ErrOf(r.get(), "llm rows");
    std::vector<StoredJudgment> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) out.push_back(ReadRow(r.get(), i));
    return out;
  }

  int64_t RowCount() override {
    std::lock_guard lock(mu_);
    PgResult r = Query("SELECT count(*) FROM judgments", {});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1) return -1;
    return std::strtoll(PQgetvalue(r.get(), 0, 0), nullptr, 10);
  }

  Result<std::vector<std::string>> Claim(const std::vector<std::string>& ids,
                                         const std::string& owner, TimeMs now_ms,
                                         TimeMs lease_ms) override {
    std::vector<std::string> got;
    if (ids.empty()) return got;
    std::lock_guard lock(mu_);
    // ON CONFLICT takes the row lock: of two replicas racing for one id, one
    // inserts and the other sees a live claim of another owner and gets nothing.
    std::string arr = TextArray(Unique(ids));
    std::string expires = std::to_string(now_ms + lease_ms), now = std::to_string(now_ms);
    PgResult r = Query(
        "INSERT INTO claims (signal_id, owner, expires_at_ms) "
        "SELECT id, $2, $3 FROM unnest($1::text[]) AS id "
        "ON CONFLICT (signal_id) DO UPDATE SET owner = EXCLUDED.owner, "
        "expires_at_ms = EXCLUDED.expires_at_ms "
        "WHERE claims.owner = EXCLUDED.owner OR claims.expires_at_ms <= $4 "
        "RETURNING signal_id",
        {arr.c_str(), owner.c_str(), expires.c_str(), now.c_str()});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return ErrOf(r.get(), "claim");
    for (int i = 0; i < PQntuples(r.get()); ++i) got.emplace_back(PQgetvalue(r.get(), i, 0));
    return got;
  }

  Status ReleaseClaims(const std::vector<std::string>& ids, const std::string& owner) override {
    if (ids.empty()) return Status::Ok();
    std::lock_guard lock(mu_);
    std::string arr = TextArray(ids);
    PgResult r = Query("DELETE FROM claims WHERE owner = $2 AND signal_id = ANY($1::text[])",
                       {arr.c_str(), owner.c_str()});
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) return ErrOf(r.get(), "release");
    return Status::Ok();
  }

 private:
  Status Migrate() {
    std::lock_guard lock(mu_);
    if (Status s = Exec("BEGIN"); !s.ok()) return s;
    if (Status s = Exec(kMigrationLock); !s.ok()) return RollbackStatus(s);
    if (Status s = Exec("CREATE TABLE IF NOT EXISTS nunchi_meta "
                        "(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        !s.ok())
      return RollbackStatus(s);
    PgResult v = Query("SELECT value FROM nunchi_meta WHERE key = 'schema_version'", {});
    if (PQresultStatus(v.get()) != PGRES_TUPLES_OK) return Rollback(v.get(), "schema version");
    int version = PQntuples(v.get()) ? std::atoi(PQgetvalue(v.get(), 0, 0)) : 0;
    if (version > kSchemaVersion) {
      Exec("ROLLBACK");
      return Status(ErrorCode::kIo, "postgres: schema version " + std::to_string(version) +
                                        " is newer than this nunchi's " +
                                        std::to_string(kSchemaVersion));
    }
    for (int m = version; m < kSchemaVersion; ++m)
      if (Status s = Exec(kMigrations[m]); !s.ok()) return RollbackStatus(s);
    std::string now = std::to_string(kSchemaVersion);
    PgResult w = Query(
        "INSERT INTO nunchi_meta (key, value) VALUES ('schema_version', $1) "
        "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        {now.c_str()});
    if (PQresultStatus(w.get()) != PGRES_COMMAND_OK) return Rollback(w.get(), "schema version");
    return Commit();
  }

  Status LoadEpoch() {
    std::lock_guard lock(mu_);
    // The first replica to open a new database writes the epoch; the rest read it.
    std::string fresh = NewEpoch();
    PgResult ins = Query(
        "INSERT INTO nunchi_meta (key, value) VALUES ('epoch', $1) ON CONFLICT (key) DO NOTHING",
        {fresh.c_str()});
    if (PQresultStatus(ins.get()) != PGRES_COMMAND_OK) return ErrOf(ins.get(), "store epoch");
    PgResult q = Query("SELECT value FROM nunchi_meta WHERE key = 'epoch'", {});
    if (PQresultStatus(q.get()) != PGRES_TUPLES_OK || PQntuples(q.get()) != 1)
      return ErrOf(q.get(), "read epoch");
    epoch_ = PQgetvalue(q.get(), 0, 0);
    return Status::Ok();
  }

  static StoredJudgment ReadRow(const PGresult* r, int i) {
    auto col = [r, i](int c) { return std::string(PQgetvalue(r, i, c)); };
    auto num = [r, i](int c) { return std::strtoll(PQgetvalue(r, i, c), nullptr, 10); };
    StoredJudgment s;
    s.signal_id = col(0);
    s.spot_id = col(1);
    s.post_id = col(2);
    s.author_id = col(3);
    s.created_at.ms = num(4);
    s.created_at.text = col(5);
    s.text_hash = static_cast<uint64_t>(num(6));
    s.judgment.relevance = ParseRelevance(col(7)).value_or(Relevance::kIrrelevant);
    s.judgment.level = ParseLevel(col(8)).value_or(Level::kUnknown);
    s.judgment.cause = ParseCause(col(9)).value_or(Cause::kNone);
    s.judgment.cause_text = col(10);
    s.judgment.judge = col(11);
    s.judgment.model = col(12);
    s.judgment.prompt_version = col(13);
    s.judged_at = num(14);
    s.judgment.relevance_confidence = std::strtod(PQgetvalue(r, i, 15), nullptr);
    s.judgment.level_confidence = std::strtod(PQgetvalue(r, i, 16), nullptr);
    s.judgment.cascade = DecodeCascadeRecord(col(17));
    s.text = col(18);
    return s;
  }

  // Runs one statement with text parameters. Outside a transaction, a
  // connection found broken is reset once and the statement sent again.
  PgResult Query(const char* sql, std::initializer_list<const char*> params) {
    std::vector<const char*> p(params);
    auto send = [&] {
      return PgResult(PQexecParams(conn_.get(), sql, static_cast<int>(p.size()), nullptr, p.data(),
                                   nullptr, nullptr, 0));
    };
    PgResult r = send();
    if (!in_tx_ && PQstatus(conn_.get()) == CONNECTION_BAD) {
      PQreset(conn_.get());
      if (PQstatus(conn_.get()) == CONNECTION_OK) r = send();
    }
    return r;
  }

  Status Exec(const char* sql) {
    PgResult r(PQexec(conn_.get(), sql));
    ExecStatusType st = PQresultStatus(r.get());
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return ErrOf(r.get(), "exec");
    return Status::Ok();
  }

  Status Begin() {
    PgResult r = Query("BEGIN", {});
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK) return ErrOf(r.get(), "begin");
    in_tx_ = true;
    return Status::Ok();
  }

  Status Commit() {
    in_tx_ = false;
    PgResult r(PQexec(conn_.get(), "COMMIT"));
    // COMMIT of a transaction that failed answers ROLLBACK with COMMAND_OK;
    // the transaction status before it tells the two apart.
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK ||
        std::string(PQcmdStatus(r.get())) != "COMMIT")
      return ErrOf(r.get(), "commit");
    return Status::Ok();
  }

  Status ErrOf(const PGresult* r, const std::string& what) {
    const char* m = r ? PQresultErrorMessage(r) : nullptr;
    std::string msg = m && *m ? m : PQerrorMessage(conn_.get());
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return Status(ErrorCode::kIo, "postgres " + what + ": " + msg);
  }
  Status Err(const std::string& what) { return ErrOf(nullptr, what); }

  Status Rollback(const PGresult* r, const std::string& what) {
    return RollbackStatus(ErrOf(r, what));
  }
  Status RollbackStatus(Status s) {
    in_tx_ = false;
    PgResult r(PQexec(conn_.get(), "ROLLBACK"));
    return s;
  }

  std::unique_ptr<PGconn, ConnDeleter> conn_;
  std::mutex mu_;
  std::string epoch_;
  bool in_tx_ = false;
};

}  // namespace

bool IsPostgresUrl(std::string_view store) {
  return store.starts_with("postgres://") || store.starts_with("postgresql://");
}

Result<std::unique_ptr<JudgmentStore>> OpenPostgresStore(const std::string& url) {
  auto store = std::make_unique<PostgresStore>();
  if (Status s = store->Open(url); !s.ok()) return s;
  return std::unique_ptr<JudgmentStore>(std::move(store));
}

}  // namespace nunchi
