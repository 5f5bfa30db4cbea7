#include "domain/aggregation.h"

#include <array>
#include <map>

namespace nunchi {
namespace {

bool Later(const Report& a, const Report& b) {
  if (a.created_at.ms != b.created_at.ms) return a.created_at.ms > b.created_at.ms;
  return a.signal_id > b.signal_id;
}

}  // namespace

SpotResult Aggregate(const std::string& spot_id, TimeMs analyzed_at,
                     std::span<const Report> reports) {
  // 1 + 2: valid reports, each author's latest only.
  std::map<std::string, const Report*> latest_by_author;
  for (const Report& r : reports) {
    if (r.relevance != Relevance::kRelevant || r.level == Level::kUnknown) continue;
    if (r.created_at.ms > analyzed_at || r.created_at.ms < analyzed_at - kReportWindowMs) continue;
    auto [it, inserted] = latest_by_author.emplace(r.author_id, &r);
    if (!inserted && Later(r, *it->second)) it->second = &r;
  }

  SpotResult out;
  out.spot_id = spot_id;
  out.status = AnalysisStatus::kOk;
  out.report_count = static_cast<int>(latest_by_author.size());
  out.level = Level::kUnknown;
  if (latest_by_author.empty()) return out;

  // 3: the level held by the most kept reports; a tie for the most is UNKNOWN.
  std::array<int, 3> votes{};  // LOW, MEDIUM, HIGH
  const Report* newest = nullptr;
  for (const auto& [author, r] : latest_by_author) {
    ++votes[static_cast<size_t>(r->level)];
    if (newest == nullptr || Later(*r, *newest)) newest = r;
  }
  out.last_reported_at = newest->created_at.text;  // 5
  int best = -1, best_votes = 0;
  bool tie = false;
  for (int i = 0; i < 3; ++i) {
    if (votes[i] > best_votes) {
      best = i, best_votes = votes[i], tie = false;
    } else if (votes[i] == best_votes && best_votes > 0) {
      tie = true;
    }
  }
  if (tie || best < 0) return out;
  const Level winner = static_cast<Level>(best);
  out.level = winner;

  // 4: the representative is the latest kept report with the winning level.
  const Report* rep = nullptr;
  for (const auto& [author, r] : latest_by_author)
    if (r->level == winner && (rep == nullptr || Later(*r, *rep))) rep = r;
  out.cause = rep->cause;
  out.cause_summary = rep->cause_text;
  return out;
}

}  // namespace nunchi
