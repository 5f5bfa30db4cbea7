// SQLite implementation of JudgmentStore. One connection guarded by a mutex;
// WAL journal, synchronous=FULL, so a committed Put survives a crash.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>

#include "store/claim_table.h"
#include "store/judgment_store.h"

namespace nunchi {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judgments (
  signal_id TEXT PRIMARY KEY,
  spot_id TEXT NOT NULL,
  post_id TEXT NOT NULL,
  author_id TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  text_hash INTEGER NOT NULL,
  relevance TEXT NOT NULL,
  level TEXT NOT NULL,
  cause TEXT NOT NULL,
  cause_text TEXT NOT NULL,
  judge TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  judged_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS judgments_spot ON judgments (spot_id, created_at_ms);
CREATE INDEX IF NOT EXISTS judgments_post ON judgments (post_id);
CREATE INDEX IF NOT EXISTS judgments_judged ON judgments (judged_at_ms);
)sql";

struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;
struct DbDeleter {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

std::string NewEpoch() {
  std::random_device rd;
  std::uniform_int_distribution<uint32_t> dist;
  char buf[32];
  std::snprintf(buf, sizeof buf, "e-%08x%04x", dist(rd), dist(rd) & 0xffff);
  return buf;
}

class SqliteStore final : public JudgmentStore {
 public:
  Status Open(const std::string& path) {
    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &raw,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) return Err("open " + path);
    sqlite3_busy_timeout(db_.get(), 5000);
    if (Status s = Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"); !s.ok()) return s;
    if (Status s = Exec(kSchema); !s.ok()) return s;
    Stmt q = Prepare("SELECT value FROM meta WHERE key='epoch'");
    if (!q) return Err("prepare");
    if (sqlite3_step(q.get()) == SQLITE_ROW) {
      epoch_ = reinterpret_cast<const char*>(sqlite3_column_text(q.get(), 0));
    } else {
      epoch_ = NewEpoch();
      Stmt ins = Prepare("INSERT INTO meta(key, value) VALUES('epoch', ?)");
      sqlite3_bind_text(ins.get(), 1, epoch_.c_str(), -1, SQLITE_TRANSIENT);
      if (sqlite3_step(ins.get()) != SQLITE_DONE) return Err("store epoch");
    }
    return Status::Ok();
  }

  std::string Epoch() const override { return epoch_; }

  Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& ids) override {
    std::lock_guard lock(mu_);
    std::unordered_map<std::string, StoredJudgment> out;
    Stmt q = Prepare(
        "SELECT signal_id, spot_id, post_id, author_id, created_at_ms, created_at, text_hash, "
        "relevance, level, cause, cause_text, judge, model, prompt_version, judged_at_ms "
        "FROM judgments WHERE signal_id = ?");
    if (!q) return Err("prepare get");
    for (const std::string& id : ids) {
      sqlite3_reset(q.get());
      sqlite3_bind_text(q.get(), 1, id.c_str(), static_cast<int>(id.size()), SQLITE_TRANSIENT);
      int rc = sqlite3_step(q.get());
      if (rc == SQLITE_ROW) {
        out.emplace(id, ReadRow(q.get()));
      } else if (rc != SQLITE_DONE) {
        return Err("get");
      }
    }
    return out;
  }

