// Test-only: the judgment rows the store tests write (store_test.cpp, the
// suite over every store; sqlite_store_test.cpp, SQLite's own tests).
#pragma once

#include <string>
#include <utility>

#include "store/judgment_store.h"

namespace nunchi::testing_rows {

inline StoredJudgment Row(std::string id, std::string post, std::string spot = "s1",
                          TimeMs at = 1000) {
  StoredJudgment r;
  r.signal_id = std::move(id);
  r.post_id = std::move(post);
  r.spot_id = std::move(spot);
  r.author_id = "u1";
  r.created_at = {at, "2026-11-29T18:40:00+09:00"};
  r.text_hash = 0xfeedbeefcafef00dull;
  r.judgment = {Relevance::kRelevant, Level::kHigh, Cause::kEvent, "팝업 대기줄", "rules",
                "default-v1",         "rules-v1"};
  r.judgment.relevance_confidence = 0.875;
  r.judgment.level_confidence = 0.625;
  r.judged_at = at;
  return r;
}

// A row the cascade made: the LLM's answer with the cheap one kept, and its text.
inline StoredJudgment EscalatedRow(std::string id) {
  StoredJudgment r = Row(std::move(id), "p1");
  CascadeRecord c;
  c.outcome = CascadeRecord::Outcome::kLlm;
  c.calibration_version = "cal-share-0badf00d";
  c.threshold = 0.8;
  c.cheap_judge = "classifier";
  c.cheap_relevance = Relevance::kRelevant;
  c.cheap_level = Level::kLow;
  c.cheap_cause = Cause::kNone;
  c.cheap_confidence = 0.42;
  r.judgment.judge = "llama";
  r.judgment.cascade = c;
  r.text = "줄이 끝이 안 보여요";
  return r;
}

}  // namespace nunchi::testing_rows
