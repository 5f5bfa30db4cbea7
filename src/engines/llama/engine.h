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

namespace nunchi::llama {

using EngineClock = std::chrono::steady_clock;

// llama.cpp's flash attention. Off by default: on 2 CPU threads its decode
// path ran 2–4× slower over 1,000-token prompts (docs/benchmarks.md).
enum class FlashAttention { kOff, kOn, kAuto };

struct EngineOptions {
  std::string model_path;
  int threads = 2;      // CPU threads for decode and prefill; 0: all
  int n_ctx = 16384;    // KV cells in all, split evenly: each active sequence
                        // has a KV stream of n_ctx / max_active cells
  int n_batch = 512;    // most tokens per llama_decode call
  int max_active = 4;   // sequences decoded together
  int max_cached = 24;  // prefix cache entries (host memory)
  // Host memory the prefix cache's states may take (a 0.6B model's state is
  // ~112 KB per token); 0 turns reuse off.
  size_t cache_budget_bytes = size_t{2} << 30;
  FlashAttention flash_attn = FlashAttention::kOff;
  std::string cache_dir;       // where the prefix cache persists; empty: nowhere
  size_t queue_capacity = 64;  // pending requests beyond this get kUnavailable
  std::chrono::milliseconds stall_timeout{15000};  // Ready() false after this without progress
  std::chrono::milliseconds late_grace{60000};     // late work (on_late) is dropped after this
  llm::DegenerationOptions guard = llm::DegenerationOptions::ForTokens();
  LoopHoldOptions loop_hold;  // suspected loops sit out decodes (loop_hold.h)
  SamplingParams retry_sampling{.temperature = 0.9f, .repeat_penalty = 1.3f, .seed = 7};
};

enum class StopReason { kEndOfText, kGrammarDone, kMaxTokens, kPrefixOnly };

struct EngineRequest {
  std::string prompt;       // the full text, chat template applied; special tokens parsed
  std::string grammar;      // GBNF with rule "root"; empty: unconstrained
  int max_tokens = 256;     // generated (sampled + forced) tokens
  SamplingParams sampling;  // greedy by default
  bool retry_on_loop = true;
  EngineClock::time_point deadline = EngineClock::time_point::max();
  std::string id;  // for logs
};

struct EngineResult {
  std::string text;
  StopReason stop = StopReason::kEndOfText;
  int prompt_tokens = 0;
  int reused_tokens = 0;     // prompt tokens whose state came from the prefix cache
  int computed_tokens = 0;   // prompt tokens prefilled by this request
  int generated_tokens = 0;  // sampled + forced
  int forced_tokens = 0;
  int attempts = 1;             // 2 when the first generation looped
  bool tail_repeating = false;  // stopped at max_tokens with a repeating tail
};

using LateResultFn = std::function<void(const Result<EngineResult>&)>;

// Monotonic totals since start.
struct EngineCounters {
  uint64_t requests = 0;
  uint64_t prefill_computed = 0;  // prompt tokens decoded
  uint64_t prefill_reused = 0;    // prompt tokens taken from the prefix cache
  uint64_t generated = 0;         // tokens generated (sampled + forced)
  uint64_t forced = 0;            // of which fed without sampling
  uint64_t loops_stopped = 0;     // generations cut because their tail repeated
  uint64_t retries = 0;           // second attempts after a loop
  uint64_t loop_holds = 0;        // decodes a suspected loop sat out (loop_hold.h)
  uint64_t degenerations = 0;     // answered kDegenerated (looped twice), or hit the token
                                  // cap with a repeating tail
  uint64_t fallbacks = 0;         // requests answered with an error the caller must cover
  uint64_t deadline_exceeded = 0;
  uint64_t decode_calls = 0;
  uint64_t grammar_full_passes = 0;  // sampled tokens the grammar rejected (vocabulary masked)
  uint64_t cache_entries = 0;        // current
  uint64_t cache_loaded = 0;         // entries restored from disk at start
  uint64_t decode_ns = 0;            // engine thread time inside llama_decode
  uint64_t sample_ns = 0;            // engine thread time sampling under the grammar and
                                     // taking forced text (the per-token overhead)
};

class LlamaEngine {
 public:
  // Loads the model, creates the context, restores the prefix cache and
  // starts the engine thread. kIo / kInvalidArgument on failure.
  static Result<std::unique_ptr<LlamaEngine>> Create(const EngineOptions& options);
  ~LlamaEngine();
  LlamaEngine(const LlamaEngine&) = delete;
  LlamaEngine& operator=(const LlamaEngine&) = delete;

  // Queues a request. The future is always fulfilled: with the result, or an
  // error (kUnavailable when the queue is full or the engine stops,
  // kDeadlineExceeded when dropped at its deadline, kDegenerated, ...).
  // With on_late, work that passes its deadline continues and its result is
  // also passed to on_late (on the engine thread) when it finishes late.
  std::future<Result<EngineResult>> Submit(EngineRequest request, LateResultFn on_late = {});
  // Queues several requests under one lock: the engine thread admits them in
  // the same step (as far as free sequences allow), so they prefill and
  // decode in lockstep. Futures in request order.
  std::vector<std::future<Result<EngineResult>>> SubmitAll(std::vector<EngineRequest> requests,
                                                           LateResultFn on_late = {});
  // Submit and wait until the request's deadline: kDeadlineExceeded then.
  Result<EngineResult> Run(EngineRequest request, LateResultFn on_late = {});
  // Computes text once into a pinned prefix-cache entry (the instructions
  // every prompt starts with). Blocks until done.
  Status WarmPrefix(const std::string& text);

  // ChatML (or the model's template) applied by llama_chat_apply_template.
  Result<std::string> ApplyChatTemplate(
      const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const;
  int CountTokens(const std::string& text) const;
  // The prompt tokens a request with this text would have (special tokens parsed).
  std::vector<int32_t> Tokenize(const std::string& text) const;

  EngineCounters Counters() const;
  bool Ready() const;
  const std::string& model_identity() const { return identity_; }
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

  EngineOptions options_;
  std::string identity_;
  int n_ctx_seq_ = 0;
  std::unique_ptr<State> st_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Job>> queue_;  // heap ordered by deadline (EDF)
  bool stopping_ = false;
  bool stopped_ = false;
  std::thread thread_;

  std::atomic<int64_t> last_progress_ns_{0};
  std::atomic<bool> busy_{false};
  std::unique_ptr<AtomicCounters> counters_;
};

}  // namespace nunchi::llama
