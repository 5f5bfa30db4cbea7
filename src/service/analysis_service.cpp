#include "service/analysis_service.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <random>
#include <unordered_set>

#include "domain/aggregation.h"
#include "ops/log.h"

namespace nunchi {
namespace {

TimeMs WallNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A judgment recorded for a signal that is already outside the report window
// when it arrives: no judge is asked, since it cannot change any result.
Judgment StaleJudgment() {
  Judgment j;
  j.judge = "window";
  j.model = "none";
  j.prompt_version = "none";
  return j;
}

// The row a storage probe writes: ids with a control character, which no
// request can carry (validate.h), so it never meets a real signal.
StoredJudgment ProbeRow(TimeMs now_ms) {
  StoredJudgment row;
  row.signal_id = "\x01storage-probe";
  row.spot_id = "\x01storage-probe";
  row.post_id = "\x01storage-probe";
  row.author_id = "\x01storage-probe";
  row.judgment = StaleJudgment();
  row.judged_at = now_ms;
  return row;
}
// How long a claim outlives the request's deadline: judging that runs late
// (a model finishing after the answer) still stores within it.
constexpr TimeMs kClaimMarginMs = 15'000;

}  // namespace

struct AnalysisService::TaskState {
  JudgeTask task;
  std::vector<std::string> ids;               // target signal ids
  std::vector<StoredJudgment> row_templates;  // per target: everything but the judgment
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  JudgeOutput results;
};

// Stores judgments that a judge hands over after its task returned (the
// cascade's late LLM answers). Shared with the tasks' on_late callbacks, which
// may outlive the service: after the service is gone it drops them.
struct AnalysisService::LateSink {
  std::mutex mu;
  bool alive = true;
  JudgmentStore* store;
  MetricsRegistry* metrics;
  DecisionLog* log;

