// Black-box durability: kill -9 the server at random moments while a client
// drives cycles; every judgment that was in a 200 response must be in the
// store afterwards, the backend never sees a STATE_RESET, the epoch stays the
// same and SQLite's integrity_check passes. After each kill, every
// acknowledged judgment has its line in the decision log, and at most one
// line per kill is torn (the reader skips it). NUNCHI_CRASH_KILLS sets the
// number of kills (8 by default; the CTest crash_test_100, label soak, runs 100).
// Also: a store file corrupted under the running server is a new epoch and
// STATE_RESET, never a wrong answer.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "blackbox/cycle.h"
#include "ops/decision_log.h"
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
  size_t torn = 0, log_lines = 0;
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
    // The decision log after this kill: a line for every judgment acknowledged so far.
    std::vector<std::string> lines = ReadDecisionLog(dir + "/decisions.jsonl", &torn);
    log_lines = lines.size();
    std::set<std::string> logged;
    for (const std::string& line : lines) {
      auto j = nlohmann::json::parse(line);
      const std::string outcome = j.value("outcome", "");
      if (outcome == "judged" || outcome == "late") logged.insert(j.value("signal_id", ""));
    }
    size_t missing = 0;
    for (const std::string& id : acknowledged)
      if (!logged.count(id) && ++missing <= 5) ADD_FAILURE() << "no decision line for " << id;
    ASSERT_EQ(missing, 0u) << "acknowledged judgments without a decision line after kill "
                           << round + 1;
    ASSERT_LE(torn, static_cast<size_t>(round + 1)) << "more torn lines than kills";
  }
  EXPECT_EQ(resets, 0);
  EXPECT_EQ(epochs.size(), 1u) << "the epoch never changed across " << kills << " kills";
  EXPECT_GT(cycles_ok, 8);
  std::cout << "cycles acknowledged " << cycles_ok << ", cut by kill " << cycles_cut
            << ", judgments acknowledged " << acknowledged.size() << ", decision lines "
            << log_lines << ", torn lines " << torn << "\n";

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

// Checkpoints the server's WAL into the file through a connection of our own
// (so that the server's page cache is dropped), then overwrites every page but
// the first with garbage: damage SQLite finds at the next read.
void CorruptUnderTheServer(const std::string& path) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 8192u) << "too few rows to corrupt";
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(4096);
  std::string junk(size - 4096, '\0');
  for (size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 131) ^ 0x5a);
  f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

// The spot results of an answer, without what differs between servers.
nlohmann::json Results(const std::string& body) {
  nlohmann::json spots = nlohmann::json::parse(body)["spots"];
  std::sort(spots.begin(), spots.end(),
            [](const auto& a, const auto& b) { return a["spot_id"] < b["spot_id"]; });
  return spots;
}

TEST(Crash, CorruptionUnderARunningServerIsStateResetNeverAWrongAnswer) {
  const std::string dir = TempDir("corrupt-serving");
  Backend be;
  for (int s = 0; s < 3; ++s) be.AddSpot("s" + std::to_string(s), "장소 " + std::to_string(s));
  ServerProcess server(dir);
  auto c = server.Client();
  std::string epoch, post;
  for (int cycle = 0; cycle < 12; ++cycle) {
    for (int s = 0; s < 3; ++s) {
      const std::string spot = "s" + std::to_string(s);
      const std::string p = be.Post(spot, "a" + std::to_string(cycle), "사람 많아요 줄 길어요", 1);
      be.Comment(spot, p, "b" + std::to_string(cycle), "대기 20분이래요 진짜 붐벼요", 0);
      be.Comment(spot, p, "c" + std::to_string(cycle), "한산해요 자리 많음", 0);
      if (s == 1) post = p;
    }
    auto r = PostAnalysis(c, be.Request());
    ASSERT_TRUE(r && r->status == 200) << (r ? r->body : "no answer");
    auto body = nlohmann::json::parse(r->body);
    epoch = body["state_epoch"];
    be.Acknowledge(body);
    be.Advance(1);
  }
  CorruptUnderTheServer(dir + "/judgments.db");
  be.Comment("s1", post, "u9", "줄 없어요 바로 들어감", 0);

  // Incremental cycles: never a 200 from the damaged file. The call that
  // meets the damage is a 503; then the new epoch is STATE_RESET.
  int status = 0, unavailable = 0;
  for (int i = 0; i < 10 && status != 409; ++i) {
    auto r = PostAnalysis(c, be.Request());
    ASSERT_TRUE(r);
    status = r->status;
    ASSERT_TRUE(status == 503 || status == 409) << status << " " << r->body;
    if (status == 503) {
      ++unavailable;
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // the probe interval
    }
  }
  ASSERT_EQ(status, 409) << "the backend was told to resend";
  EXPECT_NE(server.log().find("\"event\":\"store_corrupt\""), std::string::npos) << server.log();
  // The full resend is answered, on a new epoch, with the results a fresh
  // server gives for the same request.
  const nlohmann::json full = be.Request(/*resend_all=*/true);
  auto resend = [&] {
    for (int i = 0;; ++i) {
      auto r = PostAnalysis(c, full);
      if (!r || r->status != 503 || i == 4) return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    }
  };
  auto r = resend();
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_NE(nlohmann::json::parse(r->body)["state_epoch"], epoch);
  ServerProcess fresh(TempDir("corrupt-fresh"));
  auto fc = fresh.Client();
  auto expected = PostAnalysis(fc, full);
  ASSERT_TRUE(expected && expected->status == 200);
  EXPECT_EQ(Results(r->body), Results(expected->body));
  std::cout << "after the corruption: " << unavailable << " answer(s) 503, then 409 STATE_RESET, "
            << "then the full resend 200 with a fresh server's results\n";
}

}  // namespace
}  // namespace nunchi::testing
