// LlamaEngine: the in-process llama.cpp inference engine. One thread owns the
// model, the llama_context and every sequence in it; callers submit prompts
// through a bounded queue and get a Result back (typed errors from
// domain/status.h), never an exception.
//
// What the engine thread does, in each step:
//   - admits queued requests earliest deadline first while sequences are free;
//   - starts each in a KV stream of its own (so a token attends over its own
//     prompt only) from the longest cached prefix of its tokens (PrefixCache,
//     in host memory: the shared instructions are computed once; a resent
//     bundle reuses the state of its previous prompt) and prefills only the
//     rest, in chunks;
//   - decodes every active sequence in the same llama_decode call
//     (continuous batching), sampling under the request's GBNF grammar and
//     feeding the text the grammar forces without sampling it;
//   - cuts a generation whose tail repeats, retries it once with different
//     sampling, then answers kDegenerated;
//   - drops work whose deadline passed, unless the caller asked for late
//     results (on_late_result), which then still arrive for storage.
// Readiness (Ready) reflects whether that loop makes progress, not whether
// the process is alive. Counters are atomics: reading them never waits
// behind inference.
//
// Faults: the engine thread catches everything. An exception inside a step
// fails the requests of that step with kInternal (their sequences are
// cleared, nothing of them enters the prefix cache), is logged and counted
// (faults, faulted_requests) and the loop goes on. One thrown by a caller's
// on_late callback is counted too and the request still gets its result.
// After max_consecutive_faults faulting steps in a row, or a fault while
// clearing up after one, the engine marks itself failed: Ready() is false for
// good and every pending and later request answers kUnavailable.
//
// Thread-safety: every public method may be called from any thread.
// Destruction stops the thread, answers what is pending with kUnavailable and
// saves the prefix cache when a cache_dir is set.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "domain/status.h"
#include "engines/llama/loop_hold.h"
#include "engines/llama/sampling.h"
#include "llm/degeneration_guard.h"
#include "llm/text_engine.h"

namespace nunchi::llama {

// The request and result types are the engine interface's (llm/text_engine.h).
using EngineClock = llm::EngineClock;
using EngineRequest = llm::EngineRequest;
using EngineResult = llm::EngineResult;
using EngineCounters = llm::EngineCounters;
using LateResultFn = llm::LateResultFn;
using StopReason = llm::StopReason;

// llama.cpp's flash attention. Off by default: on 2 CPU threads its decode
// path ran 2–4× slower over 1,000-token prompts (docs/benchmarks.md).
enum class FlashAttention { kOff, kOn, kAuto };

struct EngineOptions {
  std::string model_path;
  int threads = 2;    // CPU threads for decode and prefill; 0: all
  int n_ctx = 16384;  // KV cells in all, split evenly: each active sequence
                      // has a KV stream of n_ctx / max_active cells
  int n_batch = 512;  // most tokens per llama_decode call
  // Most prompt tokens a request below the default priority (the cascade's
  // deferred calls, EngineRequest::priority < 0) puts in one llama_decode: a
  // request of a higher priority that arrives meanwhile waits for at most one
  // such step instead of a full n_batch one (512 prompt tokens were ~5 s on
  // the 2-core box, longer than the cascade's 4 s wait). 0: n_batch.
  int background_chunk = 64;
  int max_active = 4;   // sequences decoded together
  int max_cached = 24;  // prefix cache entries (host memory)
  // Host memory the prefix cache's states may take (a 0.6B model's state is
  // ~112 KB per token); 0 turns reuse off.
  size_t cache_budget_bytes = size_t{2} << 30;
  FlashAttention flash_attn = FlashAttention::kOff;
  // One KV buffer for every sequence instead of a stream each: n_ctx cells
  // shared, a sequence may grow to all of them; every token's attention then
  // scans the whole buffer (masked), so it suits short prompts
  // (docs/benchmarks.md, "KV layout").
  bool kv_unified = false;
  std::string cache_dir;       // where the prefix cache persists; empty: nowhere
  size_t queue_capacity = 64;  // pending requests beyond this get kUnavailable
  std::chrono::milliseconds stall_timeout{15000};  // Ready() false after this without progress
  std::chrono::milliseconds late_grace{60000};     // late work (on_late) is dropped after this
  llm::DegenerationOptions guard = llm::DegenerationOptions::ForTokens();
  LoopHoldOptions loop_hold;  // suspected loops sit out decodes (loop_hold.h)
  SamplingParams retry_sampling{.temperature = 0.9f, .repeat_penalty = 1.3f, .seed = 7};
  // Faulting steps in a row after which the engine gives up (marks itself failed).
  int max_consecutive_faults = 8;
  // Tests only: called on the engine thread with each request of a step
  // before its decode; what it throws is a fault of that step.
  std::function<void(const EngineRequest&)> fault_hook;
};

class LlamaEngine : public llm::TextEngine {
 public:
  // Loads the model, creates the context, restores the prefix cache and
  // starts the engine thread. kIo / kInvalidArgument on failure.
  static Result<std::unique_ptr<LlamaEngine>> Create(const EngineOptions& options);
  ~LlamaEngine() override;
  LlamaEngine(const LlamaEngine&) = delete;
  LlamaEngine& operator=(const LlamaEngine&) = delete;

