#include "engines/llama/prefix_cache.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

#include "engines/llama/runtime.h"

namespace nunchi::llama {

namespace fs = std::filesystem;

namespace {

constexpr uint32_t kFileMagic = 0x32564b4e;  // "NKV2": tokens, then the sequence state

std::string FileName(std::span<const llama_token> tokens) {
  char name[32];
  std::snprintf(name, sizeof(name), "%016" PRIx64 ".seq", PrefixCache::HashTokens(tokens));
  return name;
}

bool WriteEntry(const fs::path& path, const CacheEntry& e) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const uint32_t n = static_cast<uint32_t>(e.tokens.size());
  const uint64_t bytes = e.state.size();
  out.write(reinterpret_cast<const char*>(&kFileMagic), sizeof(kFileMagic));
  out.write(reinterpret_cast<const char*>(&n), sizeof(n));
  out.write(reinterpret_cast<const char*>(e.tokens.data()),
            static_cast<std::streamsize>(n * sizeof(llama_token)));
  out.write(reinterpret_cast<const char*>(&bytes), sizeof(bytes));
  out.write(reinterpret_cast<const char*>(e.state.data()), static_cast<std::streamsize>(bytes));
  out.flush();
  return static_cast<bool>(out);
}

std::optional<CacheEntry> ReadEntry(const fs::path& path, size_t max_tokens, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  uint32_t magic = 0, n = 0;
  uint64_t bytes = 0;
  if (!in.read(reinterpret_cast<char*>(&magic), sizeof(magic)) || magic != kFileMagic) return {};
  if (!in.read(reinterpret_cast<char*>(&n), sizeof(n)) || n == 0 || n > max_tokens) return {};
  CacheEntry e;
  e.tokens.resize(n);
  if (!in.read(reinterpret_cast<char*>(e.tokens.data()),
               static_cast<std::streamsize>(n * sizeof(llama_token)))) {
    return {};
  }
  if (!in.read(reinterpret_cast<char*>(&bytes), sizeof(bytes)) || bytes == 0 || bytes > max_bytes) {
    return {};
  }
  e.state.resize(bytes);
  if (!in.read(reinterpret_cast<char*>(e.state.data()), static_cast<std::streamsize>(bytes))) {
    return {};
  }
  return e;
}

}  // namespace

SeqPool::SeqPool(int n_seq) {
  for (int s = n_seq - 1; s >= 0; --s) free_.push_back(s);
}

std::optional<llama_seq_id> SeqPool::Acquire() {
  if (free_.empty()) return std::nullopt;
  const llama_seq_id s = free_.back();
  free_.pop_back();
  return s;
}

void SeqPool::Release(llama_seq_id seq) {
  free_.insert(std::upper_bound(free_.begin(), free_.end(), seq, std::greater<>()), seq);
}

PrefixCache::PrefixCache(llama_context* ctx, size_t budget_bytes, size_t max_entries)
    : ctx_(ctx), budget_bytes_(budget_bytes), max_entries_(max_entries) {}

uint64_t PrefixCache::HashTokens(std::span<const llama_token> tokens) {
  return Fnv1a64(tokens.data(), tokens.size_bytes());
}

PrefixCache::Match PrefixCache::Find(std::span<const llama_token> tokens) {
  Match best;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i].tokens;
    const size_t n = std::min(e.size(), tokens.size());
    size_t k = 0;
    while (k < n && e[k] == tokens[k]) ++k;
    const bool shorter =
        best.index < entries_.size() && e.size() < entries_[best.index].tokens.size();
    if (k > best.length || (k > 0 && k == best.length && shorter)) best = {i, k};
  }
  if (best.index < entries_.size()) entries_[best.index].last_use = ++clock_;
  return best;
}

size_t PrefixCache::Restore(const Match& match, llama_seq_id seq) {
  if (match.index >= entries_.size() || match.length == 0) return 0;
  if (ctx_ == nullptr) return match.length;
  const CacheEntry& e = entries_[match.index];
  llama_memory_t mem = llama_get_memory(ctx_);
  if (llama_state_seq_set_data(ctx_, e.state.data(), e.state.size(), seq) == 0) {
    llama_memory_seq_rm(mem, seq, -1, -1);
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(match.index));
    return 0;
  }
  if (match.length < e.tokens.size()) {
    llama_memory_seq_rm(mem, seq, static_cast<llama_pos>(match.length), -1);
  }
  return match.length;
}

