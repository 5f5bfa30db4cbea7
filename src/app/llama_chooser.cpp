#include "app/llama_chooser.h"

#include <thread>
#include <utility>

#include "choosers/llama_candidate_chooser.h"
#include "engines/llama/engine.h"

namespace nunchi {
namespace {

using choosers::LlamaCandidateChooser;

struct Holder {
  std::shared_ptr<llm::TextEngine> engine;  // declared first: destroyed after the chooser
  std::unique_ptr<LlamaCandidateChooser> chooser;
};

void ExportCounters(const std::shared_ptr<extract::CandidateChooser>& shared,
                    const LlamaCandidateChooser* chooser, const std::string& model,
                    MetricsRegistry* metrics) {
  std::weak_ptr<extract::CandidateChooser> weak = shared;
  Labels labels = {{"model", model}, {"prompt_version", std::string(chooser->prompt_version())}};
  metrics->OnRender([weak, chooser, labels](MetricsRegistry& m) {
    auto alive = weak.lock();
    if (!alive) return;
    const choosers::ChooserCounters c = chooser->Counters();
    auto set = [&](const char* name, const char* help, uint64_t v) {
      m.Counter(name, help).Set(labels, double(v));
    };
    set("nunchi_extract_chooser_calls_total", "Extraction fields the rules left to the LLM.",
        c.calls);
    set("nunchi_extract_chooser_picks_total", "LLM answers naming a candidate.", c.picks);
    set("nunchi_extract_chooser_overrides_total",
        "LLM picks that differ from the rules' best-scored candidate.", c.overrides);
    set("nunchi_extract_chooser_kept_total", "Calls that kept the rules' choice (answer null).",
        c.kept);
    set("nunchi_extract_chooser_timeouts_total", "Calls past their deadline (rules' choice kept).",
        c.timeouts);
    set("nunchi_extract_chooser_errors_total", "Engine errors (rules' choice kept).", c.errors);
  });
}

}  // namespace

Result<std::shared_ptr<extract::CandidateChooser>> MakeLlamaChooser(
    std::shared_ptr<llm::TextEngine> engine, const ChooserFlags& flags, MetricsRegistry* metrics) {
  if (!engine) return Status(ErrorCode::kInvalidArgument, "no llama.cpp engine");
  llm::TextEngine* typed = engine.get();
  choosers::LlamaChooserOptions options;
  options.timeout = std::chrono::milliseconds(flags.timeout_ms);
  auto chooser = LlamaCandidateChooser::Create(typed, options);
  if (!chooser.ok()) return chooser.status();
  auto holder = std::make_shared<Holder>();
  holder->engine = std::move(engine);
  holder->chooser = std::move(chooser).value();
  const LlamaCandidateChooser* raw = holder->chooser.get();
  std::shared_ptr<extract::CandidateChooser> shared(holder, holder->chooser.get());
  if (metrics) ExportCounters(shared, raw, typed->model_identity(), metrics);
  return shared;
}

Result<std::shared_ptr<extract::CandidateChooser>> MakeStandaloneLlamaChooser(
    const std::string& model_path, int threads, const ChooserFlags& flags) {
  llama::EngineOptions eo;
  eo.model_path = model_path;
  eo.threads = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
  eo.n_ctx = 8192;  // one field at a time: a prompt is at most about 2,500 tokens
  eo.max_active = 2;
  eo.max_cached = 4;
  auto engine = llama::LlamaEngine::Create(eo);
  if (!engine.ok()) return engine.status();
  return MakeLlamaChooser(std::shared_ptr<llama::LlamaEngine>(std::move(engine).value()), flags,
                          nullptr);
}

std::string ChooserSummary(const extract::CandidateChooser* chooser) {
  auto* llama = dynamic_cast<const LlamaCandidateChooser*>(chooser);
  if (llama == nullptr) return "";
  const choosers::ChooserCounters c = llama->Counters();
  return "calls " + std::to_string(c.calls) + ", picks " + std::to_string(c.picks) + " (" +
         std::to_string(c.overrides) + " changed the rules' answer), kept " +
         std::to_string(c.kept) + ", timeouts " + std::to_string(c.timeouts) + ", errors " +
         std::to_string(c.errors);
}

}  // namespace nunchi
