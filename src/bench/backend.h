// Backend: plays the Spring backend for the benchmark. Keeps spots, open post
// bundles and authors; each Tick() moves simulated time on and adds the
// load's new posts and comments (and now and then deletes a comment); each
// Request() is the contract body for this cycle (DESIGN.md section 1); each
// Acknowledge() applies the answer: OK spots are done, FAILED spots keep their
// signals pending so they are sent as new again, and a 409 makes the next
// request resend every open bundle as new. Texts come from TextGen.
//
// Thread-safety: none; one cycle runner owns it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bench/load.h"
#include "bench/textgen.h"

namespace nunchi::bench {

struct Signal {
  std::string id, author, text;
  long long created_ms = 0;
};

struct Bundle {
  Signal post;
  std::vector<Signal> comments;
  bool open = true;
};

struct SpotState {
  std::string id, name, description;
  std::vector<Bundle> bundles;  // oldest first; closed ones stay until they age out
  std::vector<std::string> authors;
};

class Backend {
 public:
  // `id_prefix` keeps ids unique across runs against the same server.
  Backend(const LoadSpec& load, std::string id_prefix, long long start_ms);

  // Builds the history (bundles with initial comments); all of it is pending.
  void History();
  // One cycle of traffic: simulated time moves on by the load's step.
  void Tick();
  // The body for this cycle.
  nlohmann::json Request() const;
  // Applies a 200 body. Returns {ok spots, failed spots}.
  std::pair<int, int> Acknowledge(const nlohmann::json& response);
  // After a 409 STATE_RESET: forget the epoch and resend all open bundles as new.
  void Reset();

  size_t pending() const { return pending_.size(); }
  size_t texts_issued() const { return gen_.issued(); }
  long long now_ms() const { return now_ms_; }
  const std::vector<SpotState>& spots() const { return spots_; }
  // The pending signal ids of the bundles in the request, by spot id (for the naive client).
  const std::set<std::string>& pending_ids() const { return pending_; }

 private:
  Signal NewSignal(SpotState& spot, bool post, long long created_ms);
  void OpenPost(SpotState& spot, long long created_ms);
  void AddComment(SpotState& spot, long long created_ms);
  void MaybeDelete(SpotState& spot);
  bool BundlePending(const Bundle& b) const;

  LoadSpec load_;
  std::string prefix_;
  long long now_ms_;
  TextGen gen_;
  std::vector<SpotState> spots_;
  std::set<std::string> pending_;
  std::map<std::string, std::string> post_of_;  // signal id -> post id (for new_signals)
  std::optional<std::string> epoch_;
  long long seq_ = 0;
  int next_author_ = 0;
  size_t rr_ = 0;  // round robin over hot spots
};

// ISO 8601 with +09:00 for a ms timestamp.
std::string Kst(long long ms);

}  // namespace nunchi::bench
