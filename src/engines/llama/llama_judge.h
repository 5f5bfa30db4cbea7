// LlamaJudge: the Judge (judges/judge.h) backed by the in-process LlamaEngine.
// For each task it renders the versioned prompt (llm/prompt.h) as a chat,
// builds the grammar for exactly the target ids (llm/schema.h), runs the
// engine until the task's deadline and parses the answer (llm/output.h) into
// Judgments stamped judge "llama", the model's identity and the prompt
// version. Construction computes the shared instructions once into a pinned
// prefix-cache entry.
//
// Errors per target: the engine's (kDeadlineExceeded, kDegenerated,
// kUnavailable, ...) for every target, or the parser's kInvalidOutput for the
// items that break the schema. Late answers (finished after the deadline)
// are passed to the optional LateJudgmentsFn for storage.
//
// Thread-safety: JudgeBundle may be called from many threads at once; the
// engine batches their requests. The engine must outlive the judge.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engines/llama/engine.h"
#include "judges/judge.h"
#include "llm/output.h"
#include "llm/prompt.h"
#include "llm/schema.h"

namespace nunchi::llama {

// Called on the engine thread with the task's request id and its judgments
// when they arrive after the task's deadline.
using LateJudgmentsFn = std::function<void(const std::string& request_id, JudgeOutput output)>;

struct LlamaJudgeOptions {
  std::string prompt_version;  // empty: llm::kJudgePromptVersion
  int extra_tokens = 8;        // token cap = the grammar's answer bytes bound + this
  LateJudgmentsFn on_late;
};

class LlamaJudge : public Judge {
 public:
  // kInvalidArgument for an unknown prompt version; engine errors otherwise.
  static Result<std::unique_ptr<LlamaJudge>> Create(LlamaEngine* engine,
                                                    LlamaJudgeOptions options = {});

  std::string_view name() const override { return "llama"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  bool Ready() const override { return engine_->Ready(); }

  const llm::OutputCounters& output_counters() const { return output_counters_; }
  // The chat-formatted prompt and grammar JudgeBundle would run (for tests and tools).
  Result<EngineRequest> BuildRequest(const JudgeTask& task, std::vector<std::string>* ids) const;

 private:
  LlamaJudge(LlamaEngine* engine, LlamaJudgeOptions options, llm::PromptTemplate prompt);

  LlamaEngine* engine_;
  LlamaJudgeOptions options_;
  llm::PromptTemplate prompt_;
  llm::JudgmentStamp stamp_;
  mutable llm::GrammarCache grammars_;
  llm::OutputCounters output_counters_;
};

}  // namespace nunchi::llama
