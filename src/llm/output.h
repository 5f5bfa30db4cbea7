// Parses and validates a model's answer in the format of schema.h into one
// Result<Judgment> per target id, in target order, and counts every
// violation by kind.
//
// The grammar and the strict schema make a malformed answer unlikely, not
// impossible (a server that ignores response_format, a truncated stream, a
// bug), so every id and value is checked here. Failures are per item where
// the answer is still attributable: a missing or broken item fails only its
// own target (kInvalidOutput) and the others stand; an answer that is not a
// JSON object fails every target. Whitespace between tokens is tolerated (a
// hosted API may add it). An IRRELEVANT item always yields level UNKNOWN,
// cause NONE and an empty cause text, whatever else it carries.
//
// Thread-safety: ParseJudgeOutput is a pure function; OutputCounters is
// lock-free and may be shared by every thread of every judge.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "judges/judge.h"

namespace nunchi::llm {

enum class Violation {
  kNotJson,             // not parseable as one JSON value (or trailing bytes)
  kNotObject,           // the root is not an object
  kMissingId,           // an expected id has no item
  kUnexpectedId,        // a key that is not an expected id
  kDuplicateId,         // an id appears twice
  kOutOfOrder,          // ids present but not in target order
  kItemNotObject,       // an item is not an object
  kBadRelevance,        // "r" missing or not RELEVANT | IRRELEVANT
  kBadLevel,            // "l" missing or not a level (RELEVANT only)
  kBadCause,            // "c" missing or not a cause (RELEVANT only)
  kBadCauseText,        // "t" missing, not a string or not valid UTF-8 (RELEVANT only)
  kCauseTextTooLong,    // "t" longer than kMaxCauseTextChars code points
  kExtraField,          // an item key other than r, l, c, t
  kIrrelevantWithData,  // an IRRELEVANT item carrying l, c or t (forced, not an error)
  kCount
};

std::string_view ViolationName(Violation v);

// Violation counts. Lock-free; share one per judge (or one per process).
class OutputCounters {
 public:
  void Add(Violation v) { counts_[static_cast<size_t>(v)].fetch_add(1, std::memory_order_relaxed); }
  uint64_t Get(Violation v) const {
    return counts_[static_cast<size_t>(v)].load(std::memory_order_relaxed);
  }
  uint64_t Total() const;
  void CountAnswer(bool all_ok) {
    answers_.fetch_add(1, std::memory_order_relaxed);
    if (!all_ok) failed_answers_.fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t answers() const { return answers_.load(std::memory_order_relaxed); }
  uint64_t failed_answers() const { return failed_answers_.load(std::memory_order_relaxed); }

 private:
  std::array<std::atomic<uint64_t>, static_cast<size_t>(Violation::kCount)> counts_{};
  std::atomic<uint64_t> answers_{0};
  std::atomic<uint64_t> failed_answers_{0};
};

// Who made the judgments; copied into every Judgment.
struct JudgmentStamp {
  std::string judge;
  std::string model;
  std::string prompt_version;
};

struct ParseOptions {
  // Cut an overlong cause text to kMaxCauseTextChars instead of failing the
  // item (the violation is counted either way).
  bool truncate_long_cause_text = false;
  // Per id: whether its cause text was asked (schema.h). An item not asked
  // may leave "t" out; its cause_text is then empty. Empty: every item's was.
  std::vector<bool> with_text = {};
};

// One result per id, in ids order. counters may be null.
JudgeOutput ParseJudgeOutput(std::string_view answer, std::span<const std::string> ids,
                             const JudgmentStamp& stamp, OutputCounters* counters = nullptr,
                             ParseOptions options = {});

}  // namespace nunchi::llm