  void Store(StoredJudgment row, const Judgment& j, const std::string& request_id) {
    std::lock_guard lock(mu);
    if (!alive) return;
    row.judgment = j;
    row.judged_at = WallNowMs();
    Status s = store->Put({row});
    metrics->Counter("nunchi_late_judgments_total", "Judgments stored after their cycle answered.")
        .Add({{"judge", j.judge}, {"outcome", s.ok() ? "stored" : ErrorCodeName(s.code())}});
    if (log) log->Write({request_id, row.spot_id, row.signal_id, s.ok() ? "late" : "late:failed",
                         &row.judgment, 0, nullptr});
  }
};

AnalysisService::AnalysisService(JudgmentStore& store, Judge& judge, MetricsRegistry& metrics,
                                 DecisionLog* log, ServiceOptions options)
    : store_(store),
      judge_(judge),
      metrics_(metrics),
      log_(log),
      options_(options),
      late_(std::make_shared<LateSink>()) {
  late_->store = &store_;
  late_->metrics = &metrics_;
  late_->log = log_;
  pool_ = std::make_unique<WorkerPool>(options_.judge_threads);
  char host[64] = "";
  ::gethostname(host, sizeof host - 1);
  owner_ = std::string(host) + ":" + std::to_string(::getpid()) + ":" +
           std::to_string(std::random_device{}());
  metrics_.OnRender([this](MetricsRegistry& m) {
    m.Gauge("nunchi_store_rows", "Judgments in the store.").Set({}, double(store_.RowCount()));
    m.Gauge("nunchi_signals_in_flight", "Signals being judged now.")
        .Set({}, double(signals_in_flight()));
    m.Gauge("nunchi_judge_queue_depth", "Bundles waiting for a judge thread.")
        .Set({}, double(pool_->QueueDepth()));
  });
}

AnalysisService::~AnalysisService() {
  pool_.reset();
  std::lock_guard lock(late_->mu);
  late_->alive = false;
}

void AnalysisService::NoteStorage(const Status& s, const char* op, bool write) {
  if (!s.ok()) {
    if (s.code() != ErrorCode::kIo) return;
    metrics_.Counter("nunchi_storage_errors_total", "Store calls that failed, by operation.")
        .Add({{"op", op}});
    if (storage_ok_.exchange(false))
      LogEvent(LogLevel::kError, "storage_fault", s.message(), {{"op", op}});
    return;
  }
  if (write && !storage_ok_.load() && !storage_ok_.exchange(true))
    LogEvent(LogLevel::kInfo, "storage_recovered", "the store answers again", {{"op", op}});
}

bool AnalysisService::ProbeDue() {
  const int64_t now = WallNowMs();
  int64_t last = last_probe_ms_.load();
  return now - last >= 1000 && last_probe_ms_.compare_exchange_strong(last, now);
}

bool AnalysisService::Ready() {
  if (!storage_ok_.load() && ProbeDue())
    NoteStorage(store_.Put({ProbeRow(WallNowMs())}), "probe", true);
  // A judge that failed for good is not ready even when a router still
  // answers through its fallback: the deployment has lost its model.
  return judge_.Ready() && !judge_.Failed() && storage_ok_.load();
}

size_t AnalysisService::signals_in_flight() const {
  std::lock_guard lock(inflight_mu_);
  return inflight_.size();
}

Result<AnalysisResponse> AnalysisService::Analyze(const AnalysisRequest& req,
                                                  const std::string& request_id, Deadline deadline,
                                                  std::vector<FieldError>* field_errors,
                                                  const std::string& traceparent) {
  auto& resets = metrics_.Counter("nunchi_state_resets_total", "409 STATE_RESET answers.");
  auto& signals = metrics_.Counter("nunchi_signals_total", "Signals by disposition.");
  std::vector<FieldError> errs = ValidateRequest(req, options_.limits);
  if (!errs.empty()) {
    if (field_errors) *field_errors = std::move(errs);
    return Status(ErrorCode::kInvalidArgument, "the request breaks the contract");
  }
  // While storage is down, one request a second goes through as a probe.
  if (!storage_ok_.load() && !ProbeDue()) {
    metrics_.Counter("nunchi_refused_total", "Requests refused before any work, by reason.")
        .Add({{"reason", "storage"}});
    return Status(ErrorCode::kIo, "the judgment store is failing (disk full or I/O error); retry");
  }

  std::unordered_set<std::string> fresh;
  for (const NewSignal& ns : req.new_signals) fresh.insert(ns.signal_id);
  std::vector<std::string> all_ids;
  for (const Spot& spot : req.spots)
    for (const Bundle& b : spot.bundles)
      for (size_t i = 0; i < b.size(); ++i) all_ids.push_back(b.at(i).signal_id);
  const bool full_resend = all_ids.size() == fresh.size();
  const TimeMs window_start = req.analyzed_at.ms - kReportWindowMs;

  // A full resend needs no stored state, so it is accepted whatever the epoch:
  // that is how the backend recovers from a STATE_RESET. The epoch is read
  // once, before any store call: if the store starts a new one while this
  // request runs (corruption found), the answer below is refused.
  const std::string epoch = store_.Epoch();
  if (req.state_epoch && *req.state_epoch != epoch && !full_resend) {
    resets.Add({{"reason", "epoch"}});
    return Status(ErrorCode::kStateReset, "state_epoch '" + *req.state_epoch +
                                              "' does not match the store's epoch; resend all "
                                              "signals as new");
  }

  std::vector<std::vector<Wait>> waits(req.spots.size());
  std::vector<std::shared_ptr<TaskState>> tasks;
  std::vector<StoredJudgment> stale_rows;
  std::unordered_set<const TaskState*> elsewhere;  // bundles another replica is judging
  const TimeMs now_ms = WallNowMs();
  {
    std::lock_guard plan(plan_mu_);
    // In-flight first, then the store: a task stores before it leaves inflight_.
    std::unordered_map<std::string, Wait> attached;
    {
      std::lock_guard lock(inflight_mu_);
      for (const std::string& id : all_ids)
        if (auto it = inflight_.find(id); it != inflight_.end()) attached.emplace(id, it->second);
    }
    auto stored = store_.Get(all_ids);
    NoteStorage(stored.status(), "get", false);
    if (!stored.ok()) return stored.status();

    std::vector<std::string> missing;
    for (size_t s = 0; s < req.spots.size(); ++s) {
      const Spot& spot = req.spots[s];
      for (const Bundle& b : spot.bundles) {
        std::shared_ptr<TaskState> state;
        for (size_t i = 0; i < b.size(); ++i) {
          const Signal& sig = b.at(i);
          const uint64_t hash = TextHash(sig.text);
          const bool is_new = fresh.count(sig.signal_id) > 0;
          if (auto a = attached.find(sig.signal_id); a != attached.end()) {
            waits[s].push_back(a->second);
            signals.Add({{"disposition", "awaited"}});
            continue;
          }
          auto st = stored->find(sig.signal_id);
          if (st != stored->end() && st->second.text_hash == hash) {
            if (is_new) signals.Add({{"disposition", "reused"}});
            continue;
          }
          StoredJudgment row{sig.signal_id, spot.info.spot_id, b.post_id, sig.author_id,
                             sig.created_at, hash, {}, now_ms,
                             options_.keep_texts ? sig.text : std::string()};
          if (sig.created_at.ms < window_start) {
            // Outside the window it cannot change any result: record, don't judge.
            row.judgment = StaleJudgment();
            stale_rows.push_back(std::move(row));
            continue;
          }
          if (!is_new && st == stored->end()) {
            missing.push_back(sig.signal_id);
            continue;
          }
          if (!state) {
            state = std::make_shared<TaskState>();
            state->task.spot = spot.info;
            state->task.bundle = b;
            state->task.analyzed_at = req.analyzed_at.ms;
            state->task.deadline = deadline - options_.answer_margin - options_.fallback_reserve;
            state->task.request_id = request_id;
            state->task.traceparent = traceparent;
          }
          waits[s].push_back(Wait{state, state->ids.size()});
          state->task.targets.push_back(i);
          state->ids.push_back(sig.signal_id);
          state->row_templates.push_back(std::move(row));
        }
        if (state) {
          state->task.on_late = [sink = late_, rows = state->row_templates,
                                 request_id](size_t pos, const Judgment& j) {
            if (pos < rows.size()) sink->Store(rows[pos], j, request_id);
          };
          tasks.push_back(std::move(state));
        }
      }
    }
    if (!missing.empty()) {
      resets.Add({{"reason", "missing_judgment"}});
      std::string list;
      for (size_t i = 0; i < missing.size() && i < 5; ++i) list += (i ? ", " : "") + missing[i];
      return Status(ErrorCode::kStateReset, std::to_string(missing.size()) +
                                                " resent signal(s) have no stored judgment (" +
                                                list + (missing.size() > 5 ? ", ..." : "") +
                                                "); resend all signals as new");
    }
    // Admission: refuse before anything is registered or stored.
    if (!tasks.empty() && pool_->QueueDepth() + tasks.size() > options_.max_judge_queue) {
      metrics_.Counter("nunchi_refused_total", "Requests refused before any work, by reason.")
          .Add({{"reason", "judge_queue"}});
      return Status(ErrorCode::kUnavailable,
                    "the judge queue holds " + std::to_string(pool_->QueueDepth()) +
                        " bundles; this request adds " + std::to_string(tasks.size()) +
                        " over the bound of " + std::to_string(options_.max_judge_queue));
    }
    // Claim what this replica will judge, for its deadline and a margin: a
    // bundle holding a signal another replica sharing the store is judging
    // now is not judged here too; its spot is FAILED this cycle, and the
    // backend's resend finds the other replica's stored judgment.
    if (!tasks.empty()) {
      std::vector<std::string> want;
      for (const auto& t : tasks) want.insert(want.end(), t->ids.begin(), t->ids.end());
      const TimeMs lease =
          std::max<TimeMs>(0, std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - Clock::now())
                                  .count()) +
          kClaimMarginMs;
      auto claimed = store_.Claim(want, owner_, now_ms, lease);
      if (!claimed.ok()) {
        NoteStorage(claimed.status(), "claim", true);
        return claimed.status();
      }
      std::unordered_set<std::string> mine(claimed->begin(), claimed->end());
      std::vector<std::string> give_back;
      std::erase_if(tasks, [&](const std::shared_ptr<TaskState>& t) {
        bool all = true;
        for (const std::string& id : t->ids) all = all && mine.count(id) > 0;
        if (all) return false;
        elsewhere.insert(t.get());
        for (const std::string& id : t->ids)
          if (mine.count(id)) give_back.push_back(id);
        signals.Add({{"disposition", "claimed_elsewhere"}}, double(t->ids.size()));
        return true;
      });
      if (Status s = store_.ReleaseClaims(give_back, owner_); !s.ok()) {
        NoteStorage(s, "release", true);
        return s;
      }
    }
    std::lock_guard lock(inflight_mu_);
    for (const auto& t : tasks)
      for (size_t k = 0; k < t->ids.size(); ++k) inflight_[t->ids[k]] = Wait{t, k};
  }

