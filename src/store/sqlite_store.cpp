// SQLite implementation of JudgmentStore. One connection guarded by a mutex;
// WAL journal, synchronous=FULL, so a committed Put survives a crash.
// Schema versions (PRAGMA user_version): 0 the first; 1 adds
// relevance_confidence and level_confidence (REAL, -1 when not measured);
// 2 adds cascade (the CascadeRecord, domain/cascade_codec.h, '' when none) and
// text ('' unless kept); migrated in place on open.
//
// Corruption: a file that fails quick_check at open is refused (serve moves
// it aside). Corruption SQLite reports while serving (SQLITE_CORRUPT,
// SQLITE_NOTADB on any call) fails that call with kIo, then, once the call's
// statements are finalized, the store moves the file and its -wal and -shm
// aside (judgments.db.corrupt-<unix time>[-n]), logs store_corrupt and opens a
// new, empty file with a new epoch. The service then answers STATE_RESET and
// the backend's full resend is judged again; nothing is read from the
// damaged file after the call that found the damage.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "domain/cascade_codec.h"
#include "ops/log.h"
#include "store/claim_table.h"
#include "store/judgment_store.h"
#include "store/row_format.h"

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
  judged_at_ms INTEGER NOT NULL,
  relevance_confidence REAL NOT NULL DEFAULT -1,
  level_confidence REAL NOT NULL DEFAULT -1,
  cascade TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS judgments_spot ON judgments (spot_id, created_at_ms);
CREATE INDEX IF NOT EXISTS judgments_post ON judgments (post_id);
CREATE INDEX IF NOT EXISTS judgments_judged ON judgments (judged_at_ms);
)sql";

constexpr int kSchemaVersion = 2;

constexpr const char* kColumns = store_detail::kJudgmentColumns;

