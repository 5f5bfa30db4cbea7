// Detects a generation that loops: fed the output incrementally (token ids,
// or text pieces decoded to Unicode code points), it trips as soon as the
// tail is one block repeated back to back, so the caller can cut the
// generation (DESIGN.md section 4, "Degeneration is a first-class metric").
//
// Definition. With units u[0..n) and a period p in [min_period, max_period],
// the tail repeats with period p when u[i] == u[i-p] for the last r units;
// the repeating tail then spans r + p units, i.e. (r + p) / p copies of the
// block. The guard trips when some p has at least min_repeats copies AND a
// span of at least min_span units (short_min_span for p <= short_period).
// Cost: O(max_period) per unit, O(max_period) memory.
//
// Legitimate repetition it must not trip on:
//  - laughter and emphasis ("ㅋㅋㅋㅋ", "ㅠㅠㅠ", "!!!!"): period 1-2, so they
//    need short_min_span units, longer than any cause text (40 chars);
//  - the JSON structure of the answer: every item repeats the same keys and
//    punctuation, but each item carries a different id ("#2", "#3") right
//    before its body, which breaks u[i] == u[i-p] once per item; two items
//    with equal values are therefore never two copies of one block, and the
//    run never reaches min_repeats copies across items. (A format without
//    per-item ids would need the structure excluded; ours has them by design.)
// Whitespace padding: a JSON-schema grammar that allows free whitespace lets
// a weak model pad every gap with a random mix of spaces, tabs and newlines
// (llama.cpp's JSON grammar allows up to 22 per gap), which is not periodic.
// Text input therefore also trips when more than max_whitespace_run
// whitespace code points come in a row, or when at least
// whitespace_max_share of the last whitespace_window code points are
// whitespace (reported as period 1). Pretty-printed JSON stays under half.
// Under the grammar of schema.h only the cause text is free, so a loop is
// bounded; the guard matters most for remote streams and ungrammared output
// (whitespace padding, a sentence repeated until the token cap).
//
// "Hit the token cap with a repeating tail" (the degeneration definition
// used for the exported rate): IsCapDegeneration, checked once at the end
// with the looser ForCap thresholds.
//
// Thread-safety: a DegenerationGuard belongs to one generation and one thread
// at a time; the free functions are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nunchi::llm {

struct DegenerationOptions {
  size_t min_period = 1;       // shortest repeating block, in units
  size_t max_period = 32;      // longest repeating block, in units
  size_t min_repeats = 3;      // copies of the block needed to trip
  size_t min_span = 24;        // units the repeating tail must cover ...
  size_t short_period = 2;     // ... except for blocks up to this long,
  size_t short_min_span = 48;  // which must cover this many units
  // Text only: trip on more whitespace code points in a row than this (0: off),
  size_t max_whitespace_run = 0;
  // or on whitespace making up at least this share of the last
  // whitespace_window code points (window 0: off).
  size_t whitespace_window = 0;
  double whitespace_max_share = 0.75;

  // Defaults for token ids (a Korean token is about 1.4 characters).
  static DegenerationOptions ForTokens() { return {}; }
  // Defaults for text pieces, counted in code points.
  static DegenerationOptions ForText() { return {1, 96, 3, 48, 2, 64, 24, 64, 0.75}; }
  // Looser thresholds for the end-of-generation check at the token cap.
  static DegenerationOptions ForCap() { return {1, 64, 2, 16, 2, 24, 16, 48, 0.75}; }
};

struct TailRepeat {
  size_t period = 0;  // units per block
  size_t span = 0;    // units covered by the repeating tail
  size_t repeats() const { return period == 0 ? 0 : span / period; }
};

class DegenerationGuard {
 public:
  explicit DegenerationGuard(DegenerationOptions options = DegenerationOptions::ForTokens());

  // Feed one token id. Returns tripped().
  bool AddToken(int32_t token);
  // Feed a piece of UTF-8 text (pieces may split a code point). Returns tripped().
  bool AddText(std::string_view piece);

  // True once a loop was seen; stays true until Reset().
  bool tripped() const { return tripped_.has_value(); }
  // The repeat that tripped the guard.
  std::optional<TailRepeat> loop() const { return tripped_; }
  // The longest repeating tail right now (at least 2 copies), qualifying or not.
  std::optional<TailRepeat> CurrentRepeat() const;
  // The smallest-period repeat that qualifies at the end right now.
  std::optional<TailRepeat> QualifyingRepeat() const;
  // Units fed so far.
  size_t units() const { return n_; }
  const DegenerationOptions& options() const { return options_; }
  void Reset();

 private:
  void Push(uint32_t unit, bool whitespace = false);
  bool Qualifies(size_t period, size_t span) const;

  DegenerationOptions options_;
  std::vector<uint32_t> ring_;  // the last max_period units
  std::vector<size_t> run_;     // run_[p]: trailing count of u[i] == u[i-p]
  size_t n_ = 0;
  size_t whitespace_run_ = 0;        // trailing whitespace code points (text input)
  std::vector<uint8_t> whitespace_;  // whether each of the last window units was
  size_t whitespace_in_window_ = 0;
  std::string pending_;  // bytes of a code point split across AddText calls
  std::optional<TailRepeat> tripped_;
};

// The first repeat (smallest period) that qualifies at the end of units.
std::optional<TailRepeat> FindTailRepeat(std::span<const int32_t> tokens,
                                         const DegenerationOptions& options);
std::optional<TailRepeat> FindTailRepeat(std::string_view text, const DegenerationOptions& options);

// A generation that stopped at its token cap (hit_cap) with a repeating tail.
bool IsCapDegeneration(bool hit_cap, std::span<const int32_t> tokens,
                       const DegenerationOptions& options = DegenerationOptions::ForCap());
bool IsCapDegeneration(bool hit_cap, std::string_view text,
                       const DegenerationOptions& options = DegenerationOptions::ForCap());

}  // namespace nunchi::llm
