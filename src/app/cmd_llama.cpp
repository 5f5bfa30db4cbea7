// Commands and judge wiring that exist only with llama.cpp: make-model,
// bench-engine, tokens, the in-process judge of the chain, and the OpenMP wait
// policy the engine runs best under.
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "app/cmd_bench_engine.h"
#include "app/cmd_make_model.h"
#include "app/commands.h"
#include "app/llama_chain.h"
#include "engines/llama/engine.h"
#include "engines/llama/llama_judge.h"
#include "llm/prompt.h"

namespace nunchi {

void PreferPassiveOpenMp(char** argv) {
  // llama.cpp's CPU backend syncs its threads at an OpenMP barrier after
  // every op. libgomp spins there by default; on a machine with more
  // runnable threads than cores the engine's decode then ran 4-10x slower
  // than with sleeping waits (docs/benchmarks.md, "OpenMP wait policy").
  // libgomp reads the policy once, when it loads: set it and start again.
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT") ||
      std::getenv("NUNCHI_OMP_SET"))
    return;
  setenv("OMP_WAIT_POLICY", "passive", 1);
  setenv("NUNCHI_OMP_SET", "1", 1);
  execv("/proc/self/exe", argv);
  // exec failed: carry on under the spinning default.
}

void AddLlamaCommands(CLI::App& app) {
  AddMakeModelCommand(app);
  AddBenchEngineCommand(app);
  AddTokensCommand(app);
}

Result<LlamaChainParts> MakeLlamaJudge(const JudgeOptions& o, MetricsRegistry* metrics) {
  llama::EngineOptions eo;
  eo.model_path = o.model_path;
  eo.threads = o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  eo.max_active = o.parallel;
  eo.n_ctx = o.ctx_size > 0 ? o.ctx_size : 4096 * o.parallel;
  eo.cache_budget_bytes = static_cast<size_t>(o.prefix_cache_mb) << 20;
  eo.flash_attn = o.flash_attn == "on"     ? llama::FlashAttention::kOn
                  : o.flash_attn == "auto" ? llama::FlashAttention::kAuto
                                           : llama::FlashAttention::kOff;
  eo.kv_unified = o.kv_unified;
  eo.background_chunk = o.background_chunk;
  eo.cache_dir = o.prefix_reuse ? o.cache_dir : "";
  if (!o.prefix_reuse) {
    eo.max_cached = 0;
    eo.cache_budget_bytes = 0;
  }
  auto engine = llama::LlamaEngine::Create(eo);
  if (!engine.ok()) return engine.status();
  std::shared_ptr<llama::LlamaEngine> shared_engine = std::move(engine).value();
  llama::LlamaJudgeOptions jo;
  jo.bundles_per_call = static_cast<size_t>(o.bundles_per_call);
  jo.render.context_comments = static_cast<size_t>(o.context_comments);
  jo.prompt_version = o.llm_prompt_version;
  if (o.escalation_comments >= 0) jo.escalation.latest_comments = size_t(o.escalation_comments);
  auto judge = llama::LlamaJudge::Create(shared_engine.get(), jo);
  if (!judge.ok()) return judge.status();
  std::shared_ptr<llama::LlamaJudge> shared_judge = std::move(judge).value();
  if (metrics) {
    std::weak_ptr<llama::LlamaEngine> weak = shared_engine;
    std::weak_ptr<llama::LlamaJudge> weak_judge = shared_judge;
    Labels labels = {
        {"model", shared_engine->model_identity()},
        {"prompt_version", o.llm_prompt_version.empty() ? std::string(llm::kJudgePromptVersion)
                                                        : o.llm_prompt_version}};
    metrics->OnRender([weak, weak_judge, labels](MetricsRegistry& m) {
      auto e = weak.lock();
      if (!e) return;
      const llama::EngineCounters c = e->Counters();
      auto set = [&](const char* name, const char* help, uint64_t v) {
        m.Counter(name, help).Set(labels, double(v));
      };
      set("nunchi_llm_requests_total", "Engine requests.", c.requests);
      set("nunchi_llm_prefill_tokens_total", "Prompt tokens computed.", c.prefill_computed);
      set("nunchi_llm_prefix_reused_tokens_total", "Prompt tokens taken from the prefix cache.",
          c.prefill_reused);
      set("nunchi_llm_generated_tokens_total", "Tokens generated (sampled + forced).", c.generated);
      set("nunchi_llm_forced_tokens_total", "Tokens the grammar forced, fed without sampling.",
          c.forced);
      set("nunchi_llm_loops_stopped_total", "Generations cut because their tail repeated.",
          c.loops_stopped);
      set("nunchi_llm_retries_total", "Second attempts after a loop.", c.retries);
      set("nunchi_llm_loop_holds_total",
          "Decodes a suspected loop sat out while healthy requests ran.", c.loop_holds);
      set("nunchi_llm_degenerations_total",
          "Looped twice, or hit the token cap with a repeating tail (Dharma).", c.degenerations);
      set("nunchi_llm_fallbacks_total", "Requests handed to the fallback judge.", c.fallbacks);
      set("nunchi_llm_deadline_exceeded_total", "Requests dropped at their deadline.",
          c.deadline_exceeded);
      set("nunchi_llm_engine_faults_total",
          "Failures caught on the engine thread (the engine went on).", c.faults);
      set("nunchi_llm_engine_faulted_requests_total",
          "Requests those failures answered with an internal error.", c.faulted_requests);
      m.Counter("nunchi_llm_decode_seconds_total", "Engine time inside llama_decode.")
          .Set(labels, double(c.decode_ns) * 1e-9);
      m.Counter("nunchi_llm_sample_seconds_total",
                "Engine time sampling under the grammar and taking forced text.")
          .Set(labels, double(c.sample_ns) * 1e-9);
      m.Gauge("nunchi_llm_ready", "1 when the engine makes progress.")
          .Set(labels, e->Ready() ? 1 : 0);
      if (auto j = weak_judge.lock()) {
        set("nunchi_llm_batch_requests_total",
            "Engine requests made by batch prompting (--bundles-per-call).", j->batches());
        set("nunchi_llm_batched_bundles_total", "Bundles those requests held.",
            j->batched_bundles());
      }
    });
  }
  LlamaChainParts parts;
  parts.judge = shared_judge;
  parts.engine = shared_engine;
  return parts;
}

}  // namespace nunchi
