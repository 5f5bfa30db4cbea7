// The self-contained HTML report of one benchmark run: conditions, summary
// table and three inline SVG plots (latency CDF, per-cycle timeline with the
// 50 s deadline and the start lag, tokens or signals per cycle), and the
// comparison report of several arms. No script, no external resource. Pure
// functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "bench/compare_summary.h"
#include "bench/results.h"

namespace nunchi::bench {

std::string HtmlReport(const LoadSpec& load, const Conditions& c, const Summary& s,
                       const std::vector<CycleResult>& cycles);

// The comparison report of `nunchi bench --compare` (compare.html): the
// setup, one row per arm, the ratios to (a) and an overlaid latency CDF.
// `cycles[i]` are the cycles of `c.arms[i]`.
std::string CompareHtml(const Comparison& c, const LoadSpec& load, const nlohmann::json& setup,
                        const std::vector<std::vector<CycleResult>>& cycles);

// The page head (title, the shared style) up to and including <body>.
std::string HtmlHead(const std::string& title);

// Escapes text for HTML.
std::string HtmlEscape(const std::string& s);

}  // namespace nunchi::bench
