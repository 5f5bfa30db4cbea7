// A tiny backend simulator for black-box tests: keeps spots and bundles,
// and builds each cycle's request with the right new_signals and epoch.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "blackbox/server_process.h"

namespace nunchi::testing {

class Backend {
 public:
  // Signal ids are "<prefix>p<n>" / "<prefix>c<n>": unique per backend.
  explicit Backend(long long now_ms = 0, std::string prefix = "")
      : now_ms_(now_ms ? now_ms : WallNow()), prefix_(std::move(prefix)) {}
  static long long WallNow() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void AddSpot(const std::string& id, const std::string& name) {
    spots_[id] = nlohmann::json{{"spot_id", id}, {"name", name}, {"description", name + " 앞"}};
  }
  // Adds a post (new) to a spot; returns its id.
  std::string Post(const std::string& spot, const std::string& author, const std::string& text,
                   int minutes_ago = 1) {
    std::string id = prefix_ + "p" + std::to_string(++seq_);
    bundles_[spot].push_back(
        {{"post_id", id},
         {"post", Sig(id, author, text, minutes_ago)},
         {"comments", nlohmann::json::array()}});
    fresh_.push_back({{"kind", "POST"}, {"signal_id", id}, {"post_id", id}});
    return id;
  }
  std::string Comment(const std::string& spot, const std::string& post_id,
                      const std::string& author, const std::string& text, int minutes_ago = 0) {
    std::string id = prefix_ + "c" + std::to_string(++seq_);
    for (auto& b : bundles_[spot])
      if (b["post_id"] == post_id) b["comments"].push_back(Sig(id, author, text, minutes_ago));
    fresh_.push_back({{"kind", "COMMENT"}, {"signal_id", id}, {"post_id", post_id}});
    return id;
  }
  // The request for this cycle: spots with new signals carry their bundles
  // (only bundles with something new), others only ask for re-aggregation.
  nlohmann::json Request(bool resend_all = false) {
    nlohmann::json spots = nlohmann::json::array();
    std::vector<std::string> fresh_posts;
    for (const auto& f : fresh_) fresh_posts.push_back(f["post_id"]);
    for (auto& [id, spot] : spots_) {
      nlohmann::json s = spot;
      s["bundles"] = nlohmann::json::array();
      for (const auto& b : bundles_[id]) {
        bool has_new = resend_all || std::find(fresh_posts.begin(), fresh_posts.end(),
                                               b["post_id"].get<std::string>()) != fresh_posts.end();
        if (has_new) s["bundles"].push_back(b);
      }
      spots.push_back(s);
    }
    nlohmann::json fresh = fresh_;
    if (resend_all) {
      fresh = nlohmann::json::array();
      for (auto& [id, bs] : bundles_)
        for (const auto& b : bs) {
          fresh.push_back({{"kind", "POST"}, {"signal_id", b["post_id"]}, {"post_id", b["post_id"]}});
          for (const auto& c : b["comments"])
            fresh.push_back({{"kind", "COMMENT"}, {"signal_id", c["signal_id"]},
                             {"post_id", b["post_id"]}});
        }
    }
    nlohmann::json req = {{"analyzed_at", Kst(now_ms_)}, {"spots", spots}, {"new_signals", fresh}};
    if (epoch_) req["state_epoch"] = *epoch_;
    return req;
  }
  // Marks the cycle as answered: remembers the epoch, clears the new list.
  void Acknowledge(const nlohmann::json& response) {
    epoch_ = response["state_epoch"].get<std::string>();
    fresh_.clear();
  }
  void Advance(int minutes) { now_ms_ += minutes * 60'000LL; }
  std::optional<std::string>& epoch() { return epoch_; }
  std::vector<std::string> PendingIds() const {
    std::vector<std::string> ids;
    for (const auto& f : fresh_) ids.push_back(f["signal_id"]);
    return ids;
  }

 private:
  nlohmann::json Sig(const std::string& id, const std::string& author, const std::string& text,
                     int minutes_ago) {
    return {{"signal_id", id},
            {"author_id", author},
            {"created_at", Kst(now_ms_ - minutes_ago * 60'000LL)},
            {"text", text}};
  }
  long long now_ms_;
  std::string prefix_;
  int seq_ = 0;
  std::map<std::string, nlohmann::json> spots_;
  std::map<std::string, std::vector<nlohmann::json>> bundles_;
  nlohmann::json fresh_ = nlohmann::json::array();
  std::optional<std::string> epoch_;
};

inline nlohmann::json SpotOf(const nlohmann::json& resp, const std::string& id) {
  for (const auto& s : resp["spots"])
    if (s["spot_id"] == id) return s;
  return nullptr;
}

// Value of an unlabelled metric line "name value", or of a labelled one when
// `labels` is given verbatim ("{judge=\"rules\"}"); -1 when absent.
double Metric(httplib::Client& c, const std::string& name, const std::string& labels = "");

}  // namespace nunchi::testing
