// Internal state of LlamaEngine (engine.h), shared by engine.cpp (queue,
// thread, public API) and engine_slot.cpp (the per-sequence state machine).
// Everything in State and Slot belongs to the engine thread; Job moves from
// the submitting thread to the engine thread through the queue under mu_.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/llama/batch.h"
#include "engines/llama/constrained_sampler.h"
#include "engines/llama/engine.h"
#include "engines/llama/prefix_cache.h"
#include "llama-cpp.h"
#include "llm/degeneration_guard.h"

namespace nunchi::llama {

struct LlamaEngine::Job {
  // A job dropped unanswered (an exception unwound past it) still answers:
  // kInternal, counted as a faulted request. No future is ever broken.
  ~Job() {
    if (done) return;
    try {
      promise.set_value(Status(ErrorCode::kInternal, "engine fault: request dropped"));
      if (faulted) faulted->fetch_add(1, std::memory_order_relaxed);
    } catch (...) {
    }
  }
  std::atomic<uint64_t>* faulted = nullptr;  // the engine's faulted_requests counter
  EngineRequest request;
  LateResultFn on_late;
  std::promise<Result<EngineResult>> promise;
  std::vector<llama_token> prompt;  // tokenized on the submitting thread
  bool pin_prefix = false;          // WarmPrefix: keep the prompt as a pinned cache entry
  uint64_t group = 0;               // the SubmitAll call of a lockstep request; 0: none
  bool done = false;
};

struct LlamaEngine::Slot {
  std::unique_ptr<Job> job;
  llama_seq_id seq = -1;
  size_t n_past = 0;                 // tokens of this sequence in the KV cache
  std::vector<llama_token> pending;  // to decode next (prompt chunk, or sampled + forced)
  bool prefilling = true;
  bool started = false;  // the grammar's leading forced text was taken
  int out_index = -1;    // batch index of this slot's logits in the last decode
  std::unique_ptr<ConstrainedSampler> sampler;
  llm::DegenerationGuard guard;
  bool suspect = false;         // the output's tail looks like a loop (loop_hold.h)
  int held_steps = 0;           // decodes this request sat out as a suspect
  std::vector<int32_t> output;  // this attempt's tokens, sampled and forced
  EngineResult result;
};

struct LlamaEngine::State {
  llama_model_ptr model;
  llama_context_ptr ctx;
  VocabInfo vocab;
  std::string chat_template;
  std::unique_ptr<SeqPool> pool;
  std::unique_ptr<PrefixCache> cache;
  std::unique_ptr<Batch> batch;
  std::vector<std::unique_ptr<Slot>> slots;  // active
  std::string cache_dir;                     // options.cache_dir / model identity
};

struct LlamaEngine::AtomicCounters {
  std::atomic<uint64_t> requests{0}, prefill_computed{0}, prefill_reused{0}, generated{0},
      forced{0}, loops_stopped{0}, retries{0}, loop_holds{0}, degenerations{0}, fallbacks{0},
      deadline_exceeded{0}, decode_calls{0}, grammar_full_passes{0}, cache_entries{0},
      cache_loaded{0}, decode_ns{0}, sample_ns{0}, faults{0}, faulted_requests{0};
};

inline void Bump(std::atomic<uint64_t>& c, uint64_t n = 1) {
  c.fetch_add(n, std::memory_order_relaxed);
}

}  // namespace nunchi::llama
