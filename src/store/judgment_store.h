// JudgmentStore: the durable record of every judged signal, and the state
// epoch the backend echoes back. One row per signal: where it belongs (spot,
// post, author), when it was written, a hash of its text, the judgment and who
// made it. A Put() that returned OK is durable (it survives kill -9).
//
// Thread-safety: all methods may be called from any thread; implementations
// serialise access internally. Errors come back as Status (kIo).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "domain/aggregation.h"
#include "domain/contract.h"
#include "domain/status.h"

namespace nunchi {

struct StoredJudgment {
  std::string signal_id;
  std::string spot_id;
  std::string post_id;
  std::string author_id;
  Timestamp created_at;
  uint64_t text_hash = 0;
  Judgment judgment;
  TimeMs judged_at = 0;
  // The signal's text, kept only when serve runs with --keep-texts (the
  // backend's texts are not ours to keep otherwise); empty when not kept.
  std::string text = std::string();
};

class JudgmentStore {
 public:
  virtual ~JudgmentStore() = default;

  // The epoch of this store; a new or replaced store has a new one.
  virtual std::string Epoch() const = 0;

  // Stored rows for the given ids (missing ids are simply absent).
  virtual Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& signal_ids) = 0;

  // Inserts or replaces rows atomically and durably.
  virtual Status Put(const std::vector<StoredJudgment>& rows) = 0;

  // For each post id, deletes its stored comments that are not in keep.
  // Used when a bundle is resent without some of its comments.
  virtual Status RemoveMissingComments(
      const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) = 0;

  // Reports of one spot whose signal was written at or after since_ms.
  virtual Result<std::vector<Report>> ReportsForSpot(const std::string& spot_id,
                                                     TimeMs since_ms) = 0;

  // Deletes rows judged before cutoff_ms; returns how many.
  virtual Result<int64_t> Prune(TimeMs cutoff_ms) = 0;

  virtual int64_t RowCount() = 0;

  // Rows whose counting judgment the LLM made on a cascade escalation
  // (CascadeRecord outcome kLlm) and whose text was kept, oldest judged
  // first: the training examples `nunchi export-labels` writes.
  virtual Result<std::vector<StoredJudgment>> LlmLabeledRows() = 0;

  // Claims signals for `owner` (one replica) until now_ms + lease_ms, so that
  // another replica sharing this store does not judge them as well. Returns
  // the ids claimed by this call: those free, expired, or already held by
  // owner (whose lease is renewed); ids under another owner's live lease are
  // left out. Put() releases the claims on the rows it stores.
  virtual Result<std::vector<std::string>> Claim(const std::vector<std::string>& signal_ids,
                                                 const std::string& owner, TimeMs now_ms,
                                                 TimeMs lease_ms) = 0;

  // Releases owner's claims on these ids (a judging that failed or was cut).
  virtual Status ReleaseClaims(const std::vector<std::string>& signal_ids,
                               const std::string& owner) = 0;
};

// Opens (creating if needed) the SQLite store at path, in WAL mode with full
// fsync on commit.
Result<std::unique_ptr<JudgmentStore>> OpenSqliteStore(const std::string& path);

// Opens the PostgreSQL store at a libpq URL (postgres://... or
// postgresql://...), creating or migrating its schema; several replicas may
// share one database (store/postgres_store.cpp).
Result<std::unique_ptr<JudgmentStore>> OpenPostgresStore(const std::string& url);

// True when `store` names a PostgreSQL URL rather than a file path.
bool IsPostgresUrl(std::string_view store);

// A store kept in memory only, for tests.
std::unique_ptr<JudgmentStore> NewMemoryStore();

// A stable 64-bit hash of a signal's text (FNV-1a), stored to detect edits.
uint64_t TextHash(std::string_view text);

}  // namespace nunchi
