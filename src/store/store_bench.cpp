// store_bench: how fast one replica's store calls go, on SQLite and on a
// throwaway local PostgreSQL (PgTestServer), in the shape a cycle uses them:
// Claim a bundle's new signals, Put their judgments (one transaction per
// bundle), Get the cycle's ids, ReportsForSpot per spot. Prints figures, no
// verdict (docs/scaling.md quotes them).
//
//   store_bench [bundles=2000] [rows_per_bundle=4]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "store/judgment_store.h"
#include "store/pg_test_server.h"

namespace {

using nunchi::JudgmentStore;
using nunchi::StoredJudgment;
using Clock = std::chrono::steady_clock;

double Secs(Clock::time_point a) { return std::chrono::duration<double>(Clock::now() - a).count(); }

void Run(const char* name, JudgmentStore& store, int bundles, int per) {
  auto t0 = Clock::now();
  for (int b = 0; b < bundles; ++b) {
    std::vector<StoredJudgment> rows;
    std::vector<std::string> ids;
    for (int k = 0; k < per; ++k) {
      StoredJudgment r;
      r.signal_id = "b" + std::to_string(b) + "-" + std::to_string(k);
      r.post_id = "b" + std::to_string(b);
      r.spot_id = "s" + std::to_string(b % 60);
      r.author_id = "u";
      r.created_at = {1000 + b, "2026-11-29T18:40:00+09:00"};
      r.judgment.cause_text = "팝업 대기줄";
      r.judgment.judge = "rules";
      r.judged_at = 1000 + b;
      ids.push_back(r.signal_id);
      rows.push_back(std::move(r));
    }
    if (!store.Claim(ids, "bench", 0, 60'000).ok() || !store.Put(rows).ok()) {
      std::fprintf(stderr, "%s: store error\n", name);
      std::exit(1);
    }
  }
  double put = Secs(t0);
  t0 = Clock::now();
  std::vector<std::string> all;
  for (int b = 0; b < bundles; ++b)
    for (int k = 0; k < per; ++k) all.push_back("b" + std::to_string(b) + "-" + std::to_string(k));
  auto got = store.Get(all);
  double get = Secs(t0);
  t0 = Clock::now();
  for (int s = 0; s < 60; ++s) (void)store.ReportsForSpot("s" + std::to_string(s), 0);
  double rep = Secs(t0);
  std::printf(
      "%-10s claim+put: %d bundles x %d rows in %.2f s = %.0f bundles/s, %.0f rows/s | get %zu "
      "ids in %.3f s | 60 ReportsForSpot in %.3f s\n",
      name, bundles, per, put, bundles / put, bundles * per / put, got.ok() ? got->size() : 0, get,
      rep);
}

}  // namespace

int main(int argc, char** argv) {
  int bundles = argc > 1 ? std::atoi(argv[1]) : 2000;
  int per = argc > 2 ? std::atoi(argv[2]) : 4;
  auto dir = std::filesystem::temp_directory_path() / "nunchi-store-bench";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    auto s = nunchi::OpenSqliteStore((dir / "j.db").string());
    if (!s.ok()) return 1;
    Run("sqlite", **s, bundles, per);
  }
  std::filesystem::remove_all(dir);
  nunchi::PgTestServer pg;
  std::string why;
  if (!pg.Start(&why) || !pg.CreateDatabase("bench", &why)) {
    std::fprintf(stderr, "postgres: %s\n", why.c_str());
    return 1;
  }
  auto s = nunchi::OpenPostgresStore(pg.Url("bench"));
  if (!s.ok()) {
    std::fprintf(stderr, "postgres: %s\n", s.status().ToString().c_str());
    return 1;
  }
  Run("postgres", **s, bundles, per);
  return 0;
}
