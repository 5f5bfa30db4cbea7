// In-memory JudgmentStore for tests: same semantics as the SQLite store,
// nothing durable. A mutex guards the map.
#include <algorithm>
#include <map>
#include <mutex>

#include "store/claim_table.h"
#include "store/judgment_store.h"

namespace nunchi {
namespace {

class MemoryStore final : public JudgmentStore {
 public:
  std::string Epoch() const override { return "e-memory"; }

  Result<std::unordered_map<std::string, StoredJudgment>> Get(
      const std::vector<std::string>& ids) override {
    std::lock_guard lock(mu_);
    std::unordered_map<std::string, StoredJudgment> out;
    for (const auto& id : ids)
      if (auto it = rows_.find(id); it != rows_.end()) out.emplace(id, it->second);
    return out;
  }

  Status Put(const std::vector<StoredJudgment>& rows) override {
    std::lock_guard lock(mu_);
    for (const auto& r : rows) {
      rows_[r.signal_id] = r;
      claims_.Stored(r.signal_id);
    }
    return Status::Ok();
  }

  Status RemoveMissingComments(
      const std::unordered_map<std::string, std::vector<std::string>>& keep_by_post) override {
    std::lock_guard lock(mu_);
    std::erase_if(rows_, [&](const auto& kv) {
      const StoredJudgment& r = kv.second;
      auto it = keep_by_post.find(r.post_id);
      if (it == keep_by_post.end() || r.signal_id == r.post_id) return false;
      return std::find(it->second.begin(), it->second.end(), r.signal_id) == it->second.end();
    });
    return Status::Ok();
  }

  Result<std::vector<Report>> ReportsForSpot(const std::string& spot_id, TimeMs since) override {
    std::lock_guard lock(mu_);
    std::vector<Report> out;
    for (const auto& [id, s] : rows_)
      if (s.spot_id == spot_id && s.created_at.ms >= since)
        out.push_back(Report{s.signal_id, s.author_id, s.created_at, s.judgment.relevance,
                             s.judgment.level, s.judgment.cause, s.judgment.cause_text});
    return out;
  }

  Result<int64_t> Prune(TimeMs cutoff) override {
    std::lock_guard lock(mu_);
    claims_.Expire(cutoff);
    return static_cast<int64_t>(
        std::erase_if(rows_, [&](const auto& kv) { return kv.second.judged_at < cutoff; }));
  }

  int64_t RowCount() override {
    std::lock_guard lock(mu_);
    return static_cast<int64_t>(rows_.size());
  }

  Result<std::vector<StoredJudgment>> LlmLabeledRows() override {
    std::lock_guard lock(mu_);
    std::vector<StoredJudgment> out;
    for (const auto& [id, s] : rows_)
      if (s.judgment.cascade && s.judgment.cascade->outcome == CascadeRecord::Outcome::kLlm &&
          !s.text.empty())
        out.push_back(s);
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.judged_at < b.judged_at; });
    return out;
  }

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
  std::mutex mu_;
  std::map<std::string, StoredJudgment> rows_;
  ClaimTable claims_;
};

}  // namespace

std::unique_ptr<JudgmentStore> NewMemoryStore() { return std::make_unique<MemoryStore>(); }

}  // namespace nunchi
