#include "bench/compare_summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <tuple>

namespace nunchi::bench {
namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Three significant figures or so: 1.23, 12.3, 123.
std::string Times(double v) { return Fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2) + "×"; }

const char* BoundName(Bounded::Bound b) {
  switch (b) {
    case Bounded::kExact:
      return "exact";
    case Bounded::kAtLeast:
      return "at_least";
    case Bounded::kAtMost:
      return "at_most";
    default:
      return "unknown";
  }
}

nlohmann::json BoundedJson(const Bounded& b) {
  return {
      {"value", b.bound == Bounded::kUnknown ? nlohmann::json(nullptr) : nlohmann::json(b.value)},
      {"bound", BoundName(b.bound)}};
}

std::string Backlog(const Summary& s) {
  return !s.backlog_known ? "unknown" : s.backlog_grows ? "grows" : "steady";
}

// Characters on screen (UTF-8 continuation bytes take no column).
size_t Width(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

const RatioFigure* FindRatio(const Comparison& c, const std::string& name) {
  for (const auto& r : c.ratios)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

Bounded CensoredPercentile(const std::vector<CycleResult>& cycles, double p) {
  if (cycles.empty()) return {0, Bounded::kUnknown};
  std::vector<std::pair<double, bool>> v;  // latency, cut; answered ones first on ties
  for (const auto& c : cycles) v.push_back({c.latency_s, c.cut});
  std::sort(v.begin(), v.end());
  const size_t rank = std::clamp<size_t>(
      static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size()))), 1, v.size());
  // A cut cycle at or below the rank could really be anywhere above it.
  const bool censored =
      std::any_of(v.begin(), v.begin() + static_cast<long>(rank), [](auto& x) { return x.second; });
  return {v[rank - 1].first, censored ? Bounded::kAtLeast : Bounded::kExact};
}

ArmFigures MakeArmFigures(std::string arm, std::string title, const Conditions& conditions,
                          const std::vector<CycleResult>& cycles, double interval_s) {
  ArmFigures f;
  f.arm = std::move(arm);
  f.title = std::move(title);
  f.conditions = conditions;
  f.ran = !cycles.empty();
  f.summary = Summarize(cycles, interval_s);
  f.p50 = CensoredPercentile(cycles, 50);
  f.p95 = CensoredPercentile(cycles, 95);
  f.p99 = CensoredPercentile(cycles, 99);
  f.never_in_time = f.ran && f.summary.cut == f.summary.requests;
  return f;
}

Bounded RatioOf(const Bounded& num, const Bounded& den) {
  if (num.bound == Bounded::kUnknown || den.bound == Bounded::kUnknown || den.value <= 0)
    return {0, Bounded::kUnknown};
  // Direction of each side's uncertainty in the ratio: +1 "at least", -1 "at most".
  auto dir = [](Bounded::Bound b) {
    return b == Bounded::kAtLeast ? 1 : b == Bounded::kAtMost ? -1 : 0;
  };
  const int n = dir(num.bound), d = -dir(den.bound);
  if (n != 0 && d != 0 && n != d) return {0, Bounded::kUnknown};
  const int r = n != 0 ? n : d;
  return {num.value / den.value, r > 0   ? Bounded::kAtLeast
                                 : r < 0 ? Bounded::kAtMost
                                         : Bounded::kExact};
}

std::string FormatRatio(const std::string& name, const Bounded& r, const std::string& why) {
  switch (r.bound) {
    case Bounded::kExact:
      return name + " = " + Times(r.value);
    case Bounded::kAtLeast:
      return name + " ≥ " + Times(r.value);
    case Bounded::kAtMost:
      return name + " ≤ " + Times(r.value);
    default:
      return name + ": n/a" + (why.empty() ? "" : " (" + why + ")");
  }
}

std::string FormatLatency(const Bounded& v) {
  switch (v.bound) {
    case Bounded::kExact:
      return Fixed(v.value, 3) + " s";
    case Bounded::kAtLeast:
      return "≥ " + Fixed(v.value, 3) + " s";
    case Bounded::kAtMost:
      return "≤ " + Fixed(v.value, 3) + " s";
    default:
      return "n/a";
  }
}

Comparison Compare(std::vector<ArmFigures> arms) {
  Comparison c;
  c.arms = std::move(arms);
  const ArmFigures* base = nullptr;
  for (const auto& a : c.arms)
    if (a.arm == "a") base = &a;
  for (const auto& a : c.arms) {
    if (a.arm == "a" || base == nullptr) continue;
    for (const auto& [label, num, den] :
         {std::tuple{"P50", &a.p50, &base->p50}, std::tuple{"P95", &a.p95, &base->p95}}) {
      RatioFigure r;
      r.name = a.arm + "/a " + label;
      std::string why;
      if (!base->ran || !a.ran) {
        r.ratio = {0, Bounded::kUnknown};
        why = "(" + std::string(base->ran ? a.arm : "a") + ") did not run";
      } else {
        r.ratio = RatioOf(*num, *den);
        if (r.ratio.bound == Bounded::kUnknown)
          why = den->value <= 0 ? "(a) took no time" : "both censored at the deadline";
      }
      r.text = FormatRatio(r.name, r.ratio, why);
      c.ratios.push_back(std::move(r));
    }
  }
  for (const auto& a : c.arms) {
    const std::string who = "(" + a.arm + ")";
    if (!a.ran) {
      c.notes.push_back(who + " did not run: " + (a.error.empty() ? "no cycle measured" : a.error));
      continue;
    }
    if (!a.error.empty()) c.notes.push_back(who + " stopped early: " + a.error);
    if (a.never_in_time)
      c.notes.push_back(who + " never answered inside the " + Fixed(kDeadlineS, 0) +
                        " s deadline: its latencies are censored at the deadline (where the "
                        "client gave up), so they and its ratios are lower bounds (≥).");
    else if (a.summary.cut > 0)
      c.notes.push_back(who + " got no answer inside the deadline in " +
                        std::to_string(a.summary.cut) + " of " +
                        std::to_string(a.summary.requests) +
                        " requests: percentiles at or above the first of them are lower bounds "
                        "(≥).");
  }
  return c;
}

