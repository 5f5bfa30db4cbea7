// Loop hold: which sequences sit out the next decode because their output
// looks like a loop that the degeneration guard cannot cut yet.
//
// The guard cuts a loop only once its tail repeats with proof (by default
// 3 copies over 24 tokens). Until then a looping sequence takes a full share
// of every decode, and on a CPU a decode's cost grows with the number of
// sequences in it, so the healthy requests next to it slow down (the Dharma
// experiment, docs/benchmarks.md). A sequence whose output tail already
// shows 2 copies of a block over at least `span` tokens is a suspect: it sits
// out while any sequence that is not a suspect has work, and resumes when
// they are done (then the guard either cuts it or it breaks out of the loop).
// A request sits out at most `max_steps` decodes in all, so a false suspect
// under constant load waits a bounded time and is never starved.
//
// Pure functions; thread-safety is the caller's.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "llm/degeneration_guard.h"

namespace nunchi::llama {

struct LoopHoldOptions {
  size_t span = 8;     // tokens a 2-copy repeating tail must cover to be a suspect
  int max_steps = 64;  // decodes one request may sit out in all; 0 turns holding off
};

// Whether the tail the guard was fed (sampled and forced tokens) makes a suspect.
bool SuspectedLoop(const llm::DegenerationGuard& guard, const LoopHoldOptions& options);

struct HoldCandidate {
  bool has_work = false;  // tokens pending for the next decode
  bool suspect = false;
  int held_steps = 0;  // decodes this request already sat out
};

// One flag per candidate: true when it sits out the next decode.
std::vector<bool> SequencesToHold(std::span<const HoldCandidate> candidates,
                                  const LoopHoldOptions& options);

}  // namespace nunchi::llama
