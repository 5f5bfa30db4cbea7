// The report of a sweep (`nunchi bench --sweep-*`): sweep.csv, one row per
// point of the grid, and sweep.html, self-contained, with the table and
// charts across the points (latency P50/P95/max, tokens per request, the
// share of judgments the model wrote). Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "bench/load.h"
#include "bench/results.h"

namespace nunchi::bench {

struct SweepPoint {
  std::string label;  // "c5-cap20-reuse-on-bpc4"
  Conditions conditions;
  int bundle_cap = 0;
  Summary summary;
};

std::string SweepCsv(const LoadSpec& load, const std::vector<SweepPoint>& points);
std::string SweepHtml(const LoadSpec& load, const std::vector<SweepPoint>& points);

// Share of the judgments made by a model (any judge but the prefilter, the
// rules and the classifier), 0..1; -1 when no judgment was counted.
double ModelShare(const Summary& s);

}  // namespace nunchi::bench
