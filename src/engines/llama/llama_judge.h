// LlamaJudge: the Judge (judges/judge.h) backed by a text engine
// (llm/text_engine.h): the in-process LlamaEngine, or a fake in unit tests.
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

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "judges/bundle_gatherer.h"
#include "judges/judge.h"
#include "llm/output.h"
#include "llm/prompt.h"
#include "llm/schema.h"
#include "llm/text_engine.h"

namespace nunchi::llama {

// Called on the engine thread with the task's request id and its judgments
// when they arrive after the task's deadline.
using LateJudgmentsFn = std::function<void(const std::string& request_id, JudgeOutput output)>;

struct LlamaJudgeOptions {
  std::string prompt_version;  // empty: llm::kJudgePromptVersion
  int extra_tokens = 8;        // token cap = the grammar's answer bytes bound + this
  LateJudgmentsFn on_late;
  // Batch prompting: at most this many bundles per engine request (1: off;
  // at most llm::kMaxBatchBundles), gathered for up to batch_window.
  size_t bundles_per_call = 1;
  std::chrono::milliseconds batch_window{100};
  // How much of each bundle the prompt shows (llm::RenderOptions).
  llm::RenderOptions render;
  // With prompt_version llm::kEscalationPromptVersion (the cascade's LLM):
  // llm::RenderEscalationPrompt with these options, one bundle per call, the
  // cause text asked for the last target only.
  llm::EscalationOptions escalation;
};

class LlamaJudge : public Judge {
 public:
  // kInvalidArgument for an unknown prompt version; engine errors otherwise.
  static Result<std::unique_ptr<LlamaJudge>> Create(llm::TextEngine* engine,
                                                    LlamaJudgeOptions options = {});

  std::string_view name() const override { return "llama"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;
  bool Ready() const override { return engine_->Ready(); }
  bool Failed() const override { return engine_->Failed(); }

  const llm::OutputCounters& output_counters() const { return output_counters_; }
  // The chat-formatted prompt and grammar JudgeBundle would run (for tests and tools).
  // with_text, when given, receives which ids' cause text is asked (empty: all).
  Result<llm::EngineRequest> BuildRequest(const JudgeTask& task, std::vector<std::string>* ids,
                                          std::vector<bool>* with_text = nullptr) const;
  // The same for one batch request over several tasks (same analyzed_at).
  Result<llm::EngineRequest> BuildBatchRequest(const std::vector<const JudgeTask*>& tasks,
                                               std::vector<std::string>* ids) const;
  // Runs tasks as one request (one task: the single-bundle prompt), their
  // blocks ordered by spot and post id; one output per task, in task order.
  std::vector<JudgeOutput> JudgeBatch(const std::vector<const JudgeTask*>& tasks);
  // Batch requests made so far and the bundles they held.
  uint64_t batches() const { return gatherer_ ? gatherer_->batches() : 0; }
  uint64_t batched_bundles() const { return gatherer_ ? gatherer_->tasks() : 0; }

 private:
  LlamaJudge(llm::TextEngine* engine, LlamaJudgeOptions options, llm::PromptTemplate prompt);
  JudgeOutput JudgeOne(const JudgeTask& task);
  // A debug line per answered call: its tokens (prompt, reused from the
  // prefix cache, computed, generated) and when it was prefilled and done.
  void LogCall(const llm::EngineResult& r, llm::EngineClock::time_point start, int priority,
               size_t targets) const;
  // One batch request over tasks in the given order; one output per task.
  std::vector<JudgeOutput> RunBatch(const std::vector<const JudgeTask*>& tasks);
  Result<llm::EngineRequest> ChatRequest(const llm::RenderedPrompt& rendered) const;

  llm::TextEngine* engine_;
  LlamaJudgeOptions options_;
  llm::PromptTemplate prompt_;
  llm::PromptTemplate batch_prompt_;
  llm::JudgmentStamp stamp_;
  llm::JudgmentStamp batch_stamp_;
  std::unique_ptr<judges::BundleGatherer> gatherer_;  // null: one bundle per call
  mutable llm::GrammarCache grammars_;
  llm::OutputCounters output_counters_;
};

}  // namespace nunchi::llama
