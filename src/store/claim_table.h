// ClaimTable: the claims of one process, for the stores that one replica owns
// alone (memory, SQLite): signal id -> (owner, expiry). The PostgreSQL store
// keeps its claims in a table instead, shared by every replica.
//
// Thread-safety: none; the owning store calls it under its own mutex.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "domain/time.h"

namespace nunchi {

class ClaimTable {
 public:
  std::vector<std::string> Claim(const std::vector<std::string>& ids, const std::string& owner,
                                 TimeMs now_ms, TimeMs lease_ms) {
    std::vector<std::string> got;
    std::unordered_set<std::string> seen;
    for (const std::string& id : ids) {
      if (!seen.insert(id).second) continue;
      auto it = claims_.find(id);
      if (it != claims_.end() && it->second.owner != owner && it->second.expires_ms > now_ms)
        continue;
      claims_[id] = Entry{owner, now_ms + lease_ms};
      got.push_back(id);
    }
    return got;
  }

  void Release(const std::vector<std::string>& ids, const std::string& owner) {
    for (const std::string& id : ids)
      if (auto it = claims_.find(id); it != claims_.end() && it->second.owner == owner)
        claims_.erase(it);
  }

  // Put() stored this row: whoever claimed it is done with it.
  void Stored(const std::string& id) { claims_.erase(id); }

  // Drops claims expired at now_ms (Prune calls it so the table stays small).
  void Expire(TimeMs now_ms) {
    std::erase_if(claims_, [&](const auto& kv) { return kv.second.expires_ms <= now_ms; });
  }

 private:
  struct Entry {
    std::string owner;
    TimeMs expires_ms = 0;
  };
  std::unordered_map<std::string, Entry> claims_;
};

}  // namespace nunchi