  // From here on the request is accepted and may change stored state.
  // A failure from here on must still release the signals registered in flight.
  auto release = [&] {
    std::lock_guard lock(inflight_mu_);
    for (const auto& t : tasks)
      for (const std::string& id : t->ids)
        if (auto it = inflight_.find(id); it != inflight_.end() && it->second.state == t)
          inflight_.erase(it);
  };
  if (Status s = store_.Put(stale_rows); !s.ok() || !stale_rows.empty()) {
    NoteStorage(s, "put", true);
    if (!s.ok()) {
      release();
      return s;
    }
  }
  signals.Add({{"disposition", "stale"}}, double(stale_rows.size()));
  std::unordered_map<std::string, std::vector<std::string>> keep_by_post;
  for (const Spot& spot : req.spots)
    for (const Bundle& b : spot.bundles) {
      auto& keep = keep_by_post[b.post_id];
      for (size_t i = 0; i < b.size(); ++i) keep.push_back(b.at(i).signal_id);
    }
  if (Status s = store_.RemoveMissingComments(keep_by_post); !s.ok()) {
    NoteStorage(s, "remove", true);
    release();
    return s;
  }

  for (auto& t : tasks) {
    signals.Add({{"disposition", "judged"}}, double(t->ids.size()));
    pool_->Submit([this, t] { RunTask(t); });
  }

