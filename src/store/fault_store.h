// FaultInjectingStore: a JudgmentStore decorator that makes the store it
// wraps fail as a full disk or a failing device would (LevelDB's
// FaultInjectionTestEnv, at the store interface), for tests of how the
// service notices, reports and recovers from storage faults.
//
// The fault is set in code (Set) or, for black-box tests of the real binary,
// read from a control file before every call: the file holds "disk_full" or
// "io_error"; absent or anything else means no fault.
//
// Thread-safety: as the wrapped store; Set() may be called from any thread.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "store/judgment_store.h"

namespace nunchi {

enum class StoreFault {
  kNone,
  kDiskFull,  // writes fail ("database or disk is full"); reads work
  kIoError,   // every call fails ("disk I/O error")
};

class FaultInjectingStore final : public JudgmentStore {
 public:
  explicit FaultInjectingStore(std::unique_ptr<JudgmentStore> inner, std::string control_file = "");

  void Set(StoreFault fault) { fault_.store(fault); }
  // Calls that failed because of an injected fault.
  uint64_t injected() const { return injected_.load(); }

  std::string Epoch() const override { return inner_->Epoch(); }
  Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& signal_ids) override;
  Status Put(const std::vector<StoredJudgment>& rows) override;
  Status RemoveMissingComments(
      const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) override;
  Result<std::vector<Report>> ReportsForSpot(const std::string& spot_id, TimeMs since_ms) override;
  Result<int64_t> Prune(TimeMs cutoff_ms) override;
  int64_t RowCount() override { return inner_->RowCount(); }
  Result<std::vector<StoredJudgment>> LlmLabeledRows() override;
  Result<std::vector<std::string>> Claim(const std::vector<std::string>& signal_ids,
                                         const std::string& owner, TimeMs now_ms,
                                         TimeMs lease_ms) override;
  Status ReleaseClaims(const std::vector<std::string>& signal_ids,
                       const std::string& owner) override;

 private:
  StoreFault Current();
  Status Fail(bool write);  // OK when the current fault spares this call

  std::unique_ptr<JudgmentStore> inner_;
  std::string control_file_;
  std::atomic<StoreFault> fault_{StoreFault::kNone};
  std::atomic<uint64_t> injected_{0};
};

}  // namespace nunchi
