#include "engines/llama/loop_hold.h"

namespace nunchi::llama {

bool SuspectedLoop(const llm::DegenerationGuard& guard, const LoopHoldOptions& options) {
  if (options.max_steps <= 0 || guard.tripped()) return false;
  const auto repeat = guard.CurrentRepeat();
  return repeat.has_value() && repeat->span >= options.span;
}

std::vector<bool> SequencesToHold(std::span<const HoldCandidate> candidates,
                                  const LoopHoldOptions& options) {
  std::vector<bool> hold(candidates.size(), false);
  if (options.max_steps <= 0) return hold;
  auto may_hold = [&](const HoldCandidate& c) {
    return c.has_work && c.suspect && c.held_steps < options.max_steps;
  };
  bool healthy_work = false;
  for (const auto& c : candidates) healthy_work = healthy_work || (c.has_work && !may_hold(c));
  if (!healthy_work) return hold;  // nothing would run in their place
  for (size_t i = 0; i < candidates.size(); ++i) hold[i] = may_hold(candidates[i]);
  return hold;
}

}  // namespace nunchi::llama
