// The prefilter: answers pure noise (blank, punctuation only, emoji or symbols
// only) as IRRELEVANT without any model, and counts what it removed. Laughter
// and crying jamo (ㅋㅋ, ㅎㅎ, ㅠㅠ) are not noise here: the rules judge them.
// Thread-safe: the counters are atomics; Prefilter is shared by all callers.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "judges/judge.h"

namespace nunchi::judges {

enum class NoiseKind { kNone, kBlank, kPunctuation, kEmoji };

// Classifies a text; kNone means "not noise, let the other judges see it".
NoiseKind ClassifyNoise(std::string_view text);

class Prefilter : public Judge {
 public:
  static constexpr std::string_view kName = "prefilter";
  std::string_view name() const override { return kName; }
  // Noise targets get an IRRELEVANT judgment; others get kUnavailable (not mine).
  JudgeOutput JudgeBundle(const JudgeTask& task) override;

  // Returns true (and counts it) when text is noise.
  bool IsNoise(std::string_view text);

  struct Counts {
    uint64_t seen = 0, blank = 0, punctuation = 0, emoji = 0;
  };
  Counts counts() const;

 private:
  std::atomic<uint64_t> seen_{0}, blank_{0}, punctuation_{0}, emoji_{0};
};

// The judgment every prefiltered signal gets.
Judgment PrefilterJudgment();

}  // namespace nunchi::judges