  // Wait for each spot's judgments, keeping a margin to answer on time.
  const Deadline wait_until = deadline - options_.answer_margin;
  AnalysisResponse resp;
  resp.analyzed_at = req.analyzed_at.text;
  resp.state_epoch = epoch;
  auto& spots_total = metrics_.Counter("nunchi_spots_total", "Spot results by status.");
  bool storage_failed = false;
  for (size_t s = 0; s < req.spots.size(); ++s) {
    bool ok = true;
    for (const Wait& w : waits[s]) {
      if (elsewhere.count(w.state.get())) {
        ok = false;
        break;
      }
      std::unique_lock lock(w.state->mu);
      if (!w.state->cv.wait_until(lock, wait_until, [&] { return w.state->done; }) ||
          !w.state->results[w.index].ok()) {
        if (w.state->done && w.state->results[w.index].status().code() == ErrorCode::kIo)
          storage_failed = true;
        ok = false;
        break;
      }
    }
    SpotResult result;
    if (ok) {
      auto reports = store_.ReportsForSpot(req.spots[s].info.spot_id, window_start);
      NoteStorage(reports.status(), "reports", false);
      if (!reports.ok()) return reports.status();
      result = Aggregate(req.spots[s].info.spot_id, req.analyzed_at.ms, *reports);
    } else {
      result.spot_id = req.spots[s].info.spot_id;
      result.status = AnalysisStatus::kFailed;
    }
    spots_total.Add({{"status", ok ? "OK" : "FAILED"}});
    resp.spots.push_back(std::move(result));
  }
  // Judgments that could not be stored do not count: a 503, not 200 with FAILED spots.
  if (storage_failed)
    return Status(ErrorCode::kIo, "judgments could not be stored (disk full or I/O error); retry");
  // A new epoch since the start: some reads may have come from the new, empty
  // store, so the results may lack reports. Never answer from such a mix.
  if (store_.Epoch() != epoch) {
    resets.Add({{"reason", "epoch_changed"}});
    return Status(ErrorCode::kStateReset,
                  "the store started a new epoch during this request (it found corruption); "
                  "resend all signals as new");
  }
  MaybePrune(now_ms);
  return resp;
}

