// Black-box durability: kill -9 the server at random moments while a client
// drives cycles; every judgment that was in a 200 response must be in the
// store afterwards, the backend never sees a STATE_RESET, the epoch stays the
// same and SQLite's integrity_check passes. NUNCHI_CRASH_KILLS sets the
// number of kills (8 by default; the CTest crash_test_100, label soak, runs 100).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>

#include <atomic>
#include <random>
#include <set>
#include <thread>

#include "blackbox/cycle.h"
#include "store/judgment_store.h"

namespace nunchi::testing {
namespace {

TEST(Crash, AcknowledgedJudgmentsSurviveKill9) {
  const std::string dir = TempDir("crash");
  Backend be;
  for (int s = 0; s < 3; ++s) be.AddSpot("s" + std::to_string(s), "장소 " + std::to_string(s));
  std::vector<std::pair<std::string, std::string>> posts;  // spot, post id
  std::set<std::string> acknowledged;
  std::mt19937 rng(12345);
  int cycles_ok = 0, cycles_cut = 0, resets = 0;
  const char* texts[] = {"사람 많아요 줄 길어요", "한산해요 자리 많음",    "대기 20분이래요",
                         "여기 진짜 미어터져요",  "줄 없어요 바로 들어감", "ㅋㅋㅋ"};
  int text_no = 0;
  auto next_text = [&] {
    const int n = text_no++;
    return std::string(texts[n % 6]) + " #" + std::to_string(n);
  };

  const char* kills_env = std::getenv("NUNCHI_CRASH_KILLS");
  const int kills = kills_env ? std::max(1, std::atoi(kills_env)) : 8;
  std::set<std::string> epochs;
  for (int round = 0; round < kills; ++round) {
    ServerProcess server(dir);
    std::atomic<bool> stop{false};
    std::thread killer([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(150 + rng() % 400));
      stop = true;
      server.Kill9();
    });
    while (!stop) {
      // Each cycle: a new post somewhere and a few comments on existing posts.
      std::string spot = "s" + std::to_string(rng() % 3);
      posts.push_back({spot, be.Post(spot, "a" + std::to_string(rng() % 50), next_text(), 1)});
      for (int k = 0; k < 3; ++k) {
        auto& [ps, pid] = posts[rng() % posts.size()];
        be.Comment(ps, pid, "a" + std::to_string(rng() % 50), next_text(), 0);
      }
      auto c = server.Client();
      c.set_read_timeout(5, 0);
      std::vector<std::string> pending = be.PendingIds();
      auto r = PostAnalysis(c, be.Request());
      if (!r) {
        ++cycles_cut;
        continue;  // killed mid-request: the backend will resend these as new
      }
      if (r->status == 409) ++resets;
      ASSERT_TRUE(r->status == 200 || r->status == 409) << r->body;
      if (r->status == 200) {
        auto body = nlohmann::json::parse(r->body);
        epochs.insert(body["state_epoch"].get<std::string>());
        be.Acknowledge(body);
        acknowledged.insert(pending.begin(), pending.end());
        ++cycles_ok;
      }
      be.Advance(0);
    }
    killer.join();
  }
  EXPECT_EQ(resets, 0);
  EXPECT_EQ(epochs.size(), 1u) << "the epoch never changed across " << kills << " kills";
  EXPECT_GT(cycles_ok, 8);
  std::cout << "cycles acknowledged " << cycles_ok << ", cut by kill " << cycles_cut
            << ", judgments acknowledged " << acknowledged.size() << "\n";

  auto store = OpenSqliteStore(dir + "/judgments.db");
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  std::vector<std::string> ids(acknowledged.begin(), acknowledged.end());
  auto rows = (*store)->Get(ids);
  ASSERT_TRUE(rows.ok());
  for (const auto& id : ids) EXPECT_EQ(rows->count(id), 1u) << "lost judgment " << id;
  store->reset();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2((dir + "/judgments.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, nullptr);
  ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)), "ok");
  sqlite3_finalize(q);
  sqlite3_close_v2(db);
  std::cout << "kills " << kills << ", integrity_check ok\n";
}

}  // namespace
}  // namespace nunchi::testing
