#include "bench/sweep_report.h"

#include <algorithm>
#include <sstream>

#include "bench/html_report.h"
#include "bench/svg_plot.h"

namespace nunchi::bench {
namespace {

using svg::F;

std::string Count(double v) {
  return v < 0 ? std::string("n/a") : std::to_string(static_cast<long long>(v));
}

// A per-request figure, -1 when not exported.
double PerRequest(double total, const Summary& s) {
  return total < 0 || s.requests == 0 ? -1 : total / s.requests;
}

std::string Cell(const std::string& v) { return "<td>" + HtmlEscape(v) + "</td>"; }

}  // namespace

double ModelShare(const Summary& s) {
  double all = 0, model = 0;
  for (const auto& [judge, n] : s.judged_by) {
    all += n;
    if (judge != "prefilter" && judge != "rules" && judge != "classifier" && judge != "default")
      model += n;
  }
  return all > 0 ? model / all : -1;
}

std::string SweepCsv(const LoadSpec& load, const std::vector<SweepPoint>& points) {
  std::ostringstream os;
  os << "label,load,concurrency,bundle_cap,prefix_reuse,bundles_per_call,cycles,requests,p50_s,"
        "p95_s,p99_s,max_s,deadline_misses,spots_ok,spots_failed,backlog_grows,tokens_prefilled,"
        "tokens_generated,prefix_tokens_reused,model_share,judged_by,route\n";
  for (const SweepPoint& p : points) {
    const Summary& s = p.summary;
    const double share = ModelShare(s);
    os << CsvField(p.label) << ',' << CsvField(load.name) << ',' << p.conditions.concurrency << ','
       << p.bundle_cap << ',' << CsvField(p.conditions.prefix_reuse) << ','
       << p.conditions.bundles_per_call << ',' << s.cycles << ',' << s.requests << ',' << s.p50
       << ',' << s.p95 << ',' << s.p99 << ',' << s.max << ',' << s.deadline_misses << ','
       << s.spots_ok << ',' << s.spots_failed << ','
       << (s.backlog_known ? (s.backlog_grows ? "true" : "false") : "unknown") << ','
       << Count(s.tokens_prefilled) << ',' << Count(s.tokens_generated) << ','
       << Count(s.tokens_reused) << ',' << (share < 0 ? "n/a" : F(share, 3)) << ','
       << CsvField(JudgedByText(s)) << ',' << CsvField(p.conditions.route) << '\n';
  }
  return os.str();
}

std::string SweepHtml(const LoadSpec& load, const std::vector<SweepPoint>& points) {
  std::ostringstream os;
  os << HtmlHead("nunchi bench sweep: " + load.name) << "<h1>nunchi bench sweep — load <code>"
     << HtmlEscape(load.name) << "</code></h1>\n<p>" << HtmlEscape(load.description) << "</p>\n<p>"
     << points.size()
     << " points, each against a fresh server; every point's own report is in its folder.</p>\n";
  if (!points.empty()) {
    const Conditions& c = points.front().conditions;
    if (c.random_weights)
      os << "<p class='warn'><b>The model is a generated model with random weights</b>: its "
            "output length and decode times are not those of a trained model.</p>\n";
    os << "<p>Engine: " << HtmlEscape(c.engine)
       << (c.engine_version.empty() ? "" : " (" + HtmlEscape(c.engine_version) + ")")
       << "; quantization " << HtmlEscape(c.quantization) << "; model "
       << HtmlEscape(c.model_file.empty() ? "none"
                                          : c.model_file + " (fnv1a64 " + c.model_hash + ")")
       << "; output token cap "
       << HtmlEscape(c.output_token_cap > 0 ? std::to_string(c.output_token_cap) : "n/a")
       << ".</p>\n";
  }
  os << "<table>\n<tr><th>point</th><th>concurrency</th><th>bundle cap</th><th>prefix "
        "reuse</th><th>bundles per call</th><th>cycles (requests)</th><th>P50 / P95 / P99 / max "
        "(s)</th><th>misses</th><th>spots OK / FAILED</th><th>backlog</th><th>prefilled / reused "
        "/ generated per request</th><th>judged by</th></tr>\n";
  for (const SweepPoint& p : points) {
    const Summary& s = p.summary;
    const Conditions& c = p.conditions;
    os << "<tr>" << Cell(p.label)
       << Cell(c.concurrency > 0 ? std::to_string(c.concurrency) : "default")
       << Cell(std::to_string(p.bundle_cap)) << Cell(c.prefix_reuse)
       << Cell(c.bundles_per_call > 0 ? std::to_string(c.bundles_per_call) : "1")
       << Cell(std::to_string(s.cycles) + " (" + std::to_string(s.requests) + ")")
       << Cell(F(s.p50, 2) + " / " + F(s.p95, 2) + " / " + F(s.p99, 2) + " / " + F(s.max, 2))
       << Cell(std::to_string(s.deadline_misses))
       << Cell(std::to_string(s.spots_ok) + " / " + std::to_string(s.spots_failed))
       << Cell(!s.backlog_known  ? "unknown"
               : s.backlog_grows ? "GROWS"
                                 : "steady")
       << Cell(Count(PerRequest(s.tokens_prefilled, s)) + " / " +
               Count(PerRequest(s.tokens_reused, s)) + " / " +
               Count(PerRequest(s.tokens_generated, s)))
       << Cell(JudgedByText(s).empty() ? "n/a" : JudgedByText(s)) << "</tr>\n";
  }
  os << "</table>\n";

  std::vector<std::string> labels;
  std::vector<double> p50, p95, max, prefilled, reused, generated, share;
  double ymax = 0, tmax = 0;
  for (const SweepPoint& p : points) {
    const Summary& s = p.summary;
    labels.push_back(p.label.empty() ? "run" : p.label);
    p50.push_back(s.p50), p95.push_back(s.p95), max.push_back(s.max);
    ymax = std::max(ymax, s.max);
    prefilled.push_back(PerRequest(s.tokens_prefilled, s));
    reused.push_back(PerRequest(s.tokens_reused, s));
    generated.push_back(PerRequest(s.tokens_generated, s));
    tmax = std::max({tmax, prefilled.back(), reused.back(), generated.back()});
    const double m = ModelShare(s);
    share.push_back(m < 0 ? -1 : 100 * m);
  }
  svg::Plot lat("Latency per point (seconds per request)", labels, std::max(ymax, 50.0), "point",
                "seconds");
  lat.GroupBars(p50, 0, 3, "#1f77b4", "P50");
  lat.GroupBars(p95, 1, 3, "#ff7f0e", "P95");
  lat.GroupBars(max, 2, 3, "#7f7f7f", "max");
  lat.HLine(50, "#d62728", "50 s deadline", 3);
  os << lat.Done();
  if (tmax > 0) {
    svg::Plot tok("Tokens per request", labels, tmax, "point", "tokens");
    tok.GroupBars(prefilled, 0, 3, "#1f77b4", "prefilled (computed)");
    tok.GroupBars(reused, 1, 3, "#ff7f0e", "prefix reused");
    tok.GroupBars(generated, 2, 3, "#2ca02c", "generated");
    os << tok.Done();
  }
  if (std::any_of(share.begin(), share.end(), [](double v) { return v >= 0; })) {
    svg::Plot judged("Judgments the model wrote (the rest: rules, classifier)", labels, 100,
                     "point", "% of judgments");
    judged.GroupBars(share, 0, 1, "#9467bd", "by the model");
    os << judged.Done();
  }
  os << "</body></html>\n";
  return os.str();
}

}  // namespace nunchi::bench
