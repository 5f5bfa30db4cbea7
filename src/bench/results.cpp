#include "bench/results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace nunchi::bench {
namespace {

double Slope(const std::vector<double>& y) {
  const size_t n = y.size();
  if (n < 2) return 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    double x = static_cast<double>(i);
    sx += x, sy += y[i], sxx += x * x, sxy += x * y[i];
  }
  double d = static_cast<double>(n) * sxx - sx * sx;
  return d == 0 ? 0 : (static_cast<double>(n) * sxy - sx * sy) / d;
}

double Mean(const std::vector<double>& v, size_t from, size_t to) {
  if (to <= from) return 0;
  double s = 0;
  for (size_t i = from; i < to; ++i) s += v[i];
  return s / static_cast<double>(to - from);
}

void AddFigure(double* sum, double v) {
  if (v >= 0) *sum = (*sum < 0 ? 0 : *sum) + v;
}

nlohmann::json Num(double v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); }

}  // namespace

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  // Nearest rank.
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string JudgedByText(const Summary& s) {
  std::vector<std::pair<double, std::string>> by;
  for (const auto& [judge, n] : s.judged_by)
    if (n > 0) by.emplace_back(-n, judge);
  std::sort(by.begin(), by.end());
  std::string out;
  for (const auto& [n, judge] : by)
    out += (out.empty() ? "" : ", ") + judge + " " + std::to_string(static_cast<long long>(-n));
  return out;
}

CascadeFigures CascadeFromDeltas(const Series& d) {
  CascadeFigures f;
  if (SumOf(d, "nunchi_cascade_targets_total") < 0) return f;
  auto get = [&](const char* name) { return std::max(0.0, SumOf(d, name)); };
  f.targets = get("nunchi_cascade_targets_total");
  f.unsure = get("nunchi_cascade_unsure_total");
  f.escalated = get("nunchi_cascade_escalated_total");
  f.llm_in_time = get("nunchi_cascade_llm_in_time_total");
  f.kept_for_time = get("nunchi_cascade_kept_for_time_total");
  f.late = get("nunchi_cascade_kept_for_error_total");
  f.late_replaced = get("nunchi_cascade_late_replaced_total");
  f.agreed = get("nunchi_cascade_agreed_total");
  f.overturned = get("nunchi_cascade_overturned_total");
  f.deferred = get("nunchi_cascade_deferred_total");
  return f;
}

nlohmann::json CascadeJson(const CascadeFigures& f) {
  if (!f.known()) return nullptr;
  return {{"targets", f.targets},
          {"unsure", f.unsure},
          {"escalated", f.escalated},
          {"escalation_share", Num(f.escalation_share())},
          {"llm_in_time", f.llm_in_time},
          {"llm_in_time_share", Num(f.in_time_share())},
          {"kept_cheap_for_time", f.kept_for_time},
          {"deferred", f.deferred},
          {"late_or_failed", f.late},
          {"late_replaced", f.late_replaced},
          {"agreed", f.agreed},
          {"overturned", f.overturned}};
}

std::string CascadeText(const CascadeFigures& f) {
  if (!f.known()) return "";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "escalated %.0f of %.0f (%.1f %%), LLM in time %.0f (%.1f %%), kept cheap for "
                "time %.0f (deferred %.0f), late %.0f",
                f.escalated, f.targets, 100 * std::max(0.0, f.escalation_share()), f.llm_in_time,
                100 * std::max(0.0, f.in_time_share()), f.kept_for_time, std::max(0.0, f.deferred),
                f.late);
  return buf;
}

namespace {
void AddCascade(CascadeFigures* sum, const CascadeFigures& c) {
  if (!c.known()) return;
  if (!sum->known()) {
    *sum = c;
    return;
  }
  sum->targets += c.targets;
  sum->unsure += c.unsure;
  sum->escalated += c.escalated;
  sum->llm_in_time += c.llm_in_time;
  sum->kept_for_time += c.kept_for_time;
  sum->late += c.late;
  sum->late_replaced += c.late_replaced;
  sum->agreed += c.agreed;
  sum->overturned += c.overturned;
  sum->deferred += c.deferred;
}
}  // namespace