  Status Put(const std::vector<StoredJudgment>& rows) override {
    if (rows.empty()) return Status::Ok();
    std::lock_guard lock(mu_);
    if (Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    Stmt ins = Prepare(
        "INSERT OR REPLACE INTO judgments VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!ins) return Rollback("prepare put");
    for (const StoredJudgment& r : rows) {
      sqlite3_reset(ins.get());
      auto text = [&](int i, const std::string& s) {
        sqlite3_bind_text(ins.get(), i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
      };
      auto view = [&](int i, std::string_view s) {
        sqlite3_bind_text(ins.get(), i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
      };
      text(1, r.signal_id);
      text(2, r.spot_id);
      text(3, r.post_id);
      text(4, r.author_id);
      sqlite3_bind_int64(ins.get(), 5, r.created_at.ms);
      text(6, r.created_at.text);
      sqlite3_bind_int64(ins.get(), 7, static_cast<int64_t>(r.text_hash));
      view(8, ToString(r.judgment.relevance));
      view(9, ToString(r.judgment.level));
      view(10, ToString(r.judgment.cause));
      text(11, r.judgment.cause_text);
      text(12, r.judgment.judge);
      text(13, r.judgment.model);
      text(14, r.judgment.prompt_version);
      sqlite3_bind_int64(ins.get(), 15, r.judged_at);
      if (sqlite3_step(ins.get()) != SQLITE_DONE) return Rollback("insert");
    }
    if (sqlite3_step(Prepare("COMMIT").get()) != SQLITE_DONE) return Rollback("commit");
    for (const StoredJudgment& r : rows) claims_.Stored(r.signal_id);
    return Status::Ok();
  }

  Status RemoveMissingComments(
      const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) override {
    if (keep_by_post.empty()) return Status::Ok();
    std::lock_guard lock(mu_);
    if (Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    Stmt sel = Prepare("SELECT signal_id FROM judgments WHERE post_id = ? AND signal_id != ?");
    Stmt del = Prepare("DELETE FROM judgments WHERE signal_id = ?");
    if (!sel || !del) return Rollback("prepare remove");
    for (const auto& [post_id, keep] : keep_by_post) {
      sqlite3_reset(sel.get());
      sqlite3_bind_text(sel.get(), 1, post_id.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(sel.get(), 2, post_id.c_str(), -1, SQLITE_TRANSIENT);
      std::vector<std::string> gone;
      while (sqlite3_step(sel.get()) == SQLITE_ROW) {
        std::string id = reinterpret_cast<const char*>(sqlite3_column_text(sel.get(), 0));
        if (std::find(keep.begin(), keep.end(), id) == keep.end()) gone.push_back(std::move(id));
      }
      for (const std::string& id : gone) {
        sqlite3_reset(del.get());
        sqlite3_bind_text(del.get(), 1, id.c_str(), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(del.get()) != SQLITE_DONE) return Rollback("delete");
      }
    }
    if (sqlite3_step(Prepare("COMMIT").get()) != SQLITE_DONE) return Rollback("commit");
    return Status::Ok();
  }

  Result<std::vector<Report>> ReportsForSpot(const std::string& spot_id, TimeMs since) override {
    std::lock_guard lock(mu_);
    Stmt q = Prepare(
        "SELECT signal_id, spot_id, post_id, author_id, created_at_ms, created_at, text_hash, "
        "relevance, level, cause, cause_text, judge, model, prompt_version, judged_at_ms "
        "FROM judgments WHERE spot_id = ? AND created_at_ms >= ?");
    if (!q) return Err("prepare reports");
    sqlite3_bind_text(q.get(), 1, spot_id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(q.get(), 2, since);
    std::vector<Report> out;
    int rc;
    while ((rc = sqlite3_step(q.get())) == SQLITE_ROW) {
      StoredJudgment s = ReadRow(q.get());
      out.push_back(Report{s.signal_id, s.author_id, s.created_at, s.judgment.relevance,
                           s.judgment.level, s.judgment.cause, s.judgment.cause_text});
    }
    if (rc != SQLITE_DONE) return Err("reports");
    return out;
  }

  Result<int64_t> Prune(TimeMs cutoff) override {
    std::lock_guard lock(mu_);
    claims_.Expire(cutoff);
    Stmt q = Prepare("DELETE FROM judgments WHERE judged_at_ms < ?");
    sqlite3_bind_int64(q.get(), 1, cutoff);
    if (sqlite3_step(q.get()) != SQLITE_DONE) return Err("prune");
    return static_cast<int64_t>(sqlite3_changes(db_.get()));
  }

  int64_t RowCount() override {
    std::lock_guard lock(mu_);
    Stmt q = Prepare("SELECT COUNT(*) FROM judgments");
    if (!q || sqlite3_step(q.get()) != SQLITE_ROW) return -1;
    return sqlite3_column_int64(q.get(), 0);
  }

  // One replica owns a SQLite file, so its claims live in memory.
  Result<std::vector<std::string>> Claim(const std::vector<std::string>& ids,
                                         const std::string& owner, TimeMs now_ms,
                                         TimeMs lease_ms) override {
    std::lock_guard lock(mu_);
    return claims_.Claim(ids, owner, now_ms, lease_ms);
  }

  Status ReleaseClaims(const std::vector<std::string>& ids, const std::string& owner) override {
    std::lock_guard lock(mu_);
    claims_.Release(ids, owner);
    return Status::Ok();
  }

 private:
  static StoredJudgment ReadRow(sqlite3_stmt* q) {
    auto col = [q](int i) {
      const unsigned char* t = sqlite3_column_text(q, i);
      return std::string(t ? reinterpret_cast<const char*>(t) : "");
    };
    StoredJudgment s;
    s.signal_id = col(0);
    s.spot_id = col(1);
    s.post_id = col(2);
    s.author_id = col(3);
    s.created_at.ms = sqlite3_column_int64(q, 4);
    s.created_at.text = col(5);
    s.text_hash = static_cast<uint64_t>(sqlite3_column_int64(q, 6));
    s.judgment.relevance = ParseRelevance(col(7)).value_or(Relevance::kIrrelevant);
    s.judgment.level = ParseLevel(col(8)).value_or(Level::kUnknown);
    s.judgment.cause = ParseCause(col(9)).value_or(Cause::kNone);
    s.judgment.cause_text = col(10);
    s.judgment.judge = col(11);
    s.judgment.model = col(12);
    s.judgment.prompt_version = col(13);
    s.judged_at = sqlite3_column_int64(q, 14);
    return s;
  }

  Stmt Prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db_.get(), sql, -1, &s, nullptr);
    return Stmt(s);
  }

  Status Exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_.get(), sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "unknown";
      sqlite3_free(err);
      return Status(ErrorCode::kIo, std::string("sqlite: ") + msg);
    }
    return Status::Ok();
  }

  Status Err(const std::string& what) {
    return Status(ErrorCode::kIo, "sqlite " + what + ": " + sqlite3_errmsg(db_.get()));
  }

  Status Rollback(const std::string& what) {
    Status s = Err(what);
    Exec("ROLLBACK");
    return s;
  }

  std::unique_ptr<sqlite3, DbDeleter> db_;
  std::mutex mu_;
  std::string epoch_;
  ClaimTable claims_;
};

}  // namespace

Result<std::unique_ptr<JudgmentStore>> OpenSqliteStore(const std::string& path) {
  auto store = std::make_unique<SqliteStore>();
  if (Status s = store->Open(path); !s.ok()) return s;
  return std::unique_ptr<JudgmentStore>(std::move(store));
}

uint64_t TextHash(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace nunchi
