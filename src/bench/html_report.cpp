#include "bench/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bench/svg_plot.h"

namespace nunchi::bench {
namespace {

using svg::F;
using svg::Plot;

using svg::Axis;
using svg::Scale;

// The empirical CDF as a step line from (0, 0) to the axis' right end at 1,
// so it reaches both axes.
std::vector<std::pair<double, double>> CdfPoints(std::vector<double> lat, double x_end) {
  std::sort(lat.begin(), lat.end());
  std::vector<std::pair<double, double>> pts = {{0, 0}};
  for (size_t i = 0; i < lat.size(); ++i)
    pts.push_back({lat[i], static_cast<double>(i + 1) / static_cast<double>(lat.size())});
  if (!lat.empty()) pts.push_back({x_end, 1});
  return pts;
}

std::string Cdf(const std::vector<CycleResult>& cycles) {
  std::vector<double> lat;
  for (const auto& c : cycles) lat.push_back(c.latency_s);
  const double xmax = lat.empty() ? 1 : *std::max_element(lat.begin(), lat.end());
  Plot p("Latency CDF (per cycle)", xmax, 1, Axis("latency", Scale::kSeconds),
         "fraction of cycles");
  p.Line(CdfPoints(lat, p.x_max()), "#1f77b4", "cycles at or under this latency", 0, true);
  return p.Done();
}

// Per-cycle plots number cycles from 1, so a line over them spans the axis.
double CycleNo(size_t i) { return static_cast<double>(i + 1); }

std::string Timeline(const std::vector<CycleResult>& cycles) {
  double ymax = 0;
  std::vector<double> lat;
  std::vector<std::pair<double, double>> lag;
  for (size_t i = 0; i < cycles.size(); ++i) {
    lat.push_back(cycles[i].latency_s);
    lag.push_back({CycleNo(i), cycles[i].start_lag_s});
    ymax = std::max({ymax, cycles[i].latency_s, cycles[i].start_lag_s});
  }
  // One bar per cycle, centred on its number: the axis runs half a bar past both ends.
  const double n = static_cast<double>(std::max<size_t>(cycles.size(), 1));
  Plot p("Per-cycle timeline", 0.5, n + 0.5, ymax, Axis("cycle (request)", Scale::kCount),
         Axis("time", Scale::kSeconds));
  p.Bars(1, lat, "#1f77b4", "latency");
  p.Line(lag, "#ff7f0e", "start lag behind schedule");
  p.HLine(50, "#d62728", "50 s deadline");
  std::string svg = p.Done();
  int cold = 0, fail = 0;
  for (const auto& c : cycles) cold += c.cold, fail += c.spots_failed;
  return svg + "<p>" + std::to_string(cold) + " cold cycles, " + std::to_string(fail) +
         " FAILED spots in all.</p>\n";
}

std::string Tokens(const std::vector<CycleResult>& cycles) {
  struct Kind {
    const char* name;
    double TokenFigures::*field;
    const char* color;
  } kinds[] = {{"prefilled", &TokenFigures::prefilled, "#1f77b4"},
               {"generated", &TokenFigures::generated, "#2ca02c"},
               {"forced", &TokenFigures::forced, "#9467bd"},
               {"prefix reused", &TokenFigures::reused, "#ff7f0e"},
               {"degeneration events", &TokenFigures::degenerations, "#d62728"}};
  double ymax = 0;
  bool any = false;
  for (const auto& c : cycles)
    for (const auto& k : kinds)
      if (c.tokens.*k.field >= 0) any = true, ymax = std::max(ymax, c.tokens.*k.field);
  if (!any) {
    // No engine token metrics: show the work per cycle instead.
    for (const auto& c : cycles)
      ymax = std::max({ymax, double(c.new_signals), double(c.bundle_signals)});
    Plot p("Signals per cycle (this engine exports no token metrics)", 1,
           static_cast<double>(cycles.size()), ymax, Axis("cycle (request)", Scale::kCount),
           Axis("signals", Scale::kCount));
    std::vector<std::pair<double, double>> fresh, sent;
    for (size_t i = 0; i < cycles.size(); ++i) {
      fresh.push_back({CycleNo(i), double(cycles[i].new_signals)});
      sent.push_back({CycleNo(i), double(cycles[i].bundle_signals)});
    }
    p.Line(fresh, "#1f77b4", "new signals");
    p.Line(sent, "#2ca02c", "texts in bundles sent");
    return p.Done();
  }
  Plot p("Tokens per cycle", 1, static_cast<double>(cycles.size()), ymax,
         Axis("cycle (request)", Scale::kCount), Axis("tokens", Scale::kCount));
  for (const auto& k : kinds) {
    std::vector<std::pair<double, double>> pts;
    for (size_t i = 0; i < cycles.size(); ++i)
      if (cycles[i].tokens.*k.field >= 0) pts.push_back({CycleNo(i), cycles[i].tokens.*k.field});
    if (!pts.empty()) p.Line(pts, k.color, k.name);
  }
  return p.Done();
}

void Row(std::ostringstream& os, const std::string& k, const std::string& v) {
  os << "<tr><th>" << HtmlEscape(k) << "</th><td>" << HtmlEscape(v) << "</td></tr>\n";
}

std::string Opt(double v, int digits = 0) { return v < 0 ? "n/a (not exported)" : F(v, digits); }

// Latency CDFs of several arms on one plot; cut cycles are drawn at their cut latency.
std::string CompareCdf(const Comparison& c, const std::vector<std::vector<CycleResult>>& cycles) {
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
  double xmax = 0;
  for (const auto& arm : cycles)
    for (const auto& r : arm) xmax = std::max(xmax, r.latency_s);
  Plot p("Latency CDF per arm (per request)", xmax, 1, Axis("latency", Scale::kSeconds),
         "fraction of requests");
  for (size_t i = 0; i < c.arms.size() && i < cycles.size(); ++i) {
    std::vector<double> lat;
    for (const auto& r : cycles[i]) lat.push_back(r.latency_s);
    p.Line(CdfPoints(lat, p.x_max()), kColors[i % 4], "(" + c.arms[i].arm + ") " + c.arms[i].title,
           static_cast<int>(i), true);
  }
  return p.Done();
}

}  // namespace

std::string HtmlEscape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string HtmlHead(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>" +
         HtmlEscape(title) +
         "</title>\n<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
         "<style>body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}"
         "@media (max-width:600px){body{margin:10px}}"
         "table{border-collapse:collapse;margin-bottom:16px;display:block;overflow-x:auto;"
         "max-width:100%}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;"
         "overflow-wrap:break-word}th{background:#f3f3f3}.warn{color:#b00}"
         "code{overflow-wrap:anywhere}"
         ".plot{overflow-x:auto}.plot svg{display:block;width:100%;min-width:560px;height:auto}"
         "ul.legend{list-style:none;padding:0;margin:6px 0 18px;display:flex;flex-wrap:wrap;"
         "gap:4px 18px;font-size:14px}.key{display:inline-block;width:14px;height:10px;"
         "margin-right:6px}.key.dash{height:0;border-top:2px dashed;vertical-align:middle}"
         "</style></head>"
         "<body>\n";
}

std::string HtmlReport(const LoadSpec& load, const Conditions& c, const Summary& s,
                       const std::vector<CycleResult>& cycles) {
  std::ostringstream os;
  os << HtmlHead("nunchi bench: " + load.name) << "<h1>nunchi bench — load <code>"
     << HtmlEscape(load.name) << "</code></h1>\n<p>" << HtmlEscape(load.description) << "</p>\n";
  if (c.random_weights)
    os << "<p class='warn'><b>The model is a generated model with random weights</b>: its output "
          "length and decode times are not those of a trained model.</p>\n";
  os << "<table>\n";
  Row(os, "engine",
      c.engine + (c.judge_chain.empty() ? "" : " — server judge chain: " + c.judge_chain));
  Row(os, "engine version", c.engine_version.empty() ? "n/a" : c.engine_version);
  Row(os, "quantization", c.quantization);
  Row(os, "concurrency", c.concurrency > 0 ? std::to_string(c.concurrency) : "server default");
  Row(os, "output token cap",
      !c.output_token_cap_note.empty() ? c.output_token_cap_note
      : c.output_token_cap > 0         ? std::to_string(c.output_token_cap)
                                       : "n/a");
  Row(os, "prefix reuse", c.prefix_reuse);
  if (c.bundles_per_call > 0) Row(os, "bundles per model call", std::to_string(c.bundles_per_call));
  Row(os, "model",
      c.model_file.empty()
          ? "none"
          : c.model_file + " (" + std::to_string(c.model_bytes) + " bytes, fnv1a64 " +
                c.model_hash + ", " + (c.random_weights ? "random weights" : "weights") +
                (c.model_name.empty() ? "" : ", " + c.model_name) + ")");
  Row(os, "client", c.client);
  Row(os, "target", c.target);
  Row(os, "host", c.host);
  Row(os, "server", c.server_banner + (c.server_args.empty() ? "" : " [" + c.server_args + "]"));
  Row(os, "command", c.command);
  os << "</table>\n<table>\n";
  Row(os, "cycles (requests)", std::to_string(s.cycles) + " (" + std::to_string(s.requests) + ")");
  Row(os, "interval", F(load.interval_s, 2) + " s wall, " + F(load.sim_step_s, 0) + " s simulated");
  Row(os, "latency P50 / P95 / P99 / max",
      F(s.p50) + " / " + F(s.p95) + " / " + F(s.p99) + " / " + F(s.max) + " s");
  if (s.cold_p50 >= 0)
    Row(os, "cold cycles P50 / P95 / max; other cycles P50 / P95",
        F(s.cold_p50) + " / " + F(s.cold_p95) + " / " + F(s.cold_max) + " s; " +
            (s.warm_p50 < 0 ? "n/a" : F(s.warm_p50) + " / " + F(s.warm_p95) + " s"));
  Row(os, "deadline misses (> 50 s)",
      std::to_string(s.deadline_misses) +
          (s.cut > 0 ? "; " + std::to_string(s.cut) + " cycles got no answer inside the deadline"
                     : ""));
  Row(os, "spots OK / FAILED", std::to_string(s.spots_ok) + " / " + std::to_string(s.spots_failed));
  Row(os, "errors / state resets", std::to_string(s.errors) + " / " + std::to_string(s.resets));
  Row(os, "signals sent as new / judged / reused",
      std::to_string(s.signals) + " / " + Opt(s.judged) + " / " + Opt(s.reused));
  Row(os, "backlog grows",
      std::string(!s.backlog_known  ? "unknown (under 8 requests)"
                  : s.backlog_grows ? "YES"
                                    : "no") +
          " (queue slope " + F(s.queue_slope, 4) + "/cycle, lag slope " + F(s.lag_slope, 4) +
          " s/cycle)");
  Row(os, "cold starts / cycles to recover (mean, max)",
      std::to_string(s.cold_starts) + " / " +
          (s.recover_mean < 0 ? "n/a"
                              : F(s.recover_mean, 2) + ", " + std::to_string(s.recover_max)));
  Row(os, "tokens prefilled / generated / forced / prefix reused",
      Opt(s.tokens_prefilled) + " / " + Opt(s.tokens_generated) + " / " + Opt(s.tokens_forced) +
          " / " + Opt(s.tokens_reused));
  Row(os, "degeneration events", Opt(s.degenerations));
  os << "</table>\n" << Cdf(cycles) << Timeline(cycles) << Tokens(cycles) << "</body></html>\n";
  return os.str();
}

std::string CompareHtml(const Comparison& c, const LoadSpec& load, const nlohmann::json& setup,
                        const std::vector<std::vector<CycleResult>>& cycles) {
  std::ostringstream os;
  os << HtmlHead("nunchi bench --compare: " + load.name)
     << "<h1>nunchi bench — comparison on load <code>" << HtmlEscape(load.name) << "</code></h1>\n";
  if (setup.contains("model") && setup["model"].value("random_weights", false))
    os << "<p class='warn'><b>The model is a generated model with random weights</b>: its output "
          "length and decode times are not those of a trained model.</p>\n";
  os << "<table>\n";
  for (const auto& [k, v] : setup.items())
    Row(os, k, v.is_string() ? v.get<std::string>() : v.dump());
  os << "</table>\n<table>\n<tr><th>arm</th><th>client and engine</th><th>engine version</th>"
        "<th>quantization</th><th>concurrency</th><th>output token cap</th><th>prefix reuse</th>"
        "<th>requests</th><th>P50</th><th>P95</th><th>P99</th><th>deadline misses</th>"
        "<th>spots OK / FAILED</th><th>backlog</th></tr>\n";
  for (const auto& a : c.arms) {
    const Conditions& k = a.conditions;
    const Summary& s = a.summary;
    std::vector<std::string> cells = {
        "(" + a.arm + ")",
        a.title,
        k.engine_version,
        k.quantization,
        std::to_string(k.concurrency),
        k.output_token_cap_note.empty() ? std::to_string(k.output_token_cap)
                                        : k.output_token_cap_note,
        k.prefix_reuse,
        std::to_string(s.requests),
        a.ran ? FormatLatency(a.p50) : "n/a",
        a.ran ? FormatLatency(a.p95) : "n/a",
        a.ran ? FormatLatency(a.p99) : "n/a",
        std::to_string(s.deadline_misses) +
            (s.cut > 0 ? " (" + std::to_string(s.cut) + " unanswered)" : ""),
        std::to_string(s.spots_ok) + " / " + std::to_string(s.spots_failed),
        !s.backlog_known  ? "unknown"
        : s.backlog_grows ? "grows"
                          : "steady"};
    os << "<tr>";
    for (const auto& cell : cells) os << "<td>" << HtmlEscape(cell) << "</td>";
    os << "</tr>\n";
  }
  os << "</table>\n<ul>\n";
  for (const auto& r : c.ratios) os << "<li><b>" << HtmlEscape(r.text) << "</b></li>\n";
  for (const auto& n : c.notes) os << "<li>" << HtmlEscape(n) << "</li>\n";
  os << "</ul>\n" << CompareCdf(c, cycles) << "<p>Each arm's own report: ";
  for (const auto& a : c.arms)
    if (a.ran) os << "<code>" << HtmlEscape(a.arm) << "/report.html</code> ";
  os << "</p>\n</body></html>\n";
  return os.str();
}

}  // namespace nunchi::bench
