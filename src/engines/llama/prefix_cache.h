// PrefixCache: KV-cache states of earlier prompts, kept in spare sequences of
// the engine's llama_context so that a new prompt starts from its longest
// common token prefix with any of them (DESIGN.md section 4, "never recompute
// a prefix"). The shared instructions are a pinned entry; every finished
// prompt becomes an entry, replacing the entries it extends (a resent bundle
// supersedes its older, shorter self). Entries are evicted least recently used
// first when the token budget or the sequence pool runs out.
//
// Entries persist across restarts: Save() writes each with
// llama_state_seq_save_file, named by the hash of its tokens; Load() restores
// those whose tokens still match their name.
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

// The free sequence ids of a context.
class SeqPool {
 public:
  explicit SeqPool(int n_seq);
  std::optional<llama_seq_id> Acquire();
  void Release(llama_seq_id seq);  // the caller has removed its KV cells
  size_t free() const { return free_.size(); }

 private:
  std::vector<llama_seq_id> free_;
};

struct CacheEntry {
  llama_seq_id seq = -1;
  std::vector<llama_token> tokens;
  uint64_t last_use = 0;
  bool pinned = false;
};

class PrefixCache {
 public:
  // budget_tokens bounds the tokens held by unpinned entries (counted per
  // entry, shared cells counted each time: a conservative bound).
  PrefixCache(llama_context* ctx, SeqPool* pool, size_t budget_tokens);

  struct Match {
    llama_seq_id seq = -1;  // -1: nothing in common
    size_t length = 0;      // common prefix, in tokens
  };
  // The entry sharing the longest prefix with tokens; marks it used.
  Match Find(std::span<const llama_token> tokens);
  // Takes ownership of seq, whose KV holds exactly tokens. Frees unpinned
  // entries that are prefixes of tokens, then enforces the budget.
  void Insert(llama_seq_id seq, std::vector<llama_token> tokens, bool pinned);
  // Evicts the least recently used unpinned entry; false when there is none.
  bool EvictOne();

  // Writes every entry to dir (replacing what was there); returns how many.
  size_t Save(const std::string& dir) const;
  // Restores the entries saved in dir whose tokens match their hash, newest
  // first, while sequences and budget allow; returns how many.
  size_t Load(const std::string& dir);

  size_t size() const { return entries_.size(); }
  size_t cached_tokens() const;
  const std::vector<CacheEntry>& entries() const { return entries_; }
  static uint64_t HashTokens(std::span<const llama_token> tokens);

 private:
  void Free(size_t index);
  void EnforceBudget();

  llama_context* ctx_;
  SeqPool* pool_;
  size_t budget_tokens_;
  uint64_t clock_ = 0;
  std::vector<CacheEntry> entries_;
};

}  // namespace nunchi::llama
