// The figures of `nunchi bench --compare`: per arm (a: nunchi with the
// in-process engine, b: the naive llama-server client, c: nunchi through its
// remote backend) the latency percentiles with censoring, deadline misses,
// spots and backlog, and the ratios of the other arms to arm (a) on P50 and
// P95. A cycle that got no answer inside the deadline counts at the latency
// where the client gave up; any percentile at or above it is then only a
// lower bound ("≥"), and ratios carry the bound through ("≥", "≤", or n/a
// when both sides are censored). Written as compare.json, compare.csv and
// the printed table. Plain values and pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/results.h"

namespace nunchi::bench {

// A value that may be known only as a bound.
struct Bounded {
  enum Bound { kExact, kAtLeast, kAtMost, kUnknown };
  double value = 0;
  Bound bound = kExact;
};

struct ArmFigures {
  std::string arm;    // "a", "b" or "c"
  std::string title;  // e.g. "nunchi, in-process llama.cpp"
  std::string dir;    // where the arm's own results are
  bool ran = false;   // it measured at least one cycle
  std::string error;  // why it did not run, or stopped early
  Conditions conditions;
  Summary summary;
  Bounded p50, p95, p99;
  bool never_in_time = false;  // no cycle was answered inside the deadline
};

struct RatioFigure {
  std::string name;  // "b/a P95"
  Bounded ratio;
  std::string text;  // "b/a P95 = 12.3×", "b/a P95 ≥ 12.3×", "b/a P95: n/a (why)"
};

struct Comparison {
  std::vector<ArmFigures> arms;
  std::vector<RatioFigure> ratios;  // b/a and c/a, P50 and P95, for the arms present
  std::vector<std::string> notes;   // censoring and failures, in words
};

// Nearest-rank percentile of the cycles' latencies; a lower bound when a
// cut cycle ranks at or below it.
Bounded CensoredPercentile(const std::vector<CycleResult>& cycles, double p);

// One arm's figures from its cycles (ran = at least one cycle).
ArmFigures MakeArmFigures(std::string arm, std::string title, const Conditions& conditions,
                          const std::vector<CycleResult>& cycles, double interval_s);

// num / den with the bounds carried through.
Bounded RatioOf(const Bounded& num, const Bounded& den);
// "b/a P95 = 12.3×" (≥ or ≤ for bounds; "n/a (why)" when unknown).
std::string FormatRatio(const std::string& name, const Bounded& r, const std::string& why = "");
// "0.421 s", "≥ 50.012 s".
std::string FormatLatency(const Bounded& v);

// The ratios and notes over the arms (in the order given).
Comparison Compare(std::vector<ArmFigures> arms);

// compare.json: `setup` (load, model, threads, concurrency...) plus arms and ratios.
nlohmann::json CompareJson(const Comparison& c, const nlohmann::json& setup);
// compare.csv: one row per arm, with its ratios to (a).
std::string CompareCsv(const Comparison& c);
// The table printed at the end of the run, ratios and notes below it.
std::string CompareTable(const Comparison& c);

}  // namespace nunchi::bench
