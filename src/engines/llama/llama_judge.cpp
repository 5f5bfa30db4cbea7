#include "engines/llama/llama_judge.h"

#include <utility>

namespace nunchi::llama {
namespace {

JudgeOutput AllFailed(size_t n, const Status& s) { return JudgeOutput(n, Result<Judgment>(s)); }

}  // namespace

LlamaJudge::LlamaJudge(LlamaEngine* engine, LlamaJudgeOptions options, llm::PromptTemplate prompt)
    : engine_(engine), options_(std::move(options)), prompt_(prompt) {
  stamp_ = {"llama", engine_->model_identity(), std::string(prompt_.version)};
}

Result<std::unique_ptr<LlamaJudge>> LlamaJudge::Create(LlamaEngine* engine,
                                                       LlamaJudgeOptions options) {
  const std::string version = options.prompt_version.empty() ? std::string(llm::kJudgePromptVersion)
                                                             : options.prompt_version;
  const auto prompt = llm::FindPrompt(version);
  if (!prompt) return Status(ErrorCode::kInvalidArgument, "unknown prompt version " + version);
  std::unique_ptr<LlamaJudge> judge(new LlamaJudge(engine, std::move(options), *prompt));
  // The system message alone is a prefix of every rendered chat: compute it once.
  auto prefix = engine->ApplyChatTemplate({{"system", std::string(llm::SharedPrefix(*prompt))}},
                                          /*add_assistant=*/false);
  if (!prefix.ok()) return prefix.status();
  if (Status s = engine->WarmPrefix(*prefix); !s.ok()) return s;
  return judge;
}

Result<EngineRequest> LlamaJudge::BuildRequest(const JudgeTask& task,
                                               std::vector<std::string>* ids) const {
  auto rendered = llm::RenderJudgePrompt(task, prompt_);
  if (!rendered.ok()) return rendered.status();
  auto chat = engine_->ApplyChatTemplate({{"system", rendered->system}, {"user", rendered->user()}},
                                         /*add_assistant=*/true);
  if (!chat.ok()) return chat.status();
  EngineRequest req;
  req.prompt = std::move(*chat);
  req.grammar = *grammars_.Gbnf(rendered->target_ids);
  // Every token carries at least one byte: the grammar always ends first.
  req.max_tokens =
      static_cast<int>(llm::MaxAnswerBytes(rendered->target_ids)) + options_.extra_tokens;
  req.deadline = task.deadline;
  req.id = task.request_id + "/" + task.bundle.post_id;
  *ids = std::move(rendered->target_ids);
  return req;
}

JudgeOutput LlamaJudge::JudgeBundle(const JudgeTask& task) {
  std::vector<std::string> ids;
  auto req = BuildRequest(task, &ids);
  if (!req.ok()) return AllFailed(task.targets.size(), req.status());
  LateResultFn on_late;
  if (options_.on_late) {
    on_late = [this, ids, request_id = task.request_id](const Result<EngineResult>& r) {
      if (!r.ok()) return;
      options_.on_late(request_id, llm::ParseJudgeOutput(r->text, ids, stamp_, &output_counters_));
    };
  }
  auto result = engine_->Run(std::move(*req), std::move(on_late));
  if (!result.ok()) return AllFailed(ids.size(), result.status());
  return llm::ParseJudgeOutput(result->text, ids, stamp_, &output_counters_);
}

}  // namespace nunchi::llama