void AnalysisService::RunTask(std::shared_ptr<TaskState> t) {
  auto& judgments = metrics_.Counter("nunchi_judgments_total", "Judgments by judge and outcome.");
  auto& latency = metrics_.Histogram("nunchi_judge_duration_seconds",
                                     "Time to judge one bundle's new signals.", LatencyBuckets());
  auto& confidence = metrics_.Histogram(
      "nunchi_judgment_confidence",
      "Confidence of each judgment by judge and field (relevance, level), where measured.",
      ConfidenceBuckets());
  judge_calls_.fetch_add(1);
  metrics_.Counter("nunchi_judge_calls_total", "Calls into the judge (one per bundle).").Add({});
  const auto start = Clock::now();
  JudgeOutput out;
  try {
    out = judge_.JudgeBundle(t->task);
  } catch (const std::exception& e) {
    out.clear();
    out.assign(t->ids.size(), Status(ErrorCode::kInternal, e.what()));
  }
  if (out.size() != t->ids.size()) {
    out.clear();
    out.assign(t->ids.size(), Status(ErrorCode::kInternal, "judge answered the wrong count"));
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  latency.Observe({{"judge", std::string(judge_.name())}}, secs);

  std::vector<StoredJudgment> rows;
  for (size_t k = 0; k < out.size(); ++k) {
    if (!out[k].ok()) continue;
    StoredJudgment row = t->row_templates[k];
    row.judgment = out[k].value();
    row.judged_at = WallNowMs();
    rows.push_back(std::move(row));
    // Write-ahead: the decision line of a judgment is in the file before its
    // row is committed, so no answer (this cycle's or a later one reusing the
    // row) carries a judgment whose line a kill could lose.
    if (log_) {
      const std::string& text = t->task.bundle.at(t->task.targets[k]).text;
      log_->Write({t->task.request_id, t->task.spot.spot_id, t->ids[k], "judged", &out[k].value(),
                   secs, &text});
    }
  }
  if (Status s = store_.Put(rows); !s.ok()) {
    NoteStorage(s, "put", true);
    for (auto& r : out)
      if (r.ok()) r = s;
  } else if (!rows.empty()) {
    NoteStorage(s, "put", true);
  }
  // Put released the claims of what it stored; give back the rest, so that
  // another replica (or this one, next cycle) may judge them at once.
  std::vector<std::string> unjudged;
  for (size_t k = 0; k < out.size(); ++k)
    if (!out[k].ok()) unjudged.push_back(t->ids[k]);
  (void)store_.ReleaseClaims(unjudged, owner_);
  for (size_t k = 0; k < out.size(); ++k) {
    const Judgment* j = out[k].ok() ? &out[k].value() : nullptr;
    std::string outcome =
        j ? "judged" : std::string("failed:") + ErrorCodeName(out[k].status().code());
    judgments.Add({{"judge", j ? j->judge : "none"},
                   {"outcome", j ? "ok" : ErrorCodeName(out[k].status().code())}});
    if (j && j->relevance_confidence >= 0)
      confidence.Observe({{"judge", j->judge}, {"field", "relevance"}}, j->relevance_confidence);
    if (j && j->level_confidence >= 0)
      confidence.Observe({{"judge", j->judge}, {"field", "level"}}, j->level_confidence);
    if (log_ && !j) {  // a judged line was written ahead; a store failure adds this one
      const std::string& text = t->task.bundle.at(t->task.targets[k]).text;
      log_->Write({t->task.request_id, t->task.spot.spot_id, t->ids[k], outcome, j, secs, &text});
    }
  }
  {
    std::lock_guard lock(inflight_mu_);
    for (const std::string& id : t->ids)
      if (auto it = inflight_.find(id); it != inflight_.end() && it->second.state == t)
        inflight_.erase(it);
  }
  {
    std::lock_guard lock(t->mu);
    t->results = std::move(out);
    t->done = true;
  }
  t->cv.notify_all();
}

void AnalysisService::MaybePrune(TimeMs now_ms) {
  TimeMs last = last_prune_ms_.load();
  if (now_ms - last < kMinuteMs || !last_prune_ms_.compare_exchange_strong(last, now_ms)) return;
  auto n = store_.Prune(now_ms - options_.retention_ms);
  if (n.ok() && *n > 0)
    metrics_.Counter("nunchi_store_pruned_total", "Judgments pruned by age.").Add({}, double(*n));
}

}  // namespace nunchi
