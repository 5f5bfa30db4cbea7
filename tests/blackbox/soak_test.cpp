// Black-box soak: NUNCHI_SOAK_CYCLES (1,000 by default) cycles of a normal
// load back to back, the clock advanced a minute a cycle (time-compressed),
// sampling the server's RSS, open files and threads. Open files and threads
// may not grow after a tenth of the cycles (by more than 2, the connections
// of the moment); RSS may not grow by 5 % or more over the second half. The
// first half is warm-up: the store's two SQLite connections fill their page
// caches (2 MiB each by default) as the table grows; the growth over it is
// printed.
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "blackbox/cycle.h"

namespace nunchi::testing {
namespace {

int CountEntries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return -1;
  int n = 0;
  while (dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') ++n;
  ::closedir(d);
  return n;
}

TEST(Soak, ThousandCyclesGrowNothing) {
  const char* env = std::getenv("NUNCHI_SOAK_CYCLES");
  const int cycles = env ? std::max(20, std::atoi(env)) : 1000;
  ServerProcess server(TempDir("soak"));
  const std::string proc = "/proc/" + std::to_string(server.pid());
  auto c = server.Client();
  c.set_keep_alive(true);
  Backend b;
  for (int s = 0; s < 10; ++s) b.AddSpot("s" + std::to_string(s), "장소 " + std::to_string(s));
  std::vector<std::pair<std::string, std::string>> posts;
  std::mt19937 rng(7);
  const char* texts[] = {"사람 많아요 줄 길어요", "한산해요", "대기 20분", "미어터져요", "ㅋㅋ"};
  long rss0 = 0, rss_half = 0, rss_max = 0;
  int fds0 = 0, threads0 = 0, failed = 0;
  for (int i = 0; i < cycles; ++i) {
    for (int k = 0; k < 3; ++k) {
      std::string spot = "s" + std::to_string(rng() % 10);
      posts.push_back({spot, b.Post(spot, "a" + std::to_string(rng() % 200),
                                    std::string(texts[rng() % 5]) + " " + std::to_string(i), 2)});
    }
    for (int k = 0; k < 6; ++k) {
      const size_t recent = std::min<size_t>(posts.size(), 30);
      auto& [spot, pid] = posts[posts.size() - 1 - rng() % recent];
      b.Comment(spot, pid, "a" + std::to_string(rng() % 200), texts[rng() % 5], 0);
    }
    auto r = PostAnalysis(c, b.Request());
    if (!r || r->status != 200) {
      ++failed;
      continue;
    }
    b.Acknowledge(nlohmann::json::parse(r->body));
    b.Advance(1);
    if (i == cycles / 10) {
      rss0 = server.StatusKiB("VmRSS");
      fds0 = CountEntries(proc + "/fd");
      threads0 = CountEntries(proc + "/task");
    }
    if (i == cycles / 2) rss_half = server.StatusKiB("VmRSS");
    rss_max = std::max(rss_max, server.StatusKiB("VmRSS"));
  }
  const long rss1 = server.StatusKiB("VmRSS");
  const int fds1 = CountEntries(proc + "/fd"), threads1 = CountEntries(proc + "/task");
  std::printf(
      "[ figure ] soak %d cycles: RSS at 10%% %ld, at 50%% %ld, at the end %ld KiB (max %ld); "
      "open files %d -> %d, threads %d -> %d, failed cycles %d\n",
      cycles, rss0, rss_half, rss1, rss_max, fds0, fds1, threads0, threads1, failed);
  EXPECT_EQ(failed, 0);
  EXPECT_LT(double(rss1), 1.05 * double(rss_half));
  EXPECT_LE(fds1, fds0 + 2);
  EXPECT_LE(threads1, threads0 + 2);
}

}  // namespace
}  // namespace nunchi::testing
