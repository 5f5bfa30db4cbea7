#include "judges/prefilter.h"

#include "judges/text_util.h"

namespace nunchi::judges {

NoiseKind ClassifyNoise(std::string_view text) {
  bool any = false, emoji = false;
  for (size_t i = 0; i < text.size();) {
    char32_t cp = NextCodePoint(text, i);
    if (IsSpace(cp)) continue;
    any = true;
    if (cp < 0x80) {
      bool alnum = (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
      if (alnum) return NoiseKind::kNone;
      continue;  // ASCII punctuation
    }
    if (IsEmojiOrSymbol(cp)) {
      emoji = true;
      continue;
    }
    return NoiseKind::kNone;  // Hangul, jamo, other letters: words for the rules
  }
  if (!any) return NoiseKind::kBlank;
  return emoji ? NoiseKind::kEmoji : NoiseKind::kPunctuation;
}

Judgment PrefilterJudgment() {
  Judgment j;
  j.relevance = Relevance::kIrrelevant;
  j.level = Level::kUnknown;
  j.cause = Cause::kNone;
  j.judge = std::string(Prefilter::kName);
  j.model = "prefilter-v1";
  j.prompt_version = "prefilter-v1";
  return j;
}

bool Prefilter::IsNoise(std::string_view text) {
  seen_.fetch_add(1, std::memory_order_relaxed);
  switch (ClassifyNoise(text)) {
    case NoiseKind::kNone:
      return false;
    case NoiseKind::kBlank:
      blank_.fetch_add(1, std::memory_order_relaxed);
      break;
    case NoiseKind::kPunctuation:
      punctuation_.fetch_add(1, std::memory_order_relaxed);
      break;
    case NoiseKind::kEmoji:
      emoji_.fetch_add(1, std::memory_order_relaxed);
      break;
  }
  return true;
}

Prefilter::Counts Prefilter::counts() const {
  return {seen_.load(), blank_.load(), punctuation_.load(), emoji_.load()};
}

JudgeOutput Prefilter::JudgeBundle(const JudgeTask& task) {
  JudgeOutput out;
  out.reserve(task.targets.size());
  for (size_t t : task.targets) {
    if (t >= task.bundle.size()) {
      out.emplace_back(ErrorCode::kInvalidArgument, "target out of range");
    } else if (IsNoise(task.bundle.at(t).text)) {
      out.emplace_back(PrefilterJudgment());
    } else {
      out.emplace_back(ErrorCode::kUnavailable, "not noise");
    }
  }
  return out;
}

}  // namespace nunchi::judges
