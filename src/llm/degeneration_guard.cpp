#include "llm/degeneration_guard.h"

#include <algorithm>

namespace nunchi::llm {
namespace {

// Units for invalid UTF-8 bytes: outside the code point range, distinct per byte.
constexpr uint32_t kInvalidByteBase = 0x110000;

size_t SequenceLength(unsigned char lead) {
  return lead < 0x80           ? 1
         : (lead >> 5) == 0x6  ? 2
         : (lead >> 4) == 0xE  ? 3
         : (lead >> 3) == 0x1E ? 4
                               : 0;
}

}  // namespace

DegenerationGuard::DegenerationGuard(DegenerationOptions options) : options_(options) {
  options_.min_period = std::max<size_t>(1, options_.min_period);
  options_.max_period = std::max(options_.min_period, options_.max_period);
  options_.min_repeats = std::max<size_t>(2, options_.min_repeats);
  ring_.assign(options_.max_period, 0);
  run_.assign(options_.max_period + 1, 0);
  whitespace_.assign(options_.whitespace_window, 0);
}

void DegenerationGuard::Reset() {
  std::fill(ring_.begin(), ring_.end(), 0);
  std::fill(run_.begin(), run_.end(), 0);
  n_ = 0;
  whitespace_run_ = 0;
  std::fill(whitespace_.begin(), whitespace_.end(), 0);
  whitespace_in_window_ = 0;
  pending_.clear();
  tripped_.reset();
}

bool DegenerationGuard::Qualifies(size_t period, size_t span) const {
  size_t need_span = period <= options_.short_period ? options_.short_min_span : options_.min_span;
  return span / period >= options_.min_repeats && span >= need_span;
}

void DegenerationGuard::Push(uint32_t unit, bool whitespace) {
  whitespace_run_ = whitespace ? whitespace_run_ + 1 : 0;
  if (!whitespace_.empty()) {
    uint8_t& slot = whitespace_[n_ % whitespace_.size()];
    whitespace_in_window_ += (whitespace ? 1 : 0) - slot;
    slot = whitespace ? 1 : 0;
  }
  const size_t size = ring_.size();
  for (size_t p = 1; p <= options_.max_period; ++p) {
    bool same = n_ >= p && ring_[(n_ - p) % size] == unit;
    run_[p] = same ? run_[p] + 1 : 0;
  }
  ring_[n_ % size] = unit;
  ++n_;
  if (!tripped_) tripped_ = QualifyingRepeat();
}

bool DegenerationGuard::AddToken(int32_t token) {
  Push(static_cast<uint32_t>(token));
  return tripped();
}

bool DegenerationGuard::AddText(std::string_view piece) {
  std::string bytes = std::move(pending_);
  pending_.clear();
  bytes.append(piece);
  size_t i = 0;
  while (i < bytes.size()) {
    unsigned char lead = static_cast<unsigned char>(bytes[i]);
    size_t n = SequenceLength(lead);
    if (n == 0) {
      Push(kInvalidByteBase + lead);
      ++i;
      continue;
    }
    if (i + n > bytes.size()) {  // split code point: wait for the next piece
      pending_ = bytes.substr(i);
      break;
    }
    uint32_t cp = n == 1 ? lead : n == 2 ? (lead & 0x1F) : n == 3 ? (lead & 0x0F) : (lead & 0x07);
    bool valid = true;
    for (size_t k = 1; k < n; ++k) {
      unsigned char c = static_cast<unsigned char>(bytes[i + k]);
      if ((c & 0xC0) != 0x80) {
        valid = false;
        break;
      }
      cp = (cp << 6) | (c & 0x3F);
    }
    if (!valid) {
      Push(kInvalidByteBase + lead);
      ++i;
      continue;
    }
    Push(cp, cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r');
    i += n;
  }
  return tripped();
}

std::optional<TailRepeat> DegenerationGuard::CurrentRepeat() const {
  std::optional<TailRepeat> best;
  for (size_t p = options_.min_period; p <= options_.max_period; ++p) {
    if (run_[p] == 0) continue;
    TailRepeat r{p, run_[p] + p};
    if (r.repeats() >= 2 && (!best || r.span > best->span)) best = r;
  }
  return best;
}

std::optional<TailRepeat> DegenerationGuard::QualifyingRepeat() const {
  if (options_.max_whitespace_run > 0 && whitespace_run_ > options_.max_whitespace_run) {
    return TailRepeat{1, whitespace_run_};  // padding: a run of the whitespace class
  }
  const size_t window = whitespace_.size();
  if (window > 0 && n_ >= window &&
      static_cast<double>(whitespace_in_window_) >=
          options_.whitespace_max_share * static_cast<double>(window)) {
    return TailRepeat{1, window};  // padding spread over short gaps
  }
  for (size_t p = options_.min_period; p <= options_.max_period; ++p) {
    size_t span = run_[p] + p;
    if (run_[p] == 0 || !Qualifies(p, span)) continue;
    // A block that is itself periodic ("ㅋㅋㅋ" as a block of 3) is judged by
    // its primitive period, so short-period exemptions cannot be bypassed.
    bool primitive = true;
    for (size_t d = 1; d < p && primitive; ++d) {
      if (p % d == 0 && run_[d] + d >= span) primitive = false;
    }
    if (primitive) return TailRepeat{p, span};
  }
  return std::nullopt;
}

std::optional<TailRepeat> FindTailRepeat(std::span<const int32_t> tokens,
                                         const DegenerationOptions& options) {
  DegenerationGuard guard(options);
  for (int32_t t : tokens) guard.AddToken(t);
  return guard.QualifyingRepeat();
}

std::optional<TailRepeat> FindTailRepeat(std::string_view text,
                                         const DegenerationOptions& options) {
  DegenerationGuard guard(options);
  guard.AddText(text);
  return guard.QualifyingRepeat();
}

bool IsCapDegeneration(bool hit_cap, std::span<const int32_t> tokens,
                       const DegenerationOptions& options) {
  return hit_cap && FindTailRepeat(tokens, options).has_value();
}

bool IsCapDegeneration(bool hit_cap, std::string_view text, const DegenerationOptions& options) {
  return hit_cap && FindTailRepeat(text, options).has_value();
}

}  // namespace nunchi::llm
