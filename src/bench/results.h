// Results of one benchmark run: the execution conditions, one record per
// cycle, and the summary over all cycles (percentiles, deadline misses,
// backlog growth, recovery from cold starts); written as JSON and CSV.
// Plain values and pure functions; thread-safe.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/load.h"
#include "bench/prom.h"

namespace nunchi::bench {

// The backend's deadline per request (DESIGN.md section 6): a cycle slower
// than this is a deadline miss.
inline constexpr double kDeadlineS = 50;

// The five execution conditions and the model's identity (DESIGN.md section 6).
struct Conditions {
  std::string engine = "default judge (rules + classifier)";
  std::string engine_version;  // e.g. "llama.cpp 80fb11ac"
  std::string quantization = "n/a";
  int concurrency = 0;                // bundles or requests judged at once (0: server default)
  int output_token_cap = 0;           // 0: n/a
  std::string output_token_cap_note;  // how the cap applies, e.g. "48 per signal (max_tokens)"
  std::string prefix_reuse = "n/a";   // on | off | n/a
  int bundles_per_call = 0;           // batch prompting in nunchi's LLM judge (0: n/a or 1)
  std::string route;                  // serve --route of a managed server ("": its default)
  std::string model_file;             // path as given
  std::string model_hash;             // FNV-1a 64 of the file, hex
  long long model_bytes = 0;
  bool random_weights = false;    // a generated model with random weights
  std::string model_name;         // general.name when found in the file
  std::string client = "nunchi";  // nunchi | naive-llama-server
  std::string target;             // URL measured
  std::string host;               // machine description
  std::string judge_chain;        // the judge chain the managed server announced
  std::string server_args;        // extra `serve` arguments of a managed server
  std::string command;            // the bench command line
  std::string server_banner;      // what the managed server said when it started
};

// The cascade's figures (nunchi_cascade_*_total counters of the server,
// summed over their labels) for one cycle or one run; -1 when the server
// exports no cascade (another route). Shares are of the escalated targets.
struct CascadeFigures {
  double targets = -1, unsure = -1, escalated = -1, llm_in_time = -1, kept_for_time = -1;
  double late = -1;  // escalated, kept cheap: the LLM failed or missed the deadline
  double late_replaced = -1, agreed = -1, overturned = -1;
  double deferred = -1;  // kept cheap for time, sent anyway for the store (0: older server)
  bool known() const { return targets >= 0; }
  double escalation_share() const { return targets > 0 ? escalated / targets : -1; }
  double in_time_share() const { return escalated > 0 ? llm_in_time / escalated : -1; }
};
// From counter deltas (CounterDeltas of two scrapes).
CascadeFigures CascadeFromDeltas(const Series& deltas);
nlohmann::json CascadeJson(const CascadeFigures& f);
// "escalated 12 of 80 (15.0 %), LLM in time 11 (91.7 %), kept cheap for time 3, late 1"; ""
// unknown.
std::string CascadeText(const CascadeFigures& f);

struct CycleResult {
  int index = 0;           // first tick of this request (0-based)
  int ticks = 1;           // ticks merged into this request (more than 1: backlog)
  double start_lag_s = 0;  // send time minus the tick's nominal time
  double latency_s = 0;    // request to answer (a 409 and its resend together)
  int http_status = 0;
  bool reset = false;  // answered 409 STATE_RESET, resent everything
  bool cold = false;   // first cycle after an empty store
  int spots_ok = 0, spots_failed = 0;
  int new_signals = 0;     // signals listed as new in the request
  int bundle_signals = 0;  // texts in the request's bundles
  long long request_bytes = 0;
  int pending_after = 0;                       // signals the backend still has to send as new
  double queue_before = -1, queue_after = -1;  // nunchi_judge_queue_depth
  double judge_calls = -1;                     // delta of nunchi_judge_calls_total
  double judged = -1;  // delta of nunchi_signals_total{disposition="judged"}
  double reused = -1;  // delta of nunchi_signals_total{disposition="reused"}
  TokenFigures tokens;
  CascadeFigures cascade;
  Series deltas;  // every counter delta
  std::string error;
  // No (complete) answer came inside the deadline: the client gave up, so
  // latency_s is a lower bound (censored at the deadline).
  bool cut = false;
};

struct Summary {
  int cycles = 0, requests = 0;
  double p50 = 0, p95 = 0, p99 = 0, max = 0, mean = 0;  // latency, seconds
  int deadline_misses = 0;                              // latency > 50 s
  int cut = 0;                                          // cycles censored at the deadline
  int spots_ok = 0, spots_failed = 0, errors = 0, resets = 0;
  long long signals = 0;
  double queue_slope = 0;  // queue depth at send, per cycle (least squares)
  double lag_slope = 0;    // start lag, seconds per cycle
  bool backlog_grows = false;
  bool backlog_known = false;  // at least 8 requests: enough to tell growth
  int cold_starts = 0;
  double cold_p50 = -1, cold_p95 = -1, cold_max = -1;  // latency of cold cycles only
  double warm_p50 = -1, warm_p95 = -1;                 // latency of the other cycles
  double recover_mean = -1;  // cycles until latency and failures are back to warm
  int recover_max = -1;
  double tokens_prefilled = -1, tokens_generated = -1, tokens_forced = -1, tokens_reused = -1;
  double degenerations = -1;
  double judged = -1, reused = -1;  // signals judged by a judge, reused from the store
  // Judgments made, by the judge that made them ("llama", "rules", ...), from
  // nunchi_judgments_total{outcome="ok"}: how much of the answer the LLM wrote.
  std::map<std::string, double> judged_by;
  // The cascade over the measured cycles: the sum of the per-cycle deltas.
  CascadeFigures cascade;
  // The same from one scrape before the first measured cycle and one after the
  // last (RunOutcome::run_deltas): also counts the late answers that landed
  // between cycles. Set by the caller; unknown from Summarize.
  CascadeFigures cascade_run;
};

// "llama 214, rules 257" (most first); "" when none were counted.
std::string JudgedByText(const Summary& s);

Summary Summarize(const std::vector<CycleResult>& cycles, double interval_s);
double Percentile(std::vector<double> v, double p);

nlohmann::json ConditionsJson(const Conditions& c);
nlohmann::json ToJson(const LoadSpec& load, const Conditions& c, const Summary& s,
                      const std::vector<CycleResult>& cycles);
std::string ToCsv(const std::vector<CycleResult>& cycles);
// One CSV field: quoted (quotes doubled) when it holds a comma, quote or line break.
std::string CsvField(const std::string& s);

}  // namespace nunchi::bench
