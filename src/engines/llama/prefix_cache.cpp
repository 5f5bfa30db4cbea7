#include "engines/llama/prefix_cache.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "engines/llama/runtime.h"

namespace nunchi::llama {

namespace fs = std::filesystem;

SeqPool::SeqPool(int n_seq) {
  for (int s = n_seq - 1; s >= 0; --s) free_.push_back(s);
}

std::optional<llama_seq_id> SeqPool::Acquire() {
  if (free_.empty()) return std::nullopt;
  const llama_seq_id s = free_.back();
  free_.pop_back();
  return s;
}

void SeqPool::Release(llama_seq_id seq) { free_.push_back(seq); }

PrefixCache::PrefixCache(llama_context* ctx, SeqPool* pool, size_t budget_tokens)
    : ctx_(ctx), pool_(pool), budget_tokens_(budget_tokens) {}

uint64_t PrefixCache::HashTokens(std::span<const llama_token> tokens) {
  return Fnv1a64(tokens.data(), tokens.size_bytes());
}

PrefixCache::Match PrefixCache::Find(std::span<const llama_token> tokens) {
  Match best;
  size_t best_index = entries_.size();
  for (size_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i].tokens;
    const size_t n = std::min(e.size(), tokens.size());
    size_t k = 0;
    while (k < n && e[k] == tokens[k]) ++k;
    if (k > best.length) {
      best = {entries_[i].seq, k};
      best_index = i;
    }
  }
  if (best_index < entries_.size()) entries_[best_index].last_use = ++clock_;
  return best;
}

void PrefixCache::Free(size_t index) {
  if (ctx_ != nullptr) llama_memory_seq_rm(llama_get_memory(ctx_), entries_[index].seq, -1, -1);
  pool_->Release(entries_[index].seq);
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
}

void PrefixCache::Insert(llama_seq_id seq, std::vector<llama_token> tokens, bool pinned) {
  for (size_t i = entries_.size(); i-- > 0;) {
    const auto& e = entries_[i];
    if (e.pinned) continue;
    const bool is_prefix = e.tokens.size() <= tokens.size() &&
                           std::equal(e.tokens.begin(), e.tokens.end(), tokens.begin());
    if (is_prefix) Free(i);
  }
  entries_.push_back({seq, std::move(tokens), ++clock_, pinned});
  EnforceBudget();
}

bool PrefixCache::EvictOne() {
  size_t victim = entries_.size();
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].pinned) continue;
    if (victim == entries_.size() || entries_[i].last_use < entries_[victim].last_use) victim = i;
  }
  if (victim == entries_.size()) return false;
  Free(victim);
  return true;
}

size_t PrefixCache::cached_tokens() const {
  size_t n = 0;
  for (const auto& e : entries_) {
    if (!e.pinned) n += e.tokens.size();
  }
  return n;
}

void PrefixCache::EnforceBudget() {
  while (cached_tokens() > budget_tokens_ && EvictOne()) {
  }
}

size_t PrefixCache::Save(const std::string& dir) const {
  if (ctx_ == nullptr || dir.empty()) return 0;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return 0;
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    if (f.path().extension() == ".seq") fs::remove(f.path(), ec);
  }
  size_t saved = 0;
  for (const auto& e : entries_) {
    char name[32];
    std::snprintf(name, sizeof(name), "%016" PRIx64 ".seq", HashTokens(e.tokens));
    const fs::path path = fs::path(dir) / name;
    const fs::path tmp = path.string() + ".tmp";
    if (llama_state_seq_save_file(ctx_, tmp.c_str(), e.seq, e.tokens.data(), e.tokens.size()) ==
        0) {
      continue;
    }
    fs::rename(tmp, path, ec);
    if (!ec) ++saved;
  }
  return saved;
}

size_t PrefixCache::Load(const std::string& dir) {
  if (ctx_ == nullptr || dir.empty()) return 0;
  std::error_code ec;
  std::vector<fs::directory_entry> files;
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    if (f.path().extension() == ".seq") files.push_back(f);
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    std::error_code e1, e2;
    return a.last_write_time(e1) > b.last_write_time(e2);
  });
  const uint32_t n_ctx = llama_n_ctx(ctx_);
  size_t loaded = 0;
  for (const auto& f : files) {
    const auto seq = pool_->Acquire();
    if (!seq) break;
    std::vector<llama_token> tokens(n_ctx);
    size_t n = 0;
    const size_t read =
        llama_state_seq_load_file(ctx_, f.path().c_str(), *seq, tokens.data(), tokens.size(), &n);
    tokens.resize(read > 0 ? n : 0);
    char name[32];
    std::snprintf(name, sizeof(name), "%016" PRIx64, HashTokens(tokens));
    const bool ok = read > 0 && !tokens.empty() && f.path().stem() == name &&
                    cached_tokens() + tokens.size() <= budget_tokens_;
    if (!ok) {
      // A stale or foreign file: drop whatever it put into the sequence.
      llama_memory_seq_rm(llama_get_memory(ctx_), *seq, -1, -1);
      pool_->Release(*seq);
      continue;
    }
    entries_.push_back({*seq, std::move(tokens), ++clock_, false});
    ++loaded;
  }
  return loaded;
}

}  // namespace nunchi::llama
