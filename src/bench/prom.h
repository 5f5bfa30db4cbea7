// Prometheus text scraping for the benchmark: parses a /metrics body into
// series ("name{labels}" -> value), takes the difference of two scrapes for
// counters, and sorts counter deltas into the figures a cycle reports
// (tokens prefilled, generated, forced, prefix tokens reused, degeneration
// events) by matching metric names, so that any engine's names are read.
// Pure functions; thread-safe.
#pragma once

#include <map>
#include <string>

namespace nunchi::bench {

using Series = std::map<std::string, double>;  // "name{labels}" -> value

// Parses exposition text; skips comments, histogram buckets and non-nunchi series.
Series ParseMetrics(const std::string& text);

// The metric name of a series key ("a_total{x=\"1\"}" -> "a_total").
std::string MetricName(const std::string& key);

// after - before for every counter (`_total`, `_sum`, `_count`) present after.
Series CounterDeltas(const Series& before, const Series& after);

// Sum of every series (gauges included) whose name is `name`, or -1 when absent.
double SumOf(const Series& s, const std::string& name);

// The token and degeneration figures of one cycle, from counter deltas.
// Each figure is -1 when no metric of its kind exists.
struct TokenFigures {
  double prefilled = -1, generated = -1, forced = -1, reused = -1, degenerations = -1;
};
TokenFigures ClassifyTokens(const Series& deltas);

}  // namespace nunchi::bench