  // Queues a request. The future is always fulfilled: with the result, or an
  // error (kUnavailable when the queue is full or the engine stops,
  // kDeadlineExceeded when dropped at its deadline, kDegenerated, ...).
  // With on_late, work that passes its deadline continues and its result is
  // also passed to on_late (on the engine thread) when it finishes late.
  // A request with prompt_tokens skips tokenizing its prompt text.
  std::future<Result<EngineResult>> Submit(EngineRequest request,
                                           LateResultFn on_late = {}) override;
  // Queues several requests under one lock: the engine thread admits them in
  // the same step (as far as free sequences allow), so they prefill and
  // decode in lockstep. Futures in request order.
  std::vector<std::future<Result<EngineResult>>> SubmitAll(std::vector<EngineRequest> requests,
                                                           LateResultFn on_late = {}) override;
  // Computes text once into a pinned prefix-cache entry (the instructions
  // every prompt starts with). Blocks until done.
  Status WarmPrefix(const std::string& text) override;

  // ChatML (or the model's template) applied by llama_chat_apply_template.
  Result<std::string> ApplyChatTemplate(
      const std::vector<std::pair<std::string, std::string>>& msgs,
      bool add_assistant) const override;
  // The prompt tokens a request with this text would have (special tokens parsed).
  std::vector<int32_t> Tokenize(const std::string& text) const override;

  EngineCounters Counters() const override;
  bool Ready() const override;
  bool Failed() const override;
  const std::string& model_identity() const override { return identity_; }
  const EngineOptions& options() const { return options_; }
  // Writes the prefix cache to cache_dir now (also done at destruction).
  void Stop();

  // Implementation types, defined in engine_internal.h.
  struct Job;
  struct Slot;
  struct State;  // everything the engine thread owns
  struct AtomicCounters;

 private:
  explicit LlamaEngine(const EngineOptions& options);

  void Loop();
  bool AdmitJobs();
  void StartSlot(std::unique_ptr<Job> job);
  bool Step();
  void AfterDecode(Slot& slot, int out_index);  // times AfterDecodeTimed into sample_ns
  void AfterDecodeTimed(Slot& slot, int out_index);
  void Finish(Slot& slot, Result<EngineResult> result);
  void Complete(Job& job, Result<EngineResult> result);
  void RestartForRetry(Slot& slot);
  void DropExpired();
  bool Decode();
  // What the loop does when a step threw: fails the step's requests, counts,
  // and marks the engine failed when it cannot go on.
  void OnFault(const std::string& what);
  void MarkFailed();

  EngineOptions options_;
  std::string identity_;
  int n_ctx_seq_ = 0;
  std::unique_ptr<State> st_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Job>> queue_;  // heap ordered by deadline (EDF)
  bool stopping_ = false;
  bool stopped_ = false;
  bool failed_ = false;         // an unsurvivable fault: no more work (under mu_)
  int consecutive_faults_ = 0;  // engine thread only
  std::thread thread_;

  std::atomic<uint64_t> next_group_{1};  // lockstep groups (EngineRequest::lockstep)
  std::atomic<int64_t> last_progress_ns_{0};
  std::atomic<bool> busy_{false};
  std::unique_ptr<AtomicCounters> counters_;
};

}  // namespace nunchi::llama