struct StmtDeleter {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtDeleter>;
struct DbDeleter {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

using store_detail::NewEpoch;

class SqliteStore final : public JudgmentStore {
 public:
  Status Open(const std::string& path) {
    path_ = path;
    sqlite3* raw = nullptr;
    int rc =
        sqlite3_open_v2(path.c_str(), &raw,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) return Err("open " + path);
    sqlite3_busy_timeout(db_.get(), 5000);
    if (Status s = Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"); !s.ok()) return s;
    if (Status s = Exec(kSchema); !s.ok()) return s;
    if (Status s = Migrate(); !s.ok()) return s;
    // A damaged file is refused here rather than answered from (kIo with
    // "corrupt" in the message; serve moves it aside and starts a new epoch).
    if (Stmt check = Prepare("PRAGMA quick_check");
        !check || sqlite3_step(check.get()) != SQLITE_ROW ||
        std::string(reinterpret_cast<const char*>(sqlite3_column_text(check.get(), 0))) != "ok")
      return Status(ErrorCode::kIo, "sqlite corrupt store " + path + ": quick_check failed");
    // A second, read-only connection for RowCount (/metrics), so that a count
    // never waits on the mutex every fsync'd write holds (WAL: readers do
    // not block the writer).
    sqlite3* counter = nullptr;
    if (sqlite3_open_v2(path.c_str(), &counter, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                        nullptr) == SQLITE_OK) {
      sqlite3_busy_timeout(counter, 1000);
      std::lock_guard count_lock(count_mu_);
      count_db_.reset(counter);
    } else {
      sqlite3_close_v2(counter);
    }
    Stmt q = Prepare("SELECT value FROM meta WHERE key='epoch'");
    if (!q) return Err("prepare");
    std::string epoch;
    if (sqlite3_step(q.get()) == SQLITE_ROW) {
      epoch = reinterpret_cast<const char*>(sqlite3_column_text(q.get(), 0));
    } else {
      epoch = NewEpoch();
      Stmt ins = Prepare("INSERT INTO meta(key, value) VALUES('epoch', ?)");
      sqlite3_bind_text(ins.get(), 1, epoch.c_str(), -1, SQLITE_TRANSIENT);
      if (sqlite3_step(ins.get()) != SQLITE_DONE) return Err("store epoch");
    }
    std::lock_guard epoch_lock(epoch_mu_);
    epoch_ = std::move(epoch);
    return Status::Ok();
  }

  // From here on, corruption that SQLite reports starts a new store.
  void StartServing() { serving_ = true; }

  std::string Epoch() const override {
    std::lock_guard lock(epoch_mu_);
    return epoch_;
  }

  Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& ids) override {
    std::lock_guard lock(mu_);
    RecoverAfter recover{this};  // declared before the statements: runs after them
    std::unordered_map<std::string, StoredJudgment> out;
    Stmt q = Prepare(
        ("SELECT " + std::string(kColumns) + " FROM judgments WHERE signal_id = ?").c_str());
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
    RecoverAfter recover{this};  // declared before the statements: runs after them
    if (Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    Stmt ins = Prepare(("INSERT OR REPLACE INTO judgments (" + std::string(kColumns) +
                        ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
                           .c_str());
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
      sqlite3_bind_double(ins.get(), 16, r.judgment.relevance_confidence);
      sqlite3_bind_double(ins.get(), 17, r.judgment.level_confidence);
      text(18, EncodeCascadeRecord(r.judgment.cascade));
      text(19, r.text);
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
    RecoverAfter recover{this};  // declared before the statements: runs after them
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
    RecoverAfter recover{this};  // declared before the statements: runs after them
    Stmt q = Prepare(("SELECT " + std::string(kColumns) +
                      " FROM judgments WHERE spot_id = ? AND created_at_ms >= ?")
                         .c_str());
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
    RecoverAfter recover{this};  // declared before the statements: runs after them
    claims_.Expire(cutoff);
    Stmt q = Prepare("DELETE FROM judgments WHERE judged_at_ms < ?");
    sqlite3_bind_int64(q.get(), 1, cutoff);
    if (sqlite3_step(q.get()) != SQLITE_DONE) return Err("prune");
    return static_cast<int64_t>(sqlite3_changes(db_.get()));
  }

  Result<std::vector<StoredJudgment>> LlmLabeledRows() override {
    std::lock_guard lock(mu_);
    RecoverAfter recover{this};  // declared before the statements: runs after them
    Stmt q = Prepare((std::string("SELECT ") + kColumns +
                      " FROM judgments WHERE cascade LIKE 'llm|%' AND text != '' "
                      "ORDER BY judged_at_ms")
                         .c_str());
    if (!q) return Err("prepare llm rows");
    std::vector<StoredJudgment> out;
    int rc;
    while ((rc = sqlite3_step(q.get())) == SQLITE_ROW) out.push_back(ReadRow(q.get()));
    if (rc != SQLITE_DONE) return Err("llm rows");
    return out;
  }

  int64_t RowCount() override {
    std::unique_lock lock(count_mu_);
    if (!count_db_) return -1;
    sqlite3_stmt* raw = nullptr;
    sqlite3_prepare_v2(count_db_.get(), "SELECT COUNT(*) FROM judgments", -1, &raw, nullptr);
    Stmt q(raw);
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
    s.judgment.relevance_confidence = sqlite3_column_double(q, 15);
    s.judgment.level_confidence = sqlite3_column_double(q, 16);
    s.judgment.cascade = DecodeCascadeRecord(col(17));
    s.text = col(18);
    return s;
  }

  // Brings a store written by an older nunchi to kSchemaVersion.
  Status Migrate() {
    Stmt v = Prepare("PRAGMA user_version");
    if (!v || sqlite3_step(v.get()) != SQLITE_ROW) return Err("read schema version");
    int version = sqlite3_column_int(v.get(), 0);
    v.reset();
    if (version >= kSchemaVersion) return Status::Ok();
    // The table may predate columns added later (CREATE IF NOT EXISTS kept it).
    struct Added {
      const char* name;
      const char* ddl;
    };
    static constexpr Added kAdded[] = {
        {"relevance_confidence",
         "ALTER TABLE judgments ADD COLUMN relevance_confidence REAL NOT NULL DEFAULT -1"},  // v1
        {"level_confidence",
         "ALTER TABLE judgments ADD COLUMN level_confidence REAL NOT NULL DEFAULT -1"},    // v1
        {"cascade", "ALTER TABLE judgments ADD COLUMN cascade TEXT NOT NULL DEFAULT ''"},  // v2
        {"text", "ALTER TABLE judgments ADD COLUMN text TEXT NOT NULL DEFAULT ''"},        // v2
    };
    std::vector<std::string> have;
    Stmt cols = Prepare("PRAGMA table_info(judgments)");
    while (cols && sqlite3_step(cols.get()) == SQLITE_ROW) {
      const unsigned char* name = sqlite3_column_text(cols.get(), 1);
      if (name) have.emplace_back(reinterpret_cast<const char*>(name));
    }
    cols.reset();
    if (Status s = Exec("BEGIN IMMEDIATE"); !s.ok()) return s;
    for (const Added& a : kAdded) {
      if (std::find(have.begin(), have.end(), a.name) != have.end()) continue;
      if (Status s = Exec(a.ddl); !s.ok()) {
        Exec("ROLLBACK");
        return s;
      }
    }
    if (Status s = Exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
        !s.ok()) {
      Exec("ROLLBACK");
      return s;
    }
    return Exec("COMMIT");
  }

  Stmt Prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db_.get(), sql, -1, &s, nullptr);
    return Stmt(s);
  }