void PrefixCache::Capture(llama_seq_id seq, std::vector<llama_token> tokens, bool pinned) {
  if (tokens.empty() || (budget_bytes_ == 0 && !pinned)) return;
  for (const auto& e : entries_) {
    const bool extends = e.tokens.size() >= tokens.size() &&
                         std::equal(tokens.begin(), tokens.end(), e.tokens.begin());
    if (extends && (e.pinned || !pinned)) return;
  }
  std::vector<uint8_t> state;
  if (ctx_ != nullptr) {
    state.resize(llama_state_seq_get_size(ctx_, seq));
    const size_t n = llama_state_seq_get_data(ctx_, state.data(), state.size(), seq);
    if (n == 0) return;
    state.resize(n);
  }
  Insert(std::move(tokens), std::move(state), pinned);
}

void PrefixCache::Insert(std::vector<llama_token> tokens, std::vector<uint8_t> state, bool pinned) {
  std::erase_if(entries_, [&](const CacheEntry& e) {
    return !e.pinned && e.tokens.size() <= tokens.size() &&
           std::equal(e.tokens.begin(), e.tokens.end(), tokens.begin());
  });
  entries_.push_back({std::move(tokens), std::move(state), ++clock_, pinned});
  EnforceBudget();
}

bool PrefixCache::EvictOne() {
  size_t victim = entries_.size();
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].pinned) continue;
    if (victim == entries_.size() || entries_[i].last_use < entries_[victim].last_use) victim = i;
  }
  if (victim == entries_.size()) return false;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(victim));
  return true;
}

size_t PrefixCache::cached_bytes() const {
  size_t n = 0;
  for (const auto& e : entries_) {
    if (!e.pinned) n += e.state.size();
  }
  return n;
}

void PrefixCache::EnforceBudget() {
  auto unpinned = [&] {
    return static_cast<size_t>(
        std::count_if(entries_.begin(), entries_.end(), [](const auto& e) { return !e.pinned; }));
  };
  while ((cached_bytes() > budget_bytes_ || unpinned() > max_entries_) && EvictOne()) {
  }
}

size_t PrefixCache::Save(const std::string& dir) const {
  if (ctx_ == nullptr || dir.empty()) return 0;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return 0;
  // Most recently used last, pinned entries after all: Load() prefers the
  // newest files when the budget is short.
  std::vector<const CacheEntry*> order;
  for (const auto& e : entries_) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const CacheEntry* a, const CacheEntry* b) {
    return std::pair(a->pinned, a->last_use) < std::pair(b->pinned, b->last_use);
  });
  std::set<std::string> names;
  for (const auto* e : order) names.insert(FileName(e->tokens));
  for (const auto& f : fs::directory_iterator(dir, ec)) {
    const auto ext = f.path().extension();
    if (ext == ".tmp" || (ext == ".seq" && !names.count(f.path().filename().string()))) {
      fs::remove(f.path(), ec);
    }
  }
  // A file is named by the hash of its tokens, and the directory is the
  // model's: one already there holds this state and is only touched, so a
  // shutdown writes only the entries made since the last one.
  size_t saved = 0;
  for (const auto* e : order) {
    const fs::path path = fs::path(dir) / FileName(e->tokens);
    if (fs::exists(path, ec)) {
      fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
      if (!ec) ++saved;
      continue;
    }
    const fs::path tmp = path.string() + ".tmp";
    if (!WriteEntry(tmp, *e)) {
      fs::remove(tmp, ec);
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
  const size_t max_tokens = llama_n_ctx_seq(ctx_);
  size_t loaded = 0;
  for (const auto& f : files) {
    if (entries_.size() >= max_entries_) break;
    auto e = ReadEntry(f.path(), max_tokens, budget_bytes_);
    if (!e || f.path().filename() != FileName(e->tokens)) continue;  // stale or foreign
    if (cached_bytes() + e->state.size() > budget_bytes_) continue;
    e->last_use = ++clock_;
    entries_.push_back(std::move(*e));
    ++loaded;
  }
  return loaded;
}

}  // namespace nunchi::llama
