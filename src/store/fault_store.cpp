#include "store/fault_store.h"

#include <fstream>

namespace nunchi {

FaultInjectingStore::FaultInjectingStore(std::unique_ptr<JudgmentStore> inner,
                                         std::string control_file)
    : inner_(std::move(inner)), control_file_(std::move(control_file)) {}

StoreFault FaultInjectingStore::Current() {
  if (control_file_.empty()) return fault_.load();
  std::ifstream in(control_file_);
  std::string word;
  if (in) in >> word;
  if (word == "disk_full") return StoreFault::kDiskFull;
  if (word == "io_error") return StoreFault::kIoError;
  return StoreFault::kNone;
}

Status FaultInjectingStore::Fail(bool write) {
  const StoreFault f = Current();
  if (f == StoreFault::kNone || (f == StoreFault::kDiskFull && !write)) return Status::Ok();
  injected_.fetch_add(1);
  return Status(ErrorCode::kIo, f == StoreFault::kDiskFull
                                    ? "sqlite: database or disk is full (injected)"
                                    : "sqlite: disk I/O error (injected)");
}

Result<std::unordered_map<std::string, StoredJudgment>> FaultInjectingStore::Get(
    const std::vector<std::string>& ids) {
  if (Status s = Fail(false); !s.ok()) return s;
  return inner_->Get(ids);
}

Status FaultInjectingStore::Put(const std::vector<StoredJudgment>& rows) {
  if (Status s = Fail(true); !s.ok()) return s;
  return inner_->Put(rows);
}

Status FaultInjectingStore::RemoveMissingComments(
    const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) {
  if (Status s = Fail(true); !s.ok()) return s;
  return inner_->RemoveMissingComments(keep_by_post);
}

Result<std::vector<Report>> FaultInjectingStore::ReportsForSpot(const std::string& spot_id,
                                                                TimeMs since_ms) {
  if (Status s = Fail(false); !s.ok()) return s;
  return inner_->ReportsForSpot(spot_id, since_ms);
}

Result<int64_t> FaultInjectingStore::Prune(TimeMs cutoff_ms) {
  if (Status s = Fail(true); !s.ok()) return s;
  return inner_->Prune(cutoff_ms);
}

Result<std::vector<StoredJudgment>> FaultInjectingStore::LlmLabeledRows() {
  if (Status s = Fail(false); !s.ok()) return s;
  return inner_->LlmLabeledRows();
}

Result<std::vector<std::string>> FaultInjectingStore::Claim(
    const std::vector<std::string>& signal_ids, const std::string& owner, TimeMs now_ms,
    TimeMs lease_ms) {
  if (Status s = Fail(true); !s.ok()) return s;
  return inner_->Claim(signal_ids, owner, now_ms, lease_ms);
}

Status FaultInjectingStore::ReleaseClaims(const std::vector<std::string>& signal_ids,
                                          const std::string& owner) {
  if (Status s = Fail(true); !s.ok()) return s;
  return inner_->ReleaseClaims(signal_ids, owner);
}

}  // namespace nunchi