  Status Exec(const char* sql) {
    char* err = nullptr;
    if (int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &err); rc != SQLITE_OK) {
      std::string msg = err ? err : "unknown";
      sqlite3_free(err);
      if (NoteCorrupt(rc)) return Status(ErrorCode::kIo, "sqlite corrupt store: " + msg);
      return Status(ErrorCode::kIo, std::string("sqlite: ") + msg);
    }
    return Status::Ok();
  }

  Status Err(const std::string& what) {
    const std::string msg = sqlite3_errmsg(db_.get());
    if (NoteCorrupt(sqlite3_errcode(db_.get())))
      return Status(ErrorCode::kIo, "sqlite corrupt store (" + what + "): " + msg +
                                        "; starting a new store with a new epoch");
    return Status(ErrorCode::kIo, "sqlite " + what + ": " + msg);
  }

  // True (and a new store due after the call) when rc says the file is damaged.
  bool NoteCorrupt(int rc) {
    const int primary = rc & 0xff;
    if (!serving_ || (primary != SQLITE_CORRUPT && primary != SQLITE_NOTADB)) return false;
    if (corrupt_.empty()) corrupt_ = sqlite3_errstr(rc);
    return true;
  }

  // Runs at the end of a public call (mu_ held, the call's statements gone):
  // when the call met corruption, replaces the file with a new store.
  struct RecoverAfter {
    SqliteStore* store;
    ~RecoverAfter() {
      if (!store->corrupt_.empty()) store->StartOver();
    }
  };

  void StartOver() {
    const std::string error = std::move(corrupt_);
    corrupt_.clear();
    // Aside first, then close: closing the last connection deletes the -wal
    // and -shm by name, which by then are the moved files' old names.
    std::string aside = path_ + ".corrupt-" + std::to_string(std::time(nullptr));
    for (int n = 1; std::filesystem::exists(aside); ++n)
      aside = path_ + ".corrupt-" + std::to_string(std::time(nullptr)) + "-" + std::to_string(n);
    std::error_code ec;
    for (const char* ext : {"", "-wal", "-shm"})
      if (std::filesystem::exists(path_ + ext))
        std::filesystem::rename(path_ + ext, aside + ext, ec);
    {
      std::lock_guard count_lock(count_mu_);
      count_db_.reset();
    }
    db_.reset();
    serving_ = false;
    const std::string old_epoch = Epoch();
    Status s = Open(path_);
    serving_ = true;
    LogEvent(LogLevel::kError, "store_corrupt", error,
             {{"moved_to", aside},
              {"old_epoch", old_epoch},
              {"new_epoch", s.ok() ? Epoch() : std::string()},
              {"reopen", s.ok() ? std::string("ok") : s.ToString()}});
  }

  Status Rollback(const std::string& what) {
    Status s = Err(what);
    Exec("ROLLBACK");
    return s;
  }

  std::string path_;
  std::unique_ptr<sqlite3, DbDeleter> db_;  // guarded by mu_
  std::mutex mu_;
  std::unique_ptr<sqlite3, DbDeleter> count_db_;  // read-only, for RowCount
  std::mutex count_mu_;
  mutable std::mutex epoch_mu_;
  std::string epoch_;     // guarded by epoch_mu_: a new store changes it
  bool serving_ = false;  // guarded by mu_ once serving
  std::string corrupt_;   // guarded by mu_: the damage the current call met
  ClaimTable claims_;
};

}  // namespace

Result<std::unique_ptr<JudgmentStore>> OpenSqliteStore(const std::string& path) {
  auto store = std::make_unique<SqliteStore>();
  if (Status s = store->Open(path); !s.ok()) return s;
  store->StartServing();
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
