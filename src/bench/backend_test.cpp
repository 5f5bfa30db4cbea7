#include "bench/backend.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "bench/load.h"

namespace nunchi::bench {
namespace {

nlohmann::json AllOk(const nlohmann::json& req, const std::string& failed = "") {
  nlohmann::json out = {{"state_epoch", "e-1"}, {"spots", nlohmann::json::array()}};
  for (const auto& s : req["spots"])
    out["spots"].push_back(
        {{"spot_id", s["spot_id"]}, {"analysis_status", s["spot_id"] == failed ? "FAILED" : "OK"}});
  return out;
}

TEST(Backend, NormalLoadSendsOneNewSignalPerSpot) {
  LoadSpec load;  // normal defaults
  Backend b(load, "t-", 1'795'944'000'000LL);
  b.History();
  nlohmann::json first = b.Request();
  EXPECT_EQ(first["new_signals"].size(), 6u * 11u);  // 6 bundles of a post and 10 comments
  EXPECT_FALSE(first.contains("state_epoch"));
  b.Acknowledge(AllOk(first));
  EXPECT_EQ(b.pending(), 0u);
  b.Tick();
  nlohmann::json req = b.Request();
  EXPECT_EQ(req["state_epoch"], "e-1");
  EXPECT_EQ(req["new_signals"].size(), 6u);
  EXPECT_EQ(req["spots"].size(), 6u);
  // Every new signal is in a bundle sent with it, whole.
  std::set<std::string> in_bundles;
  for (const auto& s : req["spots"])
    for (const auto& bu : s["bundles"]) {
      EXPECT_EQ(bu["post_id"], bu["post"]["signal_id"]);
      in_bundles.insert(bu["post"]["signal_id"].get<std::string>());
      for (const auto& c : bu["comments"]) in_bundles.insert(c["signal_id"].get<std::string>());
    }
  for (const auto& n : req["new_signals"]) EXPECT_TRUE(in_bundles.count(n["signal_id"]));
}

TEST(Backend, FailedSpotsResendTheirSignalsAndResetResendsAll) {
  LoadSpec load;
  Backend b(load, "t-", 1'795'944'000'000LL);
  b.History();
  b.Acknowledge(AllOk(b.Request()));
  b.Tick();
  auto req = b.Request();
  const std::string failed = req["spots"][0]["spot_id"];
  auto [ok, bad] = b.Acknowledge(AllOk(req, failed));
  EXPECT_EQ(ok, 5);
  EXPECT_EQ(bad, 1);
  EXPECT_EQ(b.pending(), 1u);
  b.Tick();
  EXPECT_EQ(b.Request()["new_signals"].size(), 7u);
  b.Reset();
  auto all = b.Request();
  EXPECT_FALSE(all.contains("state_epoch"));
  EXPECT_GT(all["new_signals"].size(), 60u);
}

TEST(Backend, TrafficOverManyCyclesIsRealistic) {
  LoadSpec load;
  load.new_signals_per_cycle = 30;
  load.hot_spots = 1;
  load.bundles_per_hot_spot = 3;
  load.initial_comments = 20;
  load.bundle_cap = 60;
  load.delete_share = 0.2;
  Backend b(load, "t-", 1'795'944'000'000LL);
  b.History();
  std::map<std::string, std::string> text_of;
  std::set<std::string> texts;
  std::map<std::string, int> reports_by_author;
  size_t max_bundle = 0;
  for (int cycle = 0; cycle < 150; ++cycle) {
    auto req = b.Request();
    for (const auto& s : req["spots"])
      for (const auto& bu : s["bundles"]) {
        max_bundle = std::max(max_bundle, bu["comments"].size());
        std::vector<nlohmann::json> sigs = {bu["post"]};
        for (const auto& c : bu["comments"]) sigs.push_back(c);
        for (const auto& sig : sigs) {
          std::string id = sig["signal_id"], text = sig["text"];
          auto [it, fresh] = text_of.emplace(id, text);
          if (fresh) {
            EXPECT_TRUE(texts.insert(text).second) << "two signals share a text: " << text;
            ++reports_by_author[sig["author_id"]];
          } else {
            EXPECT_EQ(it->second, text);
          }
        }
      }
    b.Acknowledge(AllOk(req));
    b.Tick();
  }
  EXPECT_GT(text_of.size(), 4000u);
  EXPECT_GE(max_bundle, 50u);
  EXPECT_LE(max_bundle, 60u);
  int repeaters = 0;
  for (const auto& [a, n] : reports_by_author) repeaters += n > 1;
  EXPECT_GT(repeaters, 10);
}

TEST(Backend, LoadFilesParse) {
  for (const char* name : {"normal", "peak", "cold"}) {
    LoadSpec s;
    std::string error;
    ASSERT_TRUE(LoadSpecFromFile(std::string(NUNCHI_LOADS_DIR) + "/" + name + ".toml", &s, &error))
        << error;
    EXPECT_EQ(s.name, name);
    EXPECT_EQ(s.spots, 6);
    EXPECT_GE(s.cycles, 100);
    EXPECT_EQ(s.interval_s, 60);  // an integer in the file, read as seconds
    EXPECT_EQ(s.sim_step_s, 60);
  }
  LoadSpec s;
  std::string error;
  EXPECT_FALSE(LoadSpecFromString("spots = 0", &s, &error));
  EXPECT_FALSE(LoadSpecFromString("spots = [", &s, &error));
}

}  // namespace
}  // namespace nunchi::bench