nlohmann::json CompareJson(const Comparison& c, const nlohmann::json& setup) {
  nlohmann::json j = setup;
  j["arms"] = nlohmann::json::array();
  for (const auto& a : c.arms) {
    const Summary& s = a.summary;
    j["arms"].push_back({{"arm", a.arm},
                         {"title", a.title},
                         {"dir", a.dir},
                         {"ran", a.ran},
                         {"error", a.error},
                         {"conditions", ConditionsJson(a.conditions)},
                         {"summary",
                          {{"cycles", s.cycles},
                           {"requests", s.requests},
                           {"latency_s",
                            {{"p50", BoundedJson(a.p50)},
                             {"p95", BoundedJson(a.p95)},
                             {"p99", BoundedJson(a.p99)},
                             {"max", s.max}}},
                           {"deadline_misses_over_50s", s.deadline_misses},
                           {"cycles_cut_at_deadline", s.cut},
                           {"never_answered_in_time", a.never_in_time},
                           {"spots_ok", s.spots_ok},
                           {"spots_failed", s.spots_failed},
                           {"errors", s.errors},
                           {"backlog", Backlog(s)}}}});
  }
  j["ratios"] = nlohmann::json::object();
  for (const auto& r : c.ratios) {
    nlohmann::json x = BoundedJson(r.ratio);
    x["text"] = r.text;
    j["ratios"][r.name] = x;
  }
  j["notes"] = c.notes;
  return j;
}

std::string CompareCsv(const Comparison& c) {
  std::ostringstream os;
  os << "arm,title,engine,engine_version,quantization,concurrency,output_token_cap,prefix_reuse,"
        "requests,cycles,p50_s,p50_bound,p95_s,p95_bound,p99_s,p99_bound,deadline_misses,"
        "cycles_cut_at_deadline,spots_ok,spots_failed,backlog,p50_to_a,p50_to_a_bound,p95_to_a,"
        "p95_to_a_bound,error\n";
  auto num = [](const Bounded& b) {
    return b.bound == Bounded::kUnknown ? std::string() : Fixed(b.value, 6);
  };
  for (const auto& a : c.arms) {
    const Conditions& k = a.conditions;
    const Summary& s = a.summary;
    os << a.arm << ',' << CsvField(a.title) << ',' << CsvField(k.engine) << ','
       << CsvField(k.engine_version) << ',' << CsvField(k.quantization) << ',' << k.concurrency
       << ','
       << CsvField(k.output_token_cap_note.empty() ? std::to_string(k.output_token_cap)
                                                   : k.output_token_cap_note)
       << ',' << CsvField(k.prefix_reuse) << ',' << s.requests << ',' << s.cycles << ','
       << num(a.p50) << ',' << BoundName(a.p50.bound) << ',' << num(a.p95) << ','
       << BoundName(a.p95.bound) << ',' << num(a.p99) << ',' << BoundName(a.p99.bound) << ','
       << s.deadline_misses << ',' << s.cut << ',' << s.spots_ok << ',' << s.spots_failed << ','
       << Backlog(s);
    for (const char* p : {"P50", "P95"}) {
      const RatioFigure* r = a.arm == "a" ? nullptr : FindRatio(c, a.arm + "/a " + p);
      Bounded one{1, Bounded::kExact};
      const Bounded& v = a.arm == "a" ? one : r ? r->ratio : Bounded{0, Bounded::kUnknown};
      os << ',' << num(v) << ',' << BoundName(v.bound);
    }
    os << ',' << CsvField(a.error) << '\n';
  }
  return os.str();
}

std::string CompareTable(const Comparison& c) {
  std::vector<std::vector<std::string>> rows = {{"arm", "client and engine", "requests", "P50",
                                                 "P95", "P99", "deadline misses", "spots OK/FAILED",
                                                 "backlog"}};
  for (const auto& a : c.arms) {
    const Summary& s = a.summary;
    if (!a.ran) {
      rows.push_back({"(" + a.arm + ")", a.title, "0", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"});
      continue;
    }
    rows.push_back({"(" + a.arm + ")", a.title, std::to_string(s.requests), FormatLatency(a.p50),
                    FormatLatency(a.p95), FormatLatency(a.p99),
                    std::to_string(s.deadline_misses) +
                        (s.cut > 0 ? " (" + std::to_string(s.cut) + " unanswered)" : ""),
                    std::to_string(s.spots_ok) + "/" + std::to_string(s.spots_failed),
                    s.backlog_known ? Backlog(s) : "unknown (< 8 requests)"});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], Width(r[i]));
  std::ostringstream os;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i)
      line += r[i] + (i + 1 == r.size() ? "" : std::string(width[i] - Width(r[i]) + 2, ' '));
    os << line << '\n';
  }
  std::string ratios;
  for (const auto& r : c.ratios) ratios += (ratios.empty() ? "" : "   ") + r.text;
  if (!ratios.empty()) os << ratios << '\n';
  for (const auto& n : c.notes) os << "note: " << n << '\n';
  return os.str();
}

}  // namespace nunchi::bench
