#include "bench/prom.h"

#include <cstdlib>
#include <sstream>

namespace nunchi::bench {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool Has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

std::string MetricName(const std::string& key) { return key.substr(0, key.find('{')); }

Series ParseMetrics(const std::string& text) {
  Series out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("nunchi_", 0) != 0) continue;
    // The value follows the last space outside the label set.
    size_t close = line.rfind('}');
    size_t space = line.find(' ', close == std::string::npos ? 0 : close);
    if (space == std::string::npos) continue;
    std::string key = line.substr(0, space);
    if (Has(MetricName(key), "_bucket")) continue;
    char* end = nullptr;
    std::string value = line.substr(space + 1);
    double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str()) continue;
    out[key] = v;
  }
  return out;
}

Series CounterDeltas(const Series& before, const Series& after) {
  Series out;
  for (const auto& [key, v] : after) {
    std::string name = MetricName(key);
    if (!EndsWith(name, "_total") && !EndsWith(name, "_sum") && !EndsWith(name, "_count")) continue;
    auto it = before.find(key);
    out[key] = v - (it == before.end() ? 0.0 : it->second);
  }
  return out;
}

double SumOf(const Series& s, const std::string& name) {
  double sum = 0;
  bool any = false;
  for (const auto& [key, v] : s)
    if (MetricName(key) == name) {
      sum += v;
      any = true;
    }
  return any ? sum : -1;
}

TokenFigures ClassifyTokens(const Series& deltas) {
  TokenFigures f;
  auto add = [](double* slot, double v) { *slot = (*slot < 0 ? 0 : *slot) + v; };
  double loops = -1;  // loops stopped: counted only when no degeneration metric exists
  for (const auto& [key, v] : deltas) {
    std::string n = MetricName(key);
    if (!EndsWith(n, "_total")) continue;
    if (Has(n, "degenera")) {
      add(&f.degenerations, v);
    } else if (Has(n, "loop")) {
      add(&loops, v);
    } else if (!Has(n, "token")) {
      continue;
    } else if (Has(n, "forced")) {
      add(&f.forced, v);
    } else if (Has(n, "prefix") || Has(n, "reuse") || Has(n, "cache")) {
      add(&f.reused, v);
    } else if (Has(n, "prefill") || Has(n, "prompt")) {
      add(&f.prefilled, v);
    } else if (Has(n, "generat") || Has(n, "decode") || Has(n, "sampled") || Has(n, "completion") ||
               Has(n, "predicted")) {
      add(&f.generated, v);
    }
  }
  if (f.degenerations < 0) f.degenerations = loops;
  return f;
}

}  // namespace nunchi::bench
