#include "engines/llama/prefix_cache.h"

#include <gtest/gtest.h>

namespace nunchi::llama {
namespace {

std::vector<llama_token> Seq(std::initializer_list<llama_token> t) { return t; }

TEST(PrefixCache, FindsLongestCommonPrefix) {
  SeqPool pool(8);
  PrefixCache cache(nullptr, &pool, 1000);
  cache.Insert(*pool.Acquire(), Seq({1, 2, 3}), /*pinned=*/true);
  cache.Insert(*pool.Acquire(), Seq({1, 2, 3, 4, 5, 6}), false);
  cache.Insert(*pool.Acquire(), Seq({1, 2, 9, 9}), false);
  const auto m = cache.Find(Seq({1, 2, 3, 4, 5, 7, 8}));
  EXPECT_EQ(m.length, 5u);
  EXPECT_EQ(cache.Find(Seq({5})).seq, -1);
}

TEST(PrefixCache, GrownPromptReplacesItsPrefix) {
  SeqPool pool(8);
  PrefixCache cache(nullptr, &pool, 1000);
  cache.Insert(*pool.Acquire(), Seq({1, 2}), true);
  cache.Insert(*pool.Acquire(), Seq({1, 2, 3}), false);
  cache.Insert(*pool.Acquire(), Seq({1, 2, 3, 4}), false);
  EXPECT_EQ(cache.size(), 2u);  // the pinned one and the grown one
  EXPECT_EQ(pool.free(), 6u);
}

TEST(PrefixCache, EvictsLeastRecentlyUsedWithinBudget) {
  SeqPool pool(8);
  PrefixCache cache(nullptr, &pool, 10);
  cache.Insert(*pool.Acquire(), Seq({1, 1, 1, 1}), false);
  cache.Insert(*pool.Acquire(), Seq({2, 2, 2, 2}), false);
  cache.Find(Seq({1, 1}));                                  // 1... is now the most recent
  cache.Insert(*pool.Acquire(), Seq({3, 3, 3, 3}), false);  // 12 > 10: evict 2...
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find(Seq({2, 2})).length, 0u);
  EXPECT_EQ(cache.Find(Seq({1, 1})).length, 2u);
  EXPECT_TRUE(cache.EvictOne());
  EXPECT_TRUE(cache.EvictOne());
  EXPECT_FALSE(cache.EvictOne());
}

}  // namespace
}  // namespace nunchi::llama
