// LlamaEngine's per-sequence state machine, run by the engine thread only:
// start a slot from the longest cached prefix, batch every slot's pending
// tokens into one llama_decode, then sample, feed forced text, watch for
// loops, and finish into the prefix cache.
#include <algorithm>
#include <chrono>
#include <limits>

#include "engines/llama/engine.h"
#include "engines/llama/engine_internal.h"

namespace nunchi::llama {
namespace {

constexpr size_t kMaxForcedBytes = 4096;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(EngineClock::now().time_since_epoch())
      .count();
}

}  // namespace

void LlamaEngine::StartSlot(std::unique_ptr<Job> job) {
  State& st = *st_;
  auto seq = st.pool->Acquire();
  if (!seq) {
    Complete(*job, Status(ErrorCode::kUnavailable, "no free sequence"));
    return;
  }
  auto slot = std::make_unique<Slot>();
  slot->seq = *seq;
  slot->guard = llm::DegenerationGuard(options_.guard);
  const auto& prompt = job->prompt;
  if (!job->pin_prefix) {
    auto sampler =
        ConstrainedSampler::Create(&st.vocab, job->request.grammar, job->request.sampling);
    if (!sampler.ok()) {
      st.pool->Release(*seq);
      Complete(*job, sampler.status());
      return;
    }
    slot->sampler = std::move(sampler.value());
  }
  const auto match = st.cache->Find(prompt);
  size_t reuse = 0;
  if (match.length > 0) reuse = st.cache->Restore(match, slot->seq);
  // At least one prompt token is decoded so that there are logits to sample from.
  if (!job->pin_prefix && reuse >= prompt.size()) {
    reuse = prompt.size() - 1;
    llama_memory_seq_rm(llama_get_memory(st.ctx.get()), slot->seq, static_cast<llama_pos>(reuse),
                        -1);
  }
  slot->n_past = reuse;
  slot->pending.assign(prompt.begin() + static_cast<std::ptrdiff_t>(reuse), prompt.end());
  slot->result.prompt_tokens = static_cast<int>(prompt.size());
  slot->result.reused_tokens = static_cast<int>(reuse);
  slot->result.computed_tokens = static_cast<int>(prompt.size() - reuse);
  Bump(counters_->prefill_reused, reuse);
  slot->job = std::move(job);
  st.slots.push_back(std::move(slot));
  if (st.slots.back()->pending.empty()) {
    // A pinned prefix that is already fully cached: nothing to compute.
    Slot& s = *st.slots.back();
    s.prefilling = false;
    s.result.stop = StopReason::kPrefixOnly;
    Finish(s, s.result);
    st.slots.pop_back();
  }
}

void LlamaEngine::Finish(Slot& slot, Result<EngineResult> result) {
  State& st = *st_;
  llama_memory_t mem = llama_get_memory(st.ctx.get());
  // Whatever part of the prompt is in the KV cache is worth keeping: a
  // request dropped mid-prefill still leaves its computed prefix behind.
  const auto& prompt = slot.job->prompt;
  const size_t keep = std::min(slot.n_past, prompt.size());
  if (keep > 0) {
    llama_memory_seq_rm(mem, slot.seq, static_cast<llama_pos>(keep), -1);
    st.cache->Capture(slot.seq, std::vector<llama_token>(prompt.begin(), prompt.begin() + keep),
                      slot.job->pin_prefix && keep == prompt.size());
  }
  llama_memory_seq_rm(mem, slot.seq, -1, -1);
  st.pool->Release(slot.seq);
  counters_->cache_entries = st.cache->size();
  slot.seq = -1;
  if (result.ok()) result->finished_at = EngineClock::now();
  Complete(*slot.job, std::move(result));
  slot.job.reset();
}

void LlamaEngine::RestartForRetry(Slot& slot) {
  Bump(counters_->retries);
  const auto& prompt = slot.job->prompt;
  // Drop the generated tokens and the last prompt token, whose logits start
  // the second attempt.
  llama_memory_seq_rm(llama_get_memory(st_->ctx.get()), slot.seq,
                      static_cast<llama_pos>(prompt.size() - 1), -1);
  slot.n_past = prompt.size() - 1;
  slot.pending = {prompt.back()};
  slot.started = false;
  SamplingParams retry = options_.retry_sampling;
  retry.seed ^= static_cast<uint32_t>(std::hash<std::string>{}(slot.job->request.id));
  auto sampler = ConstrainedSampler::Create(&st_->vocab, slot.job->request.grammar, retry);
  slot.sampler = std::move(sampler.value());  // the grammar parsed the first time
  slot.guard.Reset();
  slot.suspect = false;
  slot.output.clear();
  EngineResult& r = slot.result;
  r.attempts = 2;
  r.text.clear();
  r.generated_tokens = 0;
  r.forced_tokens = 0;
}

