// The self-contained HTML report of one benchmark run: conditions, summary
// table and three inline SVG plots (latency CDF, per-cycle timeline with the
// 50 s deadline and the start lag, tokens or signals per cycle). No script,
// no external resource. Pure function; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "bench/results.h"

namespace nunchi::bench {

std::string HtmlReport(const LoadSpec& load, const Conditions& c, const Summary& s,
                       const std::vector<CycleResult>& cycles);

// Escapes text for HTML.
std::string HtmlEscape(const std::string& s);

}  // namespace nunchi::bench
