#include "domain/aggregation.h"

#include <gtest/gtest.h>

namespace nunchi {
namespace {

constexpr TimeMs kNow = 1'800'000'000'000;

Report R(std::string id, std::string author, int minutes_ago, Level level,
         Cause cause = Cause::kNone, std::string text = "", Relevance rel = Relevance::kRelevant,
         int extra_ms = 0) {
  Report r;
  r.signal_id = std::move(id);
  r.author_id = std::move(author);
  r.created_at.ms = kNow - minutes_ago * kMinuteMs + extra_ms;
  r.created_at.text = "t-" + r.signal_id;
  r.relevance = rel;
  r.level = level;
  r.cause = cause;
  r.cause_text = std::move(text);
  return r;
}

TEST(Aggregation, NoReportsIsUnknownWithNullCause) {
  SpotResult s = Aggregate("s1", kNow, {});
  EXPECT_EQ(s.status, AnalysisStatus::kOk);
  EXPECT_EQ(s.level, Level::kUnknown);
  EXPECT_FALSE(s.cause.has_value());
  EXPECT_FALSE(s.cause_summary.has_value());
  EXPECT_EQ(s.report_count, 0);
  EXPECT_FALSE(s.last_reported_at.has_value());
}

TEST(Aggregation, MajorityWinsAndRepresentativeIsLatestWithWinningLevel) {
  std::vector<Report> rs = {
      R("a", "u1", 10, Level::kHigh, Cause::kEvent, "팝업 대기줄"),
      R("b", "u2", 5, Level::kHigh, Cause::kIncident, "고장"),
      R("c", "u3", 1, Level::kLow, Cause::kNone, ""),
  };
  SpotResult s = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s.level, Level::kHigh);
  EXPECT_EQ(s.cause, Cause::kIncident);  // b is the latest HIGH, not c (latest overall)
  EXPECT_EQ(s.cause_summary, "고장");
  EXPECT_EQ(s.report_count, 3);
  EXPECT_EQ(s.last_reported_at, "t-c");
}

TEST(Aggregation, TieIsUnknownButCountsReports) {
  std::vector<Report> rs = {R("a", "u1", 3, Level::kHigh), R("b", "u2", 2, Level::kLow),
                            R("c", "u3", 1, Level::kMedium, Cause::kPeakTime),
                            R("d", "u4", 1, Level::kMedium), R("e", "u5", 1, Level::kLow)};
  SpotResult s = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s.level, Level::kUnknown);
  EXPECT_FALSE(s.cause.has_value());
  EXPECT_FALSE(s.cause_summary.has_value());
  EXPECT_EQ(s.report_count, 5);
  EXPECT_TRUE(s.last_reported_at.has_value());
}

TEST(Aggregation, OneAuthorTwiceOnlyLatestCounts) {
  std::vector<Report> rs = {R("a", "u1", 9, Level::kHigh), R("b", "u1", 2, Level::kLow),
                            R("c", "u2", 4, Level::kHigh)};
  SpotResult s = Aggregate("s1", kNow, rs);
  // u1's latest is LOW, u2 HIGH: a tie.
  EXPECT_EQ(s.level, Level::kUnknown);
  EXPECT_EQ(s.report_count, 2);
  // Add a third author with LOW: LOW wins, and u1's HIGH must not count.
  rs.push_back(R("d", "u3", 1, Level::kLow, Cause::kWeather, "비"));
  s = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s.level, Level::kLow);
  EXPECT_EQ(s.cause, Cause::kWeather);
  EXPECT_EQ(s.report_count, 3);
}

TEST(Aggregation, LatestReportOfAnAuthorEvenIfInvalidIsNotSkippedToOlder) {
  // The rule keeps each author's latest *valid* report: an IRRELEVANT later
  // comment does not erase an earlier valid one.
  std::vector<Report> rs = {R("a", "u1", 9, Level::kHigh),
                            R("b", "u1", 2, Level::kUnknown, Cause::kNone, "",
                              Relevance::kIrrelevant)};
  SpotResult s = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s.level, Level::kHigh);
  EXPECT_EQ(s.report_count, 1);
}

TEST(Aggregation, TwentyMinuteEdgeIsInclusive) {
  std::vector<Report> in = {R("a", "u1", 20, Level::kHigh)};
  EXPECT_EQ(Aggregate("s1", kNow, in).level, Level::kHigh);
  std::vector<Report> out = {R("a", "u1", 20, Level::kHigh, Cause::kNone, "",
                               Relevance::kRelevant, -1)};
  SpotResult s = Aggregate("s1", kNow, out);
  EXPECT_EQ(s.level, Level::kUnknown);
  EXPECT_EQ(s.report_count, 0);
  std::vector<Report> future = {R("a", "u1", 0, Level::kHigh, Cause::kNone, "",
                                  Relevance::kRelevant, 1)};
  EXPECT_EQ(Aggregate("s1", kNow, future).report_count, 0);
}

TEST(Aggregation, UnknownLevelAndIrrelevantReportsIgnored) {
  std::vector<Report> rs = {
      R("a", "u1", 1, Level::kUnknown), R("b", "u2", 1, Level::kHigh, Cause::kNone, "",
                                          Relevance::kIrrelevant),
      R("c", "u3", 2, Level::kMedium, Cause::kPeakTime, "점심시간")};
  SpotResult s = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s.level, Level::kMedium);
  EXPECT_EQ(s.report_count, 1);
  EXPECT_EQ(s.cause_summary, "점심시간");
  EXPECT_EQ(s.last_reported_at, "t-c");
}

TEST(Aggregation, ResultDoesNotDependOnInputOrder) {
  std::vector<Report> rs = {R("a", "u1", 5, Level::kHigh, Cause::kEvent, "x"),
                            R("b", "u2", 5, Level::kHigh, Cause::kIncident, "y"),
                            R("c", "u3", 7, Level::kLow)};
  SpotResult s1 = Aggregate("s1", kNow, rs);
  std::reverse(rs.begin(), rs.end());
  SpotResult s2 = Aggregate("s1", kNow, rs);
  EXPECT_EQ(s1.cause, s2.cause);
  EXPECT_EQ(s1.cause_summary, s2.cause_summary);
}

}  // namespace
}  // namespace nunchi
