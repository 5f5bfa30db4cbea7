// The aggregation rule (../shared/DESIGN.md section 2): from a spot's stored
// reports to its congestion result. Code, not model. Pure: no I/O, no clock,
// no globals; safe from any thread.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "domain/contract.h"

namespace nunchi {

// One stored judgment of one signal, as the aggregation sees it.
struct Report {
  std::string signal_id;
  std::string author_id;
  Timestamp created_at;
  Relevance relevance = Relevance::kIrrelevant;
  Level level = Level::kUnknown;
  Cause cause = Cause::kNone;
  std::string cause_text;
};

// The window: a report counts when analyzed_at - 20 min <= created_at <= analyzed_at.
inline constexpr TimeMs kReportWindowMs = 20 * kMinuteMs;

// Aggregates reports (any order) for spot_id at analyzed_at. Always OK status.
// Ties in created_at between two reports of one author, or between candidate
// representatives, are broken by the larger signal_id so results are stable.
SpotResult Aggregate(const std::string& spot_id, TimeMs analyzed_at,
                     std::span<const Report> reports);

}  // namespace nunchi
