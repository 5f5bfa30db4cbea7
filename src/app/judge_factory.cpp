#include "app/judge_factory.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "judges/calibration.h"
#include "judges/cascade.h"
#include "judges/classifier_file.h"
#include "judges/default_judge.h"
#include "judges/router.h"
#include "llm/prompt.h"
#include "ops/log.h"
#ifdef NUNCHI_HAVE_REMOTE
#include "engines/remote/remote_judge.h"
#include "engines/remote/remote_pool.h"
#endif
#ifdef NUNCHI_HAVE_LLAMA
#include "app/llama_chain.h"
#endif

namespace nunchi {
namespace {

class Chain : public JudgeChain {
 public:
  Judge& judge() override { return cascade_ ? static_cast<Judge&>(*cascade_) : *router_; }
  std::string describe() const override { return description_; }
  std::shared_ptr<llm::TextEngine> llama_engine() const override { return llama_engine_; }

  std::vector<std::shared_ptr<void>> keep_alive_;  // engines the judges point into
  std::vector<std::shared_ptr<Judge>> judges_;
  std::unique_ptr<judges::Router> router_;
  std::unique_ptr<judges::Cascade> cascade_;  // destroyed first: it borrows judges_
  std::string description_;
  std::shared_ptr<llm::TextEngine> llama_engine_;
};

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

#ifdef NUNCHI_HAVE_REMOTE
Result<std::shared_ptr<Judge>> MakeRemote(const JudgeOptions& o, MetricsRegistry* metrics) {
  auto kind = remote::ParseBackendKind(o.backend);
  if (!kind) return Status(ErrorCode::kInvalidArgument, "unknown --backend '" + o.backend + "'");
  std::vector<std::shared_ptr<remote::RemoteJudge>> members;
  for (size_t i = 0; i < o.base_urls.size(); ++i) {
    remote::RemoteOptions ro;
    ro.name = o.base_urls.size() == 1 ? o.backend : o.backend + "-" + std::to_string(i + 1);
    ro.base_url = o.base_urls[i];
    ro.model = o.remote_model;
    ro.kind = *kind;
    ro.api_key_env = o.api_key_env;
    if (ro.api_key_env.empty() && o.api_key_file.empty() && std::getenv("NUNCHI_API_KEY"))
      ro.api_key_env = "NUNCHI_API_KEY";
    ro.api_key_file = o.api_key_file;
    ro.timeout = std::chrono::milliseconds(o.remote_timeout_ms);
    ro.max_concurrency = o.remote_concurrency;
    ro.stream = o.remote_stream;
    if (!o.llm_prompt_version.empty()) ro.prompt_version = o.llm_prompt_version;
    if (o.escalation_comments >= 0) ro.escalation.latest_comments = size_t(o.escalation_comments);
    auto judge = remote::RemoteJudge::Create(ro);
    if (!judge.ok()) return judge.status();
    std::shared_ptr<remote::RemoteJudge> shared = std::move(judge).value();
    if (metrics) {
      std::weak_ptr<remote::RemoteJudge> weak = shared;
      Labels labels = {
          {"backend", ro.name}, {"model", ro.model}, {"prompt_version", ro.prompt_version}};
      metrics->OnRender([weak, labels](MetricsRegistry& m) {
        auto j = weak.lock();
        if (!j) return;
        const remote::RemoteStats& s = j->stats();
        auto set = [&](const char* name, const char* help, uint64_t v) {
          m.Counter(name, help).Set(labels, double(v));
        };
        set("nunchi_remote_calls_total", "Remote judge calls.", s.calls);
        set("nunchi_remote_attempts_total", "HTTP exchanges with the model server.", s.attempts);
        set("nunchi_remote_retries_total", "Attempts after the first.", s.retries);
        set("nunchi_remote_http_errors_total", "Non-2xx answers.", s.http_errors);
        set("nunchi_remote_rate_limited_total", "429/503 answers.", s.rate_limited);
        set("nunchi_remote_timeouts_total", "Calls cut at their deadline.", s.timeouts);
        set("nunchi_remote_transport_errors_total", "Attempts that got no HTTP answer.",
            s.transport_errors);
        set("nunchi_remote_loops_stopped_total", "Streams cut by the degeneration guard.",
            s.degenerations);
        set("nunchi_remote_length_stops_total", "Answers that hit the token cap.", s.length_stops);
        set("nunchi_remote_degenerations_total",
            "Answers that hit the token cap with a repeating tail (Dharma).", s.cap_degenerations);
        set("nunchi_remote_invalid_answers_total", "Answers failing every target.",
            s.invalid_answers);
        set("nunchi_remote_breaker_rejections_total", "Calls refused by the open breaker.",
            s.breaker_rejections);
      });
    }
    members.push_back(std::move(shared));
  }
  if (members.size() == 1) return std::shared_ptr<Judge>(members[0]);
  remote::PoolOptions po;
  po.policy = o.pool_policy == "round-robin" ? remote::PoolPolicy::kRoundRobin
                                             : remote::PoolPolicy::kLeastBusy;
  po.affinity = o.remote_affinity != "off";
  po.epsilon = o.remote_affinity_epsilon;
  po.health.interval = std::chrono::milliseconds(o.remote_probe_interval_ms);
  po.health.timeout = std::chrono::milliseconds(o.remote_probe_timeout_ms);
  auto pool = std::make_shared<remote::RemotePool>(o.backend, members, po);
  if (metrics) {
    std::weak_ptr<remote::RemotePool> weak = pool;
    Labels labels = {{"pool", o.backend}, {"affinity", po.affinity ? "on" : "off"}};
    metrics->OnRender([weak, labels](MetricsRegistry& m) {
      auto p = weak.lock();
      if (!p) return;
      const remote::PoolStats& s = p->stats();
      auto set = [&](const char* route, uint64_t v) {
        Labels l = labels;
        l.emplace_back("route", route);
        m.Counter("nunchi_remote_pool_calls_total",
                  "Pool calls by route: home (the bundle's server), spilled (home over its "
                  "load bound), moved (home unready), failed_over (a server unreachable).")
            .Set(l, double(v));
      };
      set("home", s.home);
      set("spilled", s.spilled);
      set("moved", s.moved);
      set("failed_over", s.failed_over);
    });
  }
  return std::shared_ptr<Judge>(pool);
}
#endif

}  // namespace

void AddJudgeFlags(CLI::App* cmd, JudgeOptions* o) {
  cmd->add_option("--route,--judge", o->route,
                  "cascade (the default judge, the LLM only where it is unsure), or judges in "
                  "order, comma-separated: llama, remote, default (a fallback chain); auto: "
                  "cascade when an LLM is configured, else default")
      ->capture_default_str();
  cmd->add_option("--classifier", o->classifier_file,
                  "Classifier model from `nunchi train` for the default judge (default: the one "
                  "compiled in; serve: DATA_DIR/classifier.model when present)");
  cmd->add_option(
      "--calibration", o->calibration_file,
      "Cascade calibration file from `nunchi calibrate` (default: the one compiled in)");
  cmd->add_option("--escalation-threshold", o->escalation_threshold,
                  "Override the calibration's threshold (0..1; escalate below it)")
      ->check(CLI::Range(0.0, 1.5));
  cmd->add_option("--escalation-comments", o->escalation_comments,
                  "Cascade escalations to the LLM (llama.cpp or remote) show the post, the targets "
                  "and the latest K "
                  "comments, and ask the cause text for the last target only (-1: the whole "
                  "judge-v1 prompt; --bundles-per-call above 1 keeps the batch prompt)")
      ->check(CLI::Range(-1, 1000))
      ->capture_default_str();
  cmd->add_option("--escalation-wait-ms", o->escalation_wait_ms,
                  "The cascade waits at most this long for the LLM per request (0: the request "
                  "deadline); later answers replace the cheap ones for the next cycles")
      ->check(CLI::Range(0, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--background-chunk", o->background_chunk,
                  "Most prompt tokens a deferred cascade call prefills per llama.cpp step, so "
                  "that an escalation somebody waits for starts soon after it arrives (0: the "
                  "whole batch)")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--model", o->model_path, "GGUF model for the in-process llama.cpp judge");
  cmd->add_option("--threads", o->threads, "llama.cpp threads (0: all cores)")
      ->capture_default_str();
  cmd->add_option(
         "--ctx-size", o->ctx_size,
         "llama.cpp KV cells in all, split between the --parallel sequences (0: 4096 each)")
      ->capture_default_str();
  cmd->add_option("--parallel", o->parallel, "llama.cpp sequences decoded together")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--flash-attn", o->flash_attn, "llama.cpp flash attention: off, on, auto")
      ->check(CLI::IsMember({"off", "on", "auto"}))
      ->capture_default_str();
  cmd->add_flag("--kv-unified", o->kv_unified,
                "llama.cpp: one KV buffer for all --parallel sequences instead of a stream each "
                "(faster decode of short prompts, slower prefill of long ones)");
  cmd->add_option("--prefix-cache-mb", o->prefix_cache_mb,
                  "Host memory for saved prompt states (the prefix cache)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--prefix-cache-dir", o->cache_dir, "Where saved prefix states live");
  cmd->add_flag("!--no-prefix-reuse", o->prefix_reuse, "Recompute every prompt from scratch");
  cmd->add_option("--bundles-per-call", o->bundles_per_call,
                  "Batch prompting: bundles judged in one llama.cpp request (1: each its own)")
      ->check(CLI::Range(1, 26))
      ->capture_default_str();
  cmd->add_option("--context-comments", o->context_comments,
                  "llama.cpp prompts show the post and only the latest K to 1.5 K comments "
                  "of a bundle (0: all)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--backend", o->backend, "Remote model server kind: openai, vllm, llama-server")
      ->capture_default_str();
  cmd->add_option("--base-url", o->base_urls,
                  "Remote server root incl. /v1 (repeat for a pool of servers)");
  cmd->add_option("--remote-model", o->remote_model, "Model name on the remote server");
  cmd->add_option("--api-key-env", o->api_key_env,
                  "Environment variable holding the API key (default: NUNCHI_API_KEY if set)");
  cmd->add_option("--api-key-file", o->api_key_file, "File holding the API key");
  cmd->add_option("--remote-timeout-ms", o->remote_timeout_ms,
                  "Longest one remote judgment may take")
      ->capture_default_str();
  cmd->add_option("--remote-concurrency", o->remote_concurrency, "Requests in flight per server")
      ->capture_default_str();
  cmd->add_option("--remote-stream", o->remote_stream, "Stream answers (SSE) through the guard")
      ->capture_default_str();
  cmd->add_option("--pool-policy", o->pool_policy,
                  "Several --base-url, affinity off: least-busy or round-robin")
      ->capture_default_str();
  cmd->add_option("--remote-affinity", o->remote_affinity,
                  "Several --base-url: on sends each bundle to the same server (bounded-load "
                  "consistent hashing, so its prefix cache holds the bundle); off: --pool-policy")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  cmd->add_option("--remote-affinity-epsilon", o->remote_affinity_epsilon,
                  "A server over (1+epsilon) x its share of in-flight calls spills to the next "
                  "on the ring")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--remote-probe-interval-ms", o->remote_probe_interval_ms,
                  "Several --base-url: probe each server by a one-token completion this often "
                  "(skipped while real calls answer); 2 failed probes take it out (0: no probes)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--remote-probe-timeout-ms", o->remote_probe_timeout_ms,
                  "A probe not answered within this fails")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

namespace {

Result<judges::CascadeCalibration> LoadCalibration(const JudgeOptions& o) {
  judges::CascadeCalibration c = judges::EmbeddedCalibration();
  if (!o.calibration_file.empty()) {
    std::ifstream in(o.calibration_file);
    if (!in)
      return Status(ErrorCode::kInvalidArgument, "cannot read --calibration " + o.calibration_file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto parsed = judges::ParseCalibration(text);
    if (!parsed.ok()) return parsed.status();
    c = *parsed;
  }
  if (o.escalation_threshold >= 0) {
    c.threshold = o.escalation_threshold;
    c.version += "+threshold=" + std::to_string(o.escalation_threshold);
  }
  return c;
}

void ExportCascade(MetricsRegistry* metrics, judges::Cascade* cascade, const std::string& llm) {
  if (!metrics) return;
  Labels labels = {{"judge", llm}, {"calibration", cascade->options().calibration_version}};
  metrics->OnRender([cascade, labels](MetricsRegistry& m) {
    const judges::CascadeStats& s = cascade->stats();
    auto set = [&](const char* name, const char* help, uint64_t v) {
      m.Counter(name, help).Set(labels, double(v));
    };
    set("nunchi_cascade_targets_total", "Targets the cascade judged.", s.targets);
    set("nunchi_cascade_unsure_total", "Targets under the escalation threshold.", s.unsure);
    set("nunchi_cascade_escalated_total", "Targets sent to the LLM and waited for.", s.escalated);
    set("nunchi_cascade_llm_in_time_total", "Escalated targets the LLM answered in time.",
        s.llm_in_time);
    set("nunchi_cascade_kept_for_time_total", "Unsure targets kept cheap: no time in the budget.",
        s.kept_for_time);
    set("nunchi_cascade_deferred_total",
        "Unsure targets kept cheap for time but sent anyway; their answers replace the stored "
        "cheap ones.",
        s.deferred);
    set("nunchi_cascade_kept_for_error_total",
        "Escalated targets kept cheap: the LLM failed or was late.", s.kept_for_error);
    set("nunchi_cascade_late_replaced_total", "Late LLM answers that replaced a stored one.",
        s.late_replaced);
    set("nunchi_cascade_agreed_total", "LLM answers that agreed with the cheap judge.", s.agreed);
    set("nunchi_cascade_overturned_total", "LLM answers that overturned the cheap judge.",
        s.overturned);
    set("nunchi_cascade_shared_total",
        "Escalated calls that shared the engine with another (the budget does not learn from "
        "them).",
        s.shared);
    m.Gauge("nunchi_cascade_target_seconds", "The budget's current estimate per target.")
        .Set(labels, cascade->target_seconds());
    m.Gauge("nunchi_cascade_char_seconds",
            "The budget's current estimate per code point of uncached prompt text.")
        .Set(labels, cascade->char_seconds());
  });
}

}  // namespace

namespace {

// One line per escalated call: debug, or info when somebody waited and the
// answer came after the wait (to explain a late escalation, not guess at it).
void LogEscalation(const judges::CascadeCallReport& r) {
  const LogLevel level = r.late ? LogLevel::kInfo : LogLevel::kDebug;
  if (!LogEnabled(level)) return;
  char msg[160];
  std::snprintf(msg, sizeof msg,
                "%s escalation of %zu target(s): planned %.2f s, queued %.2f s, "
                "llm %.2f s%s",
                r.deferred ? "deferred" : "waited", r.targets, r.predicted_s, r.queued_s, r.llm_s,
                r.late ? ", after the wait" : "");
  LogEvent(level, "escalation", msg,
           {{"targets", r.targets},
            {"deferred", r.deferred},
            {"late", r.late},
            {"failed", r.failed},
            {"in_flight_at_start", r.in_flight_at_start},
            {"max_text_chars", r.max_text_chars},
            {"context_chars", r.context_chars},
            {"chars", r.chars},
            {"predicted_s", r.predicted_s},
            {"queued_s", r.queued_s},
            {"llm_s", r.llm_s}});
}

}  // namespace

Result<std::unique_ptr<JudgeChain>> MakeJudgeChain(const JudgeOptions& o,
                                                   MetricsRegistry* metrics) {
  auto chain = std::make_unique<Chain>();
  std::vector<std::string> route = Split(o.route);
  const bool has_llm = !o.model_path.empty() || !o.base_urls.empty();
  if (o.route == "auto") route = {has_llm ? "cascade" : "default"};
  if (route.size() == 1 && route[0] == "cascade") {
    if (!has_llm)
      return Status(ErrorCode::kInvalidArgument, "route 'cascade' needs --model or --base-url");
    auto cal = LoadCalibration(o);
    if (!cal.ok()) return cal.status();
    JudgeOptions inner = o;
    inner.route = !o.model_path.empty() ? "llama,default" : "remote,default";
    // The escalation prompt (llama or remote) is one bundle per call: asking
    // llama for more bundles per call keeps the batch prompt rather than
    // ignoring the flag.
    const bool short_prompt =
        o.escalation_comments >= 0 && (o.model_path.empty() || o.bundles_per_call <= 1);
    if (short_prompt) inner.llm_prompt_version = std::string(llm::kEscalationPromptVersion);
    auto base = MakeJudgeChain(inner, metrics);
    if (!base.ok()) return base.status();
    auto* b = static_cast<Chain*>(base->get());
    chain->keep_alive_ = std::move(b->keep_alive_);
    chain->judges_ = std::move(b->judges_);
    chain->llama_engine_ = b->llama_engine_;
    chain->router_ = std::move(b->router_);
    judges::CascadeOptions co;
    co.threshold = cal->threshold;
    co.calibration_version = cal->version;
    co.max_wait = std::chrono::milliseconds(o.escalation_wait_ms);
    co.on_call = LogEscalation;
    if (o.escalation_comments >= 0) co.shown_comments = size_t(o.escalation_comments);
    chain->cascade_ = std::make_unique<judges::Cascade>(chain->judges_.back().get(),
                                                        chain->judges_.front().get(), co);
    const std::string llm(chain->judges_.front()->name());
    ExportCascade(metrics, chain->cascade_.get(), llm);
    char thr[32];
    std::snprintf(thr, sizeof thr, "%.3f", co.threshold);
    chain->description_ =
        "cascade(" + b->description_ + "; escalate under confidence " + thr + ", " +
        co.calibration_version +
        (o.escalation_wait_ms > 0 ? "; wait <= " + std::to_string(o.escalation_wait_ms) + " ms"
                                  : std::string()) +
        (short_prompt ? "; prompt " + inner.llm_prompt_version + ", latest " +
                            std::to_string(o.escalation_comments) + " comments"
                      : std::string()) +
        ")";
    return std::unique_ptr<JudgeChain>(std::move(chain));
  }
  for (const auto& name : route)
    if (name == "cascade")
      return Status(ErrorCode::kInvalidArgument,
                    "'cascade' is a route of its own: --route cascade");
  std::string desc;
  for (const std::string& name : route) {
    std::shared_ptr<Judge> judge;
    if (name == "default") {
      if (o.classifier_file.empty()) {
        judge = std::make_shared<judges::DefaultJudge>();
      } else {
        auto model = judges::ReadClassifierModel(o.classifier_file);
        if (!model.ok()) return model.status();
        judge = std::make_shared<judges::DefaultJudge>(
            std::make_shared<const judges::Classifier>(std::move(model).value()));
        desc += std::string(desc.empty() ? "" : " > ") + "default(classifier " + o.classifier_file +
                ")";
        chain->judges_.push_back(std::move(judge));
        continue;
      }
    } else if (name == "remote") {
#ifdef NUNCHI_HAVE_REMOTE
      if (o.base_urls.empty())
        return Status(ErrorCode::kInvalidArgument, "route 'remote' needs --base-url");
      auto r = MakeRemote(o, metrics);
      if (!r.ok()) return r.status();
      judge = *r;
#else
      return Status(ErrorCode::kInvalidArgument, "this build has no remote backends");
#endif
    } else if (name == "llama") {
#ifdef NUNCHI_HAVE_LLAMA
      if (o.model_path.empty())
        return Status(ErrorCode::kInvalidArgument, "route 'llama' needs --model FILE.gguf");
      auto r = MakeLlamaJudge(o, metrics);
      if (!r.ok()) return r.status();
      chain->keep_alive_.push_back(r->engine);
      chain->llama_engine_ = r->engine;
      judge = r->judge;
#else
      return Status(ErrorCode::kInvalidArgument, "this build has no llama.cpp engine");
#endif
    } else {
      return Status(ErrorCode::kInvalidArgument,
                    "unknown judge '" + name + "' in --route (llama, remote, default)");
    }
    desc += (desc.empty() ? "" : " > ") + std::string(judge->name());
    if (name == "llama" && o.bundles_per_call > 1)
      desc += "(" + std::to_string(o.bundles_per_call) + " bundles per call)";
    chain->judges_.push_back(std::move(judge));
  }
  if (chain->judges_.empty()) return Status(ErrorCode::kInvalidArgument, "--route is empty");
  chain->router_ = std::make_unique<judges::Router>(chain->judges_, "router");
  chain->description_ = desc;
  return std::unique_ptr<JudgeChain>(std::move(chain));
}

}  // namespace nunchi