void LlamaEngine::AfterDecode(Slot& slot, int out_index) {
  const int64_t t0 = NowNs();
  AfterDecodeTimed(slot, out_index);
  Bump(counters_->sample_ns, static_cast<uint64_t>(NowNs() - t0));
}

void LlamaEngine::AfterDecodeTimed(Slot& slot, int out_index) {
  const VocabInfo& vocab = st_->vocab;
  const EngineRequest& req = slot.job->request;
  EngineResult& r = slot.result;
  auto feed_forced = [&](const ForcedText& forced) {
    r.text += forced.text;
    if (forced.complete) {
      r.stop = StopReason::kGrammarDone;
      return true;
    }
    auto tokens = vocab.Tokenize(forced.text, /*parse_special=*/false);
    slot.sampler->AcceptForced(tokens);
    // The guard sees forced tokens too: the ids the grammar forces between
    // items are what tells many alike judgments from a loop.
    for (const llama_token t : tokens) slot.guard.AddToken(t);
    slot.output.insert(slot.output.end(), tokens.begin(), tokens.end());
    r.forced_tokens += static_cast<int>(tokens.size());
    r.generated_tokens += static_cast<int>(tokens.size());
    Bump(counters_->forced, tokens.size());
    Bump(counters_->generated, tokens.size());
    slot.pending.insert(slot.pending.end(), tokens.begin(), tokens.end());
    return false;
  };
  if (!slot.started) {
    // The grammar may force the opening text before anything is sampled.
    slot.started = true;
    const ForcedText forced = slot.sampler->TakeForced(kMaxForcedBytes);
    if (feed_forced(forced)) return Finish(slot, r);
    if (!slot.pending.empty()) return;
  }
  const uint64_t passes_before = slot.sampler->full_grammar_passes();
  const llama_token token = slot.sampler->Sample(st_->ctx.get(), out_index);
  Bump(counters_->grammar_full_passes, slot.sampler->full_grammar_passes() - passes_before);
  if (llama_vocab_is_eog(vocab.vocab, token)) {
    r.stop = StopReason::kEndOfText;
    return Finish(slot, r);
  }
  r.text += vocab.Piece(token);
  ++r.generated_tokens;
  Bump(counters_->generated);
  slot.output.push_back(token);
  if (slot.guard.AddToken(token)) {
    Bump(counters_->loops_stopped);
    if (r.attempts == 1 && req.retry_on_loop) return RestartForRetry(slot);
    Bump(counters_->degenerations);
    return Finish(slot, Status(ErrorCode::kDegenerated,
                               "generation looped (period " +
                                   std::to_string(slot.guard.loop()->period) + " tokens)"));
  }
  slot.suspect = SuspectedLoop(slot.guard, options_.loop_hold);
  if (r.generated_tokens >= req.max_tokens) {
    r.stop = StopReason::kMaxTokens;
    r.tail_repeating = llm::IsCapDegeneration(true, slot.output);
    if (r.tail_repeating) Bump(counters_->degenerations);
    return Finish(slot, r);
  }
  slot.pending.push_back(token);
  const ForcedText forced = slot.sampler->TakeForced(kMaxForcedBytes);
  if (feed_forced(forced)) return Finish(slot, r);
}

bool LlamaEngine::Decode() {
  State& st = *st_;
  const int64_t t0 = NowNs();
  const int rc = llama_decode(st.ctx.get(), st.batch->get());
  Bump(counters_->decode_ns, static_cast<uint64_t>(NowNs() - t0));
  Bump(counters_->decode_calls);
  return rc == 0;
}