Summary Summarize(const std::vector<CycleResult>& cycles, double interval_s) {
  Summary s;
  std::vector<double> lat, queue, lag;
  for (const auto& c : cycles) {
    s.cycles += c.ticks;
    ++s.requests;
    lat.push_back(c.latency_s);
    queue.push_back(std::max(0.0, c.queue_before));
    lag.push_back(c.start_lag_s);
    s.deadline_misses += c.latency_s > kDeadlineS;
    s.cut += c.cut;
    s.spots_ok += c.spots_ok;
    s.spots_failed += c.spots_failed;
    s.errors += !c.error.empty();
    s.resets += c.reset;
    s.signals += c.new_signals;
    s.cold_starts += c.cold;
    AddFigure(&s.tokens_prefilled, c.tokens.prefilled);
    AddFigure(&s.tokens_generated, c.tokens.generated);
    AddFigure(&s.tokens_forced, c.tokens.forced);
    AddFigure(&s.tokens_reused, c.tokens.reused);
    AddFigure(&s.degenerations, c.tokens.degenerations);
    AddFigure(&s.judged, c.judged);
    AddFigure(&s.reused, c.reused);
    AddCascade(&s.cascade, c.cascade);
    static const std::string kJudgments = "nunchi_judgments_total{";
    for (const auto& [key, v] : c.deltas) {
      if (key.rfind(kJudgments, 0) != 0 || key.find("outcome=\"ok\"") == std::string::npos)
        continue;
      const size_t at = key.find("judge=\"");
      if (at == std::string::npos) continue;
      const size_t from = at + 7, to = key.find('"', from);
      if (to != std::string::npos) s.judged_by[key.substr(from, to - from)] += v;
    }
  }
  if (lat.empty()) return s;
  s.p50 = Percentile(lat, 50);
  s.p95 = Percentile(lat, 95);
  s.p99 = Percentile(lat, 99);
  s.max = *std::max_element(lat.begin(), lat.end());
  s.mean = Mean(lat, 0, lat.size());
  s.queue_slope = Slope(queue);
  s.lag_slope = Slope(lag);
  // Growth: the last quarter waits clearly longer than the first quarter.
  const size_t q = lat.size() / 4;
  s.backlog_known = lat.size() >= 8;
  if (s.backlog_known) {
    double lag_growth = Mean(lag, lat.size() - q, lat.size()) - Mean(lag, 0, q);
    double queue_growth = Mean(queue, lat.size() - q, lat.size()) - Mean(queue, 0, q);
    s.backlog_grows = (lag_growth > std::max(1.0, interval_s) && s.lag_slope > 0) ||
                      (queue_growth > 1 && s.queue_slope > 0);
  }
  // Recovery: cycles from a cold start until a cycle is warm again (no failed
  // spot, on time, latency within 1.5 x the median of warm cycles).
  std::vector<double> warm, cold;
  for (const auto& c : cycles) (c.cold || c.reset ? cold : warm).push_back(c.latency_s);
  const double warm_p50 = Percentile(warm, 50);
  if (!warm.empty()) s.warm_p50 = warm_p50, s.warm_p95 = Percentile(warm, 95);
  if (!cold.empty()) {
    s.cold_p50 = Percentile(cold, 50);
    s.cold_p95 = Percentile(cold, 95);
    s.cold_max = *std::max_element(cold.begin(), cold.end());
  }
  int total = 0, n = 0;
  for (size_t i = 0; i < cycles.size(); ++i) {
    if (!cycles[i].cold) continue;
    int k = 0;
    size_t j = i;
    for (; j < cycles.size(); ++j, ++k) {
      const auto& c = cycles[j];
      if (j > i && c.cold) break;
      if (c.spots_failed == 0 && c.error.empty() && c.start_lag_s < std::max(interval_s, 0.05) &&
          c.latency_s <= 1.5 * warm_p50 + 0.005)
        break;
    }
    if (j == cycles.size() || (j > i && cycles[j].cold)) continue;  // never recovered in view
    total += k;
    ++n;
    s.recover_max = std::max(s.recover_max, k);
  }
  if (n > 0) s.recover_mean = static_cast<double>(total) / n;
  return s;
}

nlohmann::json ConditionsJson(const Conditions& c) {
  return {{"engine", c.engine},
          {"engine_version", c.engine_version},
          {"quantization", c.quantization},
          {"concurrency", c.concurrency},
          {"output_token_cap", c.output_token_cap},
          {"output_token_cap_note", c.output_token_cap_note},
          {"prefix_reuse", c.prefix_reuse},
          {"bundles_per_call", c.bundles_per_call},
          {"route", c.route},
          {"model_file", c.model_file},
          {"model_hash_fnv1a64", c.model_hash},
          {"model_bytes", c.model_bytes},
          {"random_weights", c.random_weights},
          {"model_name", c.model_name},
          {"client", c.client},
          {"target", c.target},
          {"host", c.host},
          {"server_banner", c.server_banner},
          {"server_args", c.server_args},
          {"judge_chain", c.judge_chain},
          {"command", c.command}};
}

