// PrefixCache: KV states of earlier prompts, held in host memory, so that a
// new prompt starts from its longest common token prefix with any of them
// (DESIGN.md section 4, "never recompute a prefix"). The shared instructions
// are a pinned entry; every finished prompt becomes an entry, replacing the
// entries it extends (a resent bundle supersedes its older, shorter self).
// Entries are evicted least recently used first when the byte budget or the
// entry count runs out.
//
// Why host memory and not spare sequences of the context: each active
// sequence has a KV stream of its own (kv_unified off), so a token attends
// over its own prompt only, not over every cached prompt (measured in
// docs/benchmarks.md: with one unified buffer, attention over the cached
// cells was ~90 % of a peak cycle). Capture copies a sequence's cells out
// with llama_state_seq_get_data; Restore copies them into a free stream.
//
// Entries persist across restarts: Save() writes each to a file named by the
// hash of its tokens (skipping those already there, and deleting the files
// of evicted entries); Load() reads back those whose tokens still match
// their name. A state that no longer fits the context (another model or layout)
// fails at Restore and is dropped then.
//
// With a null context only the bookkeeping runs (unit tests). Not
// thread-safe: owned by the engine thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "llama.h"

namespace nunchi::llama {

// The free sequence ids of a context, lowest first: llama.cpp decodes the
// streams of consecutive ids in one pass.
class SeqPool {
 public:
  explicit SeqPool(int n_seq);
  std::optional<llama_seq_id> Acquire();
  void Release(llama_seq_id seq);  // the caller has removed its KV cells
  size_t free() const { return free_.size(); }

 private:
  std::vector<llama_seq_id> free_;  // sorted, descending: the lowest at the back
};

struct CacheEntry {
  std::vector<llama_token> tokens;
  std::vector<uint8_t> state;  // llama_state_seq_get_data of exactly these tokens
  uint64_t last_use = 0;
  bool pinned = false;
};

class PrefixCache {
 public:
  // budget_bytes bounds the state bytes of unpinned entries, max_entries
  // their number.
  PrefixCache(llama_context* ctx, size_t budget_bytes, size_t max_entries);

  struct Match {
    size_t index = SIZE_MAX;  // SIZE_MAX: nothing in common
    size_t length = 0;        // common prefix, in tokens
  };
  // The entry sharing the longest prefix with tokens (the shortest such
  // entry: the least to copy); marks it used.
  Match Find(std::span<const llama_token> tokens);
  // Copies the match's state into the empty sequence seq and trims it to
  // the common prefix. Returns the tokens restored: match.length, or 0 when
  // the state does not fit this context (the entry is dropped).
  size_t Restore(const Match& match, llama_seq_id seq);
  // Copies the state of seq, whose KV holds exactly tokens, into an entry.
  // Nothing is kept when an entry already extends tokens.
  void Capture(llama_seq_id seq, std::vector<llama_token> tokens, bool pinned);
  // Adds an entry. Frees unpinned entries that are prefixes of its tokens,
  // then enforces the budget.
  void Insert(std::vector<llama_token> tokens, std::vector<uint8_t> state, bool pinned);
  // Evicts the least recently used unpinned entry; false when there is none.
  bool EvictOne();

  // Writes every entry to dir (replacing what was there); returns how many.
  size_t Save(const std::string& dir) const;
  // Reads the entries saved in dir whose tokens match their hash, newest
  // first, while count and budget allow; returns how many.
  size_t Load(const std::string& dir);

  size_t size() const { return entries_.size(); }
  size_t cached_bytes() const;
  const std::vector<CacheEntry>& entries() const { return entries_; }
  static uint64_t HashTokens(std::span<const llama_token> tokens);

 private:
  void EnforceBudget();

  llama_context* ctx_;
  size_t budget_bytes_;
  size_t max_entries_;
  uint64_t clock_ = 0;
  std::vector<CacheEntry> entries_;
};

}  // namespace nunchi::llama
