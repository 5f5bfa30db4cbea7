#include "engines/llama/prefix_cache.h"

#include <gtest/gtest.h>

namespace nunchi::llama {
namespace {

std::vector<llama_token> Seq(std::initializer_list<llama_token> t) { return t; }
std::vector<uint8_t> Bytes(size_t n) { return std::vector<uint8_t>(n, 1); }

TEST(PrefixCache, FindsLongestCommonPrefix) {
  PrefixCache cache(nullptr, 1000, 8);
  cache.Insert(Seq({1, 2, 3}), Bytes(3), /*pinned=*/true);
  cache.Insert(Seq({1, 2, 3, 4, 5, 6}), Bytes(6), false);
  cache.Insert(Seq({1, 2, 9, 9}), Bytes(4), false);
  const auto m = cache.Find(Seq({1, 2, 3, 4, 5, 7, 8}));
  EXPECT_EQ(m.length, 5u);
  EXPECT_EQ(cache.entries()[m.index].tokens.size(), 6u);
  EXPECT_EQ(cache.Find(Seq({5})).length, 0u);
  EXPECT_EQ(cache.Find(Seq({5})).index, SIZE_MAX);
}

TEST(PrefixCache, PrefersTheShortestEntryForTheSameMatch) {
  PrefixCache cache(nullptr, 1000, 8);
  cache.Insert(Seq({1, 2, 3, 4, 5, 6}), Bytes(6), false);
  cache.Insert(Seq({1, 2, 3}), Bytes(3), /*pinned=*/true);
  const auto m = cache.Find(Seq({1, 2, 3, 7}));
  EXPECT_EQ(m.length, 3u);
  EXPECT_EQ(cache.entries()[m.index].tokens.size(), 3u);  // less state to copy
}

TEST(PrefixCache, GrownPromptReplacesItsPrefix) {
  PrefixCache cache(nullptr, 1000, 8);
  cache.Insert(Seq({1, 2}), Bytes(2), true);
  cache.Insert(Seq({1, 2, 3}), Bytes(3), false);
  cache.Insert(Seq({1, 2, 3, 4}), Bytes(4), false);
  EXPECT_EQ(cache.size(), 2u);  // the pinned one and the grown one
  EXPECT_EQ(cache.cached_bytes(), 4u);
}

TEST(PrefixCache, CaptureKeepsNothingThatAnEntryAlreadyExtends) {
  PrefixCache cache(nullptr, 1000, 8);
  cache.Insert(Seq({1, 2, 3, 4}), Bytes(4), false);
  cache.Capture(0, Seq({1, 2, 3}), false);
  EXPECT_EQ(cache.size(), 1u);
  cache.Capture(0, Seq({1, 2, 3}), /*pinned=*/true);  // a pinned copy is still wanted
  EXPECT_EQ(cache.size(), 2u);
  cache.Capture(0, Seq({1, 2, 3, 4, 5}), false);  // extends the unpinned one: replaces it
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(Seq({1, 2, 3, 4, 5, 6})).length, 5u);
}

TEST(PrefixCache, EvictsLeastRecentlyUsedWithinBudget) {
  PrefixCache cache(nullptr, 10, 8);
  cache.Insert(Seq({1, 1, 1, 1}), Bytes(4), false);
  cache.Insert(Seq({2, 2, 2, 2}), Bytes(4), false);
  cache.Find(Seq({1, 1}));                           // 1... is now the most recent
  cache.Insert(Seq({3, 3, 3, 3}), Bytes(4), false);  // 12 > 10 bytes: evict 2...
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(Seq({2, 2})).length, 0u);
  EXPECT_EQ(cache.Find(Seq({1, 1})).length, 2u);
  EXPECT_TRUE(cache.EvictOne());
  EXPECT_TRUE(cache.EvictOne());
  EXPECT_FALSE(cache.EvictOne());
}

TEST(PrefixCache, EntryCountIsBounded) {
  PrefixCache cache(nullptr, 1000, 2);
  cache.Insert(Seq({9}), Bytes(1), true);  // pinned entries do not count
  cache.Insert(Seq({1}), Bytes(1), false);
  cache.Insert(Seq({2}), Bytes(1), false);
  cache.Insert(Seq({3}), Bytes(1), false);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.Find(Seq({1})).length, 0u);  // the oldest went
  EXPECT_EQ(cache.Find(Seq({9})).length, 1u);
}

TEST(SeqPool, HandsOutTheLowestFreeIdFirst) {
  SeqPool pool(4);
  EXPECT_EQ(*pool.Acquire(), 0);
  EXPECT_EQ(*pool.Acquire(), 1);
  EXPECT_EQ(*pool.Acquire(), 2);
  pool.Release(1);
  pool.Release(0);
  EXPECT_EQ(*pool.Acquire(), 0);
  EXPECT_EQ(*pool.Acquire(), 1);
  EXPECT_EQ(*pool.Acquire(), 3);
  EXPECT_FALSE(pool.Acquire().has_value());
}

}  // namespace
}  // namespace nunchi::llama