bool LlamaEngine::Step() {
  State& st = *st_;
  // Earliest deadline first: it gets the batch budget first. Work already
  // past its deadline (kept for a late callback) goes after all on-time work.
  const auto now = EngineClock::now();
  auto key = [now](const Slot& s) {
    const auto d = s.job->request.deadline;
    return d < now ? EngineClock::time_point::max() : d;
  };
  std::stable_sort(st.slots.begin(), st.slots.end(),
                   [&](const auto& a, const auto& b) { return key(*a) < key(*b); });
  // A sequence whose stream is full ends here rather than failing the batch.
  const size_t n_ctx_seq = static_cast<size_t>(n_ctx_seq_);
  for (auto& s : st.slots) {
    if (s->n_past + std::min<size_t>(s->pending.size(), 1) > n_ctx_seq) {
      Finish(*s, Status(ErrorCode::kUnavailable, "context full"));
    }
  }
  std::erase_if(st.slots, [](const auto& s) { return s->job == nullptr; });
  // Suspected loops sit out while healthy sequences have work (loop_hold.h).
  std::vector<HoldCandidate> candidates;
  for (const auto& s : st.slots) {
    candidates.push_back({!s->pending.empty(), s->suspect, s->held_steps});
  }
  const std::vector<bool> hold = SequencesToHold(candidates, options_.loop_hold);
  // A lockstep request waits, its first token sampled, until the prompts of
  // its group are in: then the group decodes together, one ubatch per step.
  // (With a KV stream per sequence llama.cpp splits a batch into ubatches of
  // equal token counts per sequence, so a decode token next to a prompt
  // chunk costs a ubatch of its own: the weights are read once more.)
  std::vector<uint64_t> prefilling_groups;
  for (const auto& s : st.slots) {
    if (s->prefilling && s->job->group != 0) prefilling_groups.push_back(s->job->group);
  }
  // A sequence yields to any of a higher priority that has work: it keeps
  // its state and resumes when they are done (EngineRequest::priority).
  int top_priority = std::numeric_limits<int>::min();
  for (size_t i = 0; i < st.slots.size(); ++i) {
    const Slot& s = *st.slots[i];
    if (!s.pending.empty() && !hold[i])
      top_priority = std::max(top_priority, s.job->request.priority);
  }
  std::vector<bool> wait(st.slots.size(), false);
  for (size_t i = 0; i < st.slots.size(); ++i) {
    const Slot& s = *st.slots[i];
    wait[i] = s.job->request.priority < top_priority ||
              (!s.prefilling && s.job->group != 0 &&
               std::find(prefilling_groups.begin(), prefilling_groups.end(), s.job->group) !=
                   prefilling_groups.end());
  }
  // The batch budget goes by deadline; the tokens go in by sequence id, so
  // that llama.cpp decodes the streams of consecutive ids in one pass.
  Batch& batch = *st.batch;
  batch.Clear();
  std::vector<size_t> taken(st.slots.size(), 0);
  size_t room = static_cast<size_t>(batch.capacity());
  for (size_t i = 0; i < st.slots.size(); ++i) {
    Slot& s = *st.slots[i];
    if (wait[i]) continue;
    if (hold[i]) {
      ++s.held_steps;
      Bump(counters_->loop_holds);
      continue;
    }
    taken[i] = std::min({s.pending.size(), room, n_ctx_seq - s.n_past});
    if (s.prefilling && s.job->request.priority < 0 && options_.background_chunk > 0)
      taken[i] = std::min(taken[i], static_cast<size_t>(options_.background_chunk));
    room -= taken[i];
  }
  std::vector<size_t> order(st.slots.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return st.slots[a]->seq < st.slots[b]->seq; });
  for (const size_t i : order) {
    Slot& s = *st.slots[i];
    s.out_index = -1;
    for (size_t k = 0; k < taken[i]; ++k) {
      const bool last = k + 1 == s.pending.size();
      const int idx = batch.Add(s.pending[k], static_cast<llama_pos>(s.n_past + k), s.seq,
                                last && !s.job->pin_prefix);
      if (last) s.out_index = idx;
    }
  }
  if (batch.size() == 0) return false;
  if (options_.fault_hook) {
    for (const auto& s : st.slots) options_.fault_hook(s->job->request);
  }
  if (!Decode()) {
    // Out of KV space: give up on the biggest sequence so that the others
    // can go on.
    auto biggest =
        std::max_element(st.slots.begin(), st.slots.end(), [](const auto& a, const auto& b) {
          return a->n_past + a->pending.size() < b->n_past + b->pending.size();
        });
    Finish(**biggest, Status(ErrorCode::kUnavailable, "llama_decode failed: context full"));
    std::erase_if(st.slots, [](const auto& s) { return s->job == nullptr; });
    return false;
  }
  last_progress_ns_ = NowNs();
  consecutive_faults_ = 0;  // a decode went through
  for (size_t i = 0; i < st.slots.size(); ++i) {
    Slot& s = *st.slots[i];
    if (taken[i] == 0) continue;
    s.pending.erase(s.pending.begin(), s.pending.begin() + static_cast<std::ptrdiff_t>(taken[i]));
    s.n_past += taken[i];
    if (s.prefilling) {
      Bump(counters_->prefill_computed, taken[i]);
      if (!s.pending.empty()) continue;
      s.prefilling = false;
      s.result.prefilled_at = EngineClock::now();
      if (s.job->pin_prefix) {
        s.result.stop = StopReason::kPrefixOnly;
        Finish(s, s.result);
        continue;
      }
    }
    if (s.out_index >= 0 && s.pending.empty()) AfterDecode(s, s.out_index);
  }
  std::erase_if(st.slots, [](const auto& s) { return s->job == nullptr; });
  return true;
}

}  // namespace nunchi::llama
