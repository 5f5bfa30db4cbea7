#include "engines/llama/llama_judge.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

#include "ops/log.h"

namespace nunchi::llama {
namespace {

JudgeOutput AllFailed(size_t n, const Status& s) { return JudgeOutput(n, Result<Judgment>(s)); }

// Splits one parsed answer into consecutive parts of the given sizes.
std::vector<JudgeOutput> Split(JudgeOutput all, const std::vector<size_t>& sizes) {
  std::vector<JudgeOutput> out;
  size_t at = 0;
  for (size_t n : sizes) {
    out.emplace_back(std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(at)),
                     std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(at + n)));
    at += n;
  }
  return out;
}

Status WarmSystem(llm::TextEngine* engine, const llm::PromptTemplate& prompt) {
  // The system message alone is a prefix of every rendered chat: compute it once.
  auto prefix = engine->ApplyChatTemplate({{"system", std::string(llm::SharedPrefix(prompt))}},
                                          /*add_assistant=*/false);
  if (!prefix.ok()) return prefix.status();
  return engine->WarmPrefix(*prefix);
}

}  // namespace

LlamaJudge::LlamaJudge(llm::TextEngine* engine, LlamaJudgeOptions options,
                       llm::PromptTemplate prompt)
    : engine_(engine), options_(std::move(options)), prompt_(prompt) {
  stamp_ = {"llama", engine_->model_identity(), std::string(prompt_.version)};
}

Result<std::unique_ptr<LlamaJudge>> LlamaJudge::Create(llm::TextEngine* engine,
                                                       LlamaJudgeOptions options) {
  const std::string version = options.prompt_version.empty() ? std::string(llm::kJudgePromptVersion)
                                                             : options.prompt_version;
  const auto prompt = llm::FindPrompt(version);
  if (!prompt) return Status(ErrorCode::kInvalidArgument, "unknown prompt version " + version);
  if (options.bundles_per_call < 1 || options.bundles_per_call > llm::kMaxBatchBundles)
    return Status(ErrorCode::kInvalidArgument,
                  "bundles per call must be 1 to " + std::to_string(llm::kMaxBatchBundles));
  std::unique_ptr<LlamaJudge> judge(new LlamaJudge(engine, std::move(options), *prompt));
  if (Status s = WarmSystem(engine, *prompt); !s.ok()) return s;
  if (judge->options_.bundles_per_call > 1 && version != llm::kEscalationPromptVersion) {
    judge->batch_prompt_ = *llm::FindPrompt(llm::kBatchPromptVersion);
    judge->batch_stamp_ = {"llama", engine->model_identity(),
                           std::string(judge->batch_prompt_.version)};
    if (Status s = WarmSystem(engine, judge->batch_prompt_); !s.ok()) return s;
    LlamaJudge* self = judge.get();
    judge->gatherer_ = std::make_unique<judges::BundleGatherer>(
        judge->options_.bundles_per_call, judge->options_.batch_window,
        [self](const std::vector<const JudgeTask*>& tasks) { return self->JudgeBatch(tasks); });
  }
  return judge;
}

Result<llm::EngineRequest> LlamaJudge::ChatRequest(const llm::RenderedPrompt& rendered) const {
  auto chat = engine_->ApplyChatTemplate({{"system", rendered.system}, {"user", rendered.user()}},
                                         /*add_assistant=*/true);
  if (!chat.ok()) return chat.status();
  llm::EngineRequest req;
  req.prompt = std::move(*chat);
  req.grammar = *grammars_.Gbnf(rendered.target_ids, rendered.with_text);
  // Every token carries at least one byte: the grammar always ends first.
  req.max_tokens = static_cast<int>(llm::MaxAnswerBytes(rendered.target_ids, rendered.with_text)) +
                   options_.extra_tokens;
  return req;
}

Result<llm::EngineRequest> LlamaJudge::BuildRequest(const JudgeTask& task,
                                                    std::vector<std::string>* ids,
                                                    std::vector<bool>* with_text) const {
  auto rendered = prompt_.version == llm::kEscalationPromptVersion
                      ? llm::RenderEscalationPrompt(task, prompt_, options_.escalation)
                      : llm::RenderJudgePrompt(task, prompt_, options_.render);
  if (!rendered.ok()) return rendered.status();
  auto req = ChatRequest(*rendered);
  if (!req.ok()) return req.status();
  req->deadline = task.deadline;
  req->priority = task.priority;
  req->id = task.request_id + "/" + task.bundle.post_id;
  *ids = std::move(rendered->target_ids);
  if (with_text) *with_text = std::move(rendered->with_text);
  return req;
}

Result<llm::EngineRequest> LlamaJudge::BuildBatchRequest(const std::vector<const JudgeTask*>& tasks,
                                                         std::vector<std::string>* ids) const {
  if (batch_prompt_.version.empty())
    return Status(ErrorCode::kInvalidArgument, "batch prompting is off");
  auto rendered = llm::RenderBatchPrompt(tasks, batch_prompt_, options_.render);
  if (!rendered.ok()) return rendered.status();
  auto req = ChatRequest(*rendered);
  if (!req.ok()) return req.status();
  req->deadline = Deadline::max();
  req->priority = tasks[0]->priority;
  req->id = tasks[0]->request_id + "/batch";
  for (const JudgeTask* t : tasks) {
    req->deadline = std::min(req->deadline, t->deadline);
    req->priority = std::max(req->priority, t->priority);  // the most urgent task's
    req->id += (t == tasks[0] ? "/" : "+") + t->bundle.post_id;
  }
  *ids = std::move(rendered->target_ids);
  return req;
}

