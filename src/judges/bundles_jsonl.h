// Reading post bundles in the data-set JSONL format of congestion-labels.md
// (one bundle a line: bundle_id, spot, post, comments, each signal with
// minutes_ago, text and an optional label) into the contract types. Used by
// the evaluator, the build-time trainer and `nunchi judge --input`.
// Pure functions of their input; safe from any thread.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "domain/contract.h"
#include "domain/status.h"

namespace nunchi::judges {

struct SignalLabel {
  Relevance relevance = Relevance::kIrrelevant;
  Level level = Level::kUnknown;
  Cause cause = Cause::kNone;
};

struct LabeledBundle {
  std::string bundle_id;
  SpotInfo spot;
  Bundle bundle;                                   // created_at = analyzed_at - minutes_ago
  std::vector<int> minutes_ago;                    // per signal, bundle order
  std::vector<std::optional<SignalLabel>> labels;  // per signal, bundle order; unset when absent
};

// The fixed analysis time used for data sets: 2026-01-01T12:00:00Z.
inline constexpr TimeMs kDataSetAnalyzedAtMs = 1767268800000;

// Reads every non-blank line. kInvalidArgument names the first bad line.
Result<std::vector<LabeledBundle>> ReadBundlesJsonl(std::istream& in,
                                                    TimeMs analyzed_at = kDataSetAnalyzedAtMs);

}  // namespace nunchi::judges