nlohmann::json ToJson(const LoadSpec& load, const Conditions& c, const Summary& s,
                      const std::vector<CycleResult>& cycles) {
  nlohmann::json j;
  j["load"] = {{"name", load.name},
               {"description", load.description},
               {"spots", load.spots},
               {"cycles", load.cycles},
               {"interval_s", load.interval_s},
               {"sim_step_s", load.sim_step_s},
               {"seed", load.seed},
               {"new_signals_per_cycle", load.new_signals_per_cycle},
               {"hot_spots", load.hot_spots},
               {"bundles_per_hot_spot", load.bundles_per_hot_spot},
               {"initial_comments", load.initial_comments},
               {"bundle_cap", load.bundle_cap},
               {"warm_store", load.warm_store},
               {"restart_every", load.restart_every}};
  j["conditions"] = ConditionsJson(c);
  j["summary"] = {
      {"cycles", s.cycles},
      {"requests", s.requests},
      {"latency_s",
       {{"p50", s.p50}, {"p95", s.p95}, {"p99", s.p99}, {"max", s.max}, {"mean", s.mean}}},
      {"deadline_misses_over_50s", s.deadline_misses},
      {"cycles_cut_at_deadline", s.cut},
      {"spots_ok", s.spots_ok},
      {"spots_failed", s.spots_failed},
      {"errors", s.errors},
      {"state_resets", s.resets},
      {"signals_sent_as_new", s.signals},
      {"queue_depth_slope_per_cycle", s.queue_slope},
      {"start_lag_slope_s_per_cycle", s.lag_slope},
      {"backlog_grows",
       s.backlog_known ? nlohmann::json(s.backlog_grows) : nlohmann::json(nullptr)},
      {"cold_starts", s.cold_starts},
      {"cold_latency_s",
       {{"p50", Num(s.cold_p50)}, {"p95", Num(s.cold_p95)}, {"max", Num(s.cold_max)}}},
      {"warm_latency_s", {{"p50", Num(s.warm_p50)}, {"p95", Num(s.warm_p95)}}},
      {"cycles_to_recover_mean", Num(s.recover_mean)},
      {"cycles_to_recover_max", Num(s.recover_max)},
      {"judgments_by_judge", s.judged_by},
      {"tokens_prefilled", Num(s.tokens_prefilled)},
      {"tokens_generated", Num(s.tokens_generated)},
      {"tokens_forced", Num(s.tokens_forced)},
      {"prefix_tokens_reused", Num(s.tokens_reused)},
      {"degeneration_events", Num(s.degenerations)},
      {"signals_judged", Num(s.judged)},
      {"signals_reused", Num(s.reused)},
      {"cascade", CascadeJson(s.cascade)},
      {"cascade_run", CascadeJson(s.cascade_run)}};
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : cycles) {
    nlohmann::json d = nlohmann::json::object();
    for (const auto& [k, v] : r.deltas)
      if (v != 0) d[k] = v;
    arr.push_back({{"index", r.index},
                   {"ticks", r.ticks},
                   {"start_lag_s", r.start_lag_s},
                   {"latency_s", r.latency_s},
                   {"http_status", r.http_status},
                   {"reset", r.reset},
                   {"cold", r.cold},
                   {"spots_ok", r.spots_ok},
                   {"spots_failed", r.spots_failed},
                   {"new_signals", r.new_signals},
                   {"bundle_signals", r.bundle_signals},
                   {"request_bytes", r.request_bytes},
                   {"pending_after", r.pending_after},
                   {"queue_before", Num(r.queue_before)},
                   {"queue_after", Num(r.queue_after)},
                   {"judge_calls", Num(r.judge_calls)},
                   {"signals_judged", Num(r.judged)},
                   {"signals_reused", Num(r.reused)},
                   {"tokens_prefilled", Num(r.tokens.prefilled)},
                   {"tokens_generated", Num(r.tokens.generated)},
                   {"tokens_forced", Num(r.tokens.forced)},
                   {"prefix_tokens_reused", Num(r.tokens.reused)},
                   {"degeneration_events", Num(r.tokens.degenerations)},
                   {"cut_at_deadline", r.cut},
                   {"cascade", CascadeJson(r.cascade)},
                   {"metric_deltas", d},
                   {"error", r.error}});
  }
  j["cycles"] = arr;
  return j;
}

std::string ToCsv(const std::vector<CycleResult>& cycles) {
  std::ostringstream os;
  os << "index,ticks,start_lag_s,latency_s,http_status,reset,cold,spots_ok,spots_failed,"
        "new_signals,bundle_signals,request_bytes,pending_after,queue_before,queue_after,"
        "judge_calls,signals_judged,signals_reused,tokens_prefilled,tokens_generated,tokens_forced,"
        "prefix_tokens_reused,"
        "degeneration_events,error\n";
  auto num = [](double v) { return v < 0 ? std::string() : std::to_string(v); };
  for (const auto& r : cycles) {
    std::string err = r.error;
    std::replace(err.begin(), err.end(), ',', ';');
    std::replace(err.begin(), err.end(), '\n', ' ');
    os << r.index << ',' << r.ticks << ',' << r.start_lag_s << ',' << r.latency_s << ','
       << r.http_status << ',' << r.reset << ',' << r.cold << ',' << r.spots_ok << ','
       << r.spots_failed << ',' << r.new_signals << ',' << r.bundle_signals << ','
       << r.request_bytes << ',' << r.pending_after << ',' << num(r.queue_before) << ','
       << num(r.queue_after) << ',' << num(r.judge_calls) << ',' << num(r.judged) << ','
       << num(r.reused) << ',' << num(r.tokens.prefilled) << ',' << num(r.tokens.generated) << ','
       << num(r.tokens.forced) << ',' << num(r.tokens.reused) << ',' << num(r.tokens.degenerations)
       << ',' << err << '\n';
  }
  return os.str();
}

}  // namespace nunchi::bench