JudgeOutput LlamaJudge::JudgeBundle(const JudgeTask& task) {
  if (gatherer_) return gatherer_->Submit(task);
  return JudgeOne(task);
}

JudgeOutput LlamaJudge::JudgeOne(const JudgeTask& task) {
  std::vector<std::string> ids;
  llm::ParseOptions parse;
  auto req = BuildRequest(task, &ids, &parse.with_text);
  if (!req.ok()) return AllFailed(task.targets.size(), req.status());
  llm::LateResultFn on_late;
  if (options_.on_late) {
    on_late = [this, ids, parse, request_id = task.request_id](const Result<llm::EngineResult>& r) {
      if (!r.ok()) return;
      options_.on_late(request_id,
                       llm::ParseJudgeOutput(r->text, ids, stamp_, &output_counters_, parse));
    };
  }
  const auto start = llm::EngineClock::now();
  auto result = engine_->Run(std::move(*req), std::move(on_late));
  if (!result.ok()) return AllFailed(ids.size(), result.status());
  LogCall(*result, start, task.priority, ids.size());
  return llm::ParseJudgeOutput(result->text, ids, stamp_, &output_counters_, parse);
}

void LlamaJudge::LogCall(const llm::EngineResult& r, llm::EngineClock::time_point start,
                         int priority, size_t targets) const {
  if (!LogEnabled(LogLevel::kDebug)) return;
  auto secs = [&](llm::EngineClock::time_point t) {
    return t == llm::EngineClock::time_point{} ? -1.0
                                               : std::chrono::duration<double>(t - start).count();
  };
  char msg[160];
  std::snprintf(msg, sizeof msg, "llama call: %d prompt tokens (%d reused), %d generated, %.2f s",
                r.prompt_tokens, r.reused_tokens, r.generated_tokens, secs(r.finished_at));
  LogEvent(LogLevel::kDebug, "llm_call", msg,
           {{"targets", targets},
            {"priority", priority},
            {"prompt_tokens", r.prompt_tokens},
            {"reused_tokens", r.reused_tokens},
            {"computed_tokens", r.computed_tokens},
            {"generated_tokens", r.generated_tokens},
            {"forced_tokens", r.forced_tokens},
            {"attempts", r.attempts},
            {"prefilled_s", secs(r.prefilled_at)},
            {"finished_s", secs(r.finished_at)}});
}

std::vector<JudgeOutput> LlamaJudge::JudgeBatch(const std::vector<const JudgeTask*>& tasks) {
  if (tasks.size() == 1) return {JudgeOne(*tasks[0])};
  // Blocks in a stable order (spot, then post), not in arrival order: the
  // same bundle leads the batch every cycle, so its thread stays a cached prefix.
  std::vector<size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(tasks[a]->spot.spot_id, tasks[a]->bundle.post_id) <
           std::tie(tasks[b]->spot.spot_id, tasks[b]->bundle.post_id);
  });
  std::vector<const JudgeTask*> sorted;
  for (size_t i : order) sorted.push_back(tasks[i]);
  std::vector<JudgeOutput> in_order = RunBatch(sorted);
  std::vector<JudgeOutput> out(tasks.size());
  for (size_t k = 0; k < order.size(); ++k) out[order[k]] = std::move(in_order[k]);
  return out;
}

std::vector<JudgeOutput> LlamaJudge::RunBatch(const std::vector<const JudgeTask*>& tasks) {
  std::vector<std::string> ids;
  auto req = BuildBatchRequest(tasks, &ids);
  std::vector<JudgeOutput> out;
  if (!req.ok()) {
    for (const JudgeTask* t : tasks) out.push_back(AllFailed(t->targets.size(), req.status()));
    return out;
  }
  std::vector<size_t> sizes;
  for (const JudgeTask* t : tasks) sizes.push_back(t->targets.size());
  llm::LateResultFn on_late;
  if (options_.on_late) {
    // The tasks die with their callers: the late path keeps copies of what it needs.
    std::vector<std::string> request_ids;
    for (const JudgeTask* t : tasks) request_ids.push_back(t->request_id);
    on_late = [this, ids, sizes, request_ids](const Result<llm::EngineResult>& r) {
      if (!r.ok()) return;
      auto parts =
          Split(llm::ParseJudgeOutput(r->text, ids, batch_stamp_, &output_counters_), sizes);
      for (size_t k = 0; k < parts.size(); ++k)
        options_.on_late(request_ids[k], std::move(parts[k]));
    };
  }
  auto result = engine_->Run(std::move(*req), std::move(on_late));
  if (!result.ok()) {
    for (const JudgeTask* t : tasks) out.push_back(AllFailed(t->targets.size(), result.status()));
    return out;
  }
  return Split(llm::ParseJudgeOutput(result->text, ids, batch_stamp_, &output_counters_), sizes);
}

}  // namespace nunchi::llama
