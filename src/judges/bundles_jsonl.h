// Reading post bundles in the data-set JSONL format of congestion-labels.md
// (one bundle a line: bundle_id, spot, post, comments, each signal with
// minutes_ago, text and an optional label) into the contract types. Used by
// the evaluator, the build-time trainer and `nunchi judge --input`; and a
// set's injection annotation (blind-N.injections.txt next to blind-N.jsonl).
// Pure functions of their input; safe from any thread.
#pragma once

#include <istream>
#include <optional>
#include <set>
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

// An injection annotation: one signal id a line; blank lines and lines
// starting with '#' are skipped. Every id must name a signal of `bundles`
// (kInvalidArgument names the first that does not), so that a stale or
// misplaced annotation cannot quietly count nothing.
Result<std::set<std::string>> ReadInjectionIds(std::istream& in,
                                               const std::vector<LabeledBundle>& bundles);

// Where a data file's injection annotation lives: X.jsonl -> X.injections.txt.
std::string InjectionAnnotationPath(const std::string& data_path);

}  // namespace nunchi::judges
