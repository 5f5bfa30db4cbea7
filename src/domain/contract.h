// The contract with the backend (../shared/DESIGN.md section 1) as plain
// structs: what a POST /v1/congestion-analyses carries and answers, and the
// judgment of one signal. JSON lives only in the HTTP layer; everything below
// it sees these types. Plain values, safe to copy between threads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/labels.h"
#include "domain/time.h"

namespace nunchi {

struct Signal {
  std::string signal_id;
  std::string author_id;
  Timestamp created_at;
  std::string text;
};

// One post with all of its currently valid comments, in the order written.
struct Bundle {
  std::string post_id;  // == post.signal_id
  Signal post;
  std::vector<Signal> comments;

  // Signal i of the bundle in written order: 0 is the post, i>0 comment i-1.
  size_t size() const { return comments.size() + 1; }
  const Signal& at(size_t i) const { return i == 0 ? post : comments[i - 1]; }
};

// What a judge needs to know about the place.
struct SpotInfo {
  std::string spot_id;
  std::string name;
  std::string description;
};

struct Spot {
  SpotInfo info;
  std::vector<Bundle> bundles;
};

enum class SignalKind { kPost, kComment };

struct NewSignal {
  SignalKind kind = SignalKind::kComment;
  std::string signal_id;
  std::string post_id;
};

struct AnalysisRequest {
  Timestamp analyzed_at;
  std::optional<std::string> state_epoch;
  std::vector<Spot> spots;
  std::vector<NewSignal> new_signals;
};

// What the cascade (judges/cascade.h) did with one signal: the cheap judge's
// answer is kept next to the LLM's so agreement can be measured and the LLM's
// verdicts reused (export-labels).
struct CascadeRecord {
  enum class Outcome {
    kCheap,      // confident enough: never escalated
    kLlm,        // escalated, and the LLM's answer counts
    kKeptTime,   // escalated but kept cheap: no time left in the budget
    kKeptError,  // escalated but kept cheap: the LLM failed or missed the deadline
  };
  Outcome outcome = Outcome::kCheap;
  std::string calibration_version;  // the threshold's calibration file
  double threshold = 0;             // escalate when the cheap confidence is below it
  // The cheap judge's answer (for kLlm; the judgment itself otherwise).
  std::string cheap_judge;
  Relevance cheap_relevance = Relevance::kIrrelevant;
  Level cheap_level = Level::kUnknown;
  Cause cheap_cause = Cause::kNone;
  double cheap_confidence = -1;  // what the escalation decided on
};

// The judgment of one signal (../shared/congestion-labels.md), with who made it.
struct Judgment {
  Relevance relevance = Relevance::kIrrelevant;
  Level level = Level::kUnknown;
  Cause cause = Cause::kNone;
  std::string cause_text;      // <= kMaxCauseTextChars code points; empty when IRRELEVANT
  std::string judge;           // "prefilter", "rules", "classifier", "llama", "remote:NAME", ...
  std::string model;           // model identity, or the judge's own version
  std::string prompt_version;  // prompt or rule-set version
  // Confidence, 0..1: the judge's estimate of the probability that
  // `relevance` is right, and that `level` is right given that relevance
  // (docs/quality.md says how each judge measures it; the cascade to the LLM
  // decides on it). kNoConfidence when the judge does not measure it.
  double relevance_confidence = kNoConfidence;
  double level_confidence = kNoConfidence;

  // Set by the cascade only.
  std::optional<CascadeRecord> cascade = std::nullopt;

  static constexpr double kNoConfidence = -1.0;
};

enum class AnalysisStatus { kOk, kFailed };

struct SpotResult {
  std::string spot_id;
  AnalysisStatus status = AnalysisStatus::kOk;
  // Unset when FAILED. level is set (maybe UNKNOWN) when OK.
  std::optional<Level> level;
  std::optional<Cause> cause;                // unset when no representative report
  std::optional<std::string> cause_summary;  // same
  std::optional<int> report_count;
  std::optional<std::string> last_reported_at;  // the signal's own created_at text
};

struct AnalysisResponse {
  std::string analyzed_at;
  std::string state_epoch;
  std::vector<SpotResult> spots;
};

}  // namespace nunchi
