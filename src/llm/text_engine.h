// TextEngine: what the LLM judge, the extraction chooser and the benchmarks
// need from a text-generation engine, with no llama.cpp type in sight: submit
// a request (prompt text or tokens, GBNF grammar, limits, deadline, priority)
// and get a future of Result<EngineResult>; tokenize; apply the chat
// template; compute a shared prefix once; readiness; counters.
//
// Implementations: llama::LlamaEngine (engines/llama/engine.h, in process)
// and llm::FakeTextEngine (llm/fake_text_engine.h, scripted, for tests).
//
// Contract every implementation keeps:
//   - every future is fulfilled, with a result or a typed error (kUnavailable
//     when full or stopped, kDeadlineExceeded, kDegenerated, kInvalidArgument,
//     kInternal when the engine's own thread failed on the request), never
//     with an exception;
//   - a failure on the engine's thread fails only the requests it was working
//     on, is counted in EngineCounters::faults, and the engine goes on; one it
//     cannot survive makes Ready() false and Failed() true for good, so a
//     router skips it and /readyz reports it;
//   - on_late, when given, is called on the engine's thread with the result
//     of work that finished after its deadline; a throw from it is a fault of
//     that request, not of the engine.
//
// Thread-safety: every method may be called from any thread at any time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "domain/status.h"

namespace nunchi::llm {

using EngineClock = std::chrono::steady_clock;

// How the engine chooses among the tokens a grammar allows.
struct SamplingParams {
  float temperature = 0.0f;  // <= 0: greedy
  int top_k = 40;
  float top_p = 0.95f;
  float repeat_penalty = 1.0f;  // 1: off
  uint32_t seed = 1;
};

enum class StopReason { kEndOfText, kGrammarDone, kMaxTokens, kPrefixOnly };

struct EngineRequest {
  std::string prompt;  // the full text, chat template applied; special tokens parsed
  std::vector<int32_t> prompt_tokens;  // when not empty: used instead of prompt (already tokenized)
  std::string grammar;                 // GBNF with rule "root"; empty: unconstrained
  int max_tokens = 256;                // generated (sampled + forced) tokens
  SamplingParams sampling;             // greedy by default
  bool retry_on_loop = true;
  EngineClock::time_point deadline = EngineClock::time_point::max();
  // Admission order: a higher priority is admitted first; equal priorities
  // go earliest deadline first. An engine that decodes several requests at
  // once decodes no request while one of a higher priority has work: the
  // lower one keeps its state and resumes when the higher ones are done.
  int priority = 0;
  // SubmitAll only: this request starts decoding once every lockstep request
  // of the same SubmitAll call that the engine has admitted has decoded its
  // prompt, so that they all decode together, one token each per step, as
  // llama-batched-bench does. Off, a request decodes as soon as its own
  // prompt is in, alongside the others' prefill (the default: an early
  // request never waits for a later prompt). Engines that answer one request
  // at a time (the fake) ignore it.
  bool lockstep = false;
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
  // When the engine had decoded the whole prompt, and when it finished
  // (for benchmarks: prefill and decode wall time from one run).
  EngineClock::time_point prefilled_at{};
  EngineClock::time_point finished_at{};
};

using LateResultFn = std::function<void(const Result<EngineResult>&)>;

// Monotonic totals since start (cache_entries: current).
struct EngineCounters {
  uint64_t requests = 0;
  uint64_t prefill_computed = 0;  // prompt tokens decoded
  uint64_t prefill_reused = 0;    // prompt tokens taken from the prefix cache
  uint64_t generated = 0;         // tokens generated (sampled + forced)
  uint64_t forced = 0;            // of which fed without sampling
  uint64_t loops_stopped = 0;     // generations cut because their tail repeated
  uint64_t retries = 0;           // second attempts after a loop
  uint64_t loop_holds = 0;        // decodes a suspected loop sat out
  uint64_t degenerations = 0;     // answered kDegenerated (looped twice), or hit the token
                                  // cap with a repeating tail
  uint64_t fallbacks = 0;         // requests answered with an error the caller must cover
  uint64_t deadline_exceeded = 0;
  uint64_t decode_calls = 0;
  uint64_t grammar_full_passes = 0;  // sampled tokens the grammar rejected (vocabulary masked)
  uint64_t cache_entries = 0;        // current
  uint64_t cache_loaded = 0;         // entries restored from disk at start
  uint64_t decode_ns = 0;            // engine thread time inside the model's decode
  uint64_t sample_ns = 0;            // engine thread time sampling and taking forced text
  uint64_t faults = 0;               // failures caught on the engine thread (exceptions)
  uint64_t faulted_requests = 0;     // requests those failures answered with kInternal
};

class TextEngine {
 public:
  virtual ~TextEngine() = default;

  // Queues a request; the future is always fulfilled (see the contract above).
  virtual std::future<Result<EngineResult>> Submit(EngineRequest request,
                                                   LateResultFn on_late = {}) = 0;
  // Queues several requests at once so that they run in lockstep where the
  // engine can. Futures in request order.
  virtual std::vector<std::future<Result<EngineResult>>> SubmitAll(
      std::vector<EngineRequest> requests, LateResultFn on_late = {}) = 0;
  // Submit and wait until the request's deadline: kDeadlineExceeded then.
  Result<EngineResult> Run(EngineRequest request, LateResultFn on_late = {});
  // Computes text once (the instructions every prompt starts with) so that
  // later prompts starting with it reuse it. Blocks until done.
  virtual Status WarmPrefix(const std::string& text) = 0;

  // The model's chat template (ChatML when it has none) over (role, content).
  virtual Result<std::string> ApplyChatTemplate(
      const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const = 0;
  // The prompt tokens a request with this text would have (special tokens parsed).
  virtual std::vector<int32_t> Tokenize(const std::string& text) const = 0;
  int CountTokens(const std::string& text) const { return static_cast<int>(Tokenize(text).size()); }

  virtual EngineCounters Counters() const = 0;
  // False when the engine cannot make progress (stalled, stopped or failed).
  virtual bool Ready() const = 0;
  // True once a failure it cannot survive has stopped it for good (Ready()
  // is false too): health checks (/readyz) report it, while a router only
  // skips the engine and its fallback answers.
  virtual bool Failed() const = 0;
  // The model's stable identity, stamped on judgments.
  virtual const std::string& model_identity() const = 0;
};

}  // namespace nunchi::llm
