// What the SQL stores share (sqlite_store.cpp, postgres_store.cpp): the
// judgments table's columns in the order every SELECT and INSERT uses, and
// how a new state epoch is made. Internal to src/store; pure, any thread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

namespace nunchi::store_detail {

inline constexpr const char* kJudgmentColumns =
    "signal_id, spot_id, post_id, author_id, created_at_ms, created_at, text_hash, "
    "relevance, level, cause, cause_text, judge, model, prompt_version, judged_at_ms, "
    "relevance_confidence, level_confidence, cascade, text";

// "e-" and 12 random hex digits: a new store, or a replaced one, has a new epoch.
inline std::string NewEpoch() {
  std::random_device rd;
  std::uniform_int_distribution<uint32_t> dist;
  char buf[32];
  std::snprintf(buf, sizeof buf, "e-%08x%04x", dist(rd), dist(rd) & 0xffff);
  return buf;
}

}  // namespace nunchi::store_detail
