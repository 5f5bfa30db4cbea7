#include "engines/remote/hash_ring.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

namespace nunchi::remote {
namespace {

std::vector<std::string> Names(int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("http://127.0.0.1:" + std::to_string(8080 + i) + "/v1");
  return names;
}

std::string Key(int i) { return "spot-" + std::to_string(i % 60) + "\x1fpost-" + std::to_string(i); }

TEST(HashRingTest, WalkVisitsEveryMemberOnceAndIsStable) {
  HashRing ring(Names(4));
  for (int i = 0; i < 100; ++i) {
    auto order = ring.Walk(RingHash(Key(i)));
    ASSERT_EQ(order.size(), 4u);
    EXPECT_EQ(std::set<size_t>(order.begin(), order.end()).size(), 4u);
    EXPECT_EQ(order, HashRing(Names(4)).Walk(RingHash(Key(i))));  // same key, same walk
  }
  EXPECT_TRUE(HashRing({}).Walk(1).empty());
}

TEST(HashRingTest, KeysSpreadOverMembers) {
  HashRing ring(Names(4));
  std::map<size_t, int> homes;
  const int keys = 8000;
  for (int i = 0; i < keys; ++i) ++homes[ring.Walk(RingHash(Key(i)))[0]];
  ASSERT_EQ(homes.size(), 4u);
  for (auto [member, n] : homes) {
    EXPECT_GT(n, keys / 4 * 0.75) << "member " << member;
    EXPECT_LT(n, keys / 4 * 1.25) << "member " << member;
  }
}

TEST(HashRingTest, AnUnreadyMembersKeysMoveAloneAndReturn) {
  HashRing ring(Names(3));
  const std::vector<int> no_load(3, 0);
  const std::vector<bool> all(3, true), none(3, false);
  std::vector<bool> one_down = {true, false, true};
  int moved = 0;
  for (int i = 0; i < 3000; ++i) {
    auto order = ring.Walk(RingHash(Key(i)));
    size_t home = PickBounded(order, no_load, all, none, 0.25);
    ASSERT_EQ(home, order[0]);
    size_t while_down = PickBounded(order, no_load, one_down, none, 0.25);
    if (home == 1) {
      EXPECT_NE(while_down, 1u);
      EXPECT_EQ(while_down, order[1]);  // the next one on the ring
      ++moved;
    } else {
      EXPECT_EQ(while_down, home);  // keys of the others stay put
    }
    EXPECT_EQ(PickBounded(order, no_load, all, none, 0.25), home);  // back once it is ready
  }
  EXPECT_GT(moved, 500);
  EXPECT_EQ(PickBounded({0, 1, 2}, no_load, {false, false, false}, none, 0.25), kNoMember);
}

TEST(HashRingTest, AFullMemberSpillsToTheNextOnTheRing) {
  const std::vector<size_t> order = {2, 0, 1};
  const std::vector<bool> all(3, true), none(3, false);
  // 3 in flight, all on member 2: bound ceil(1.25 * 4 / 3) = 2, so 2 is full.
  EXPECT_EQ(PickBounded(order, {0, 0, 3}, all, none, 0.25), 0u);
  // Member 0 full too: the next, 1.
  EXPECT_EQ(PickBounded(order, {3, 0, 3}, all, none, 0.25), 1u);
  // Under the bound it stays home: 1 in flight, bound ceil(1.25 * 2 / 3) = 1.
  EXPECT_EQ(PickBounded(order, {0, 0, 0}, all, none, 0.25), 2u);
  EXPECT_EQ(PickBounded(order, {1, 0, 0}, all, none, 0.25), 2u);
  // A larger epsilon tolerates more before spilling: bound ceil(3 * 4 / 3) = 4.
  EXPECT_EQ(PickBounded(order, {0, 0, 3}, all, none, 2.0), 2u);
  // Tried members are skipped (failover).
  EXPECT_EQ(PickBounded(order, {0, 0, 0}, all, {false, false, true}, 0.25), 0u);
}

TEST(HashRingTest, BoundedLoadsStayUnderTheBound) {
  // Many calls of one hot key, none finishing: no member goes past the bound.
  HashRing ring(Names(4));
  auto order = ring.Walk(RingHash("hot"));
  std::vector<int> load(4, 0);
  const std::vector<bool> all(4, true), none(4, false);
  for (int call = 1; call <= 40; ++call) {
    size_t m = PickBounded(order, load, all, none, 0.25);
    ASSERT_NE(m, kNoMember);
    ++load[m];
    for (int l : load) EXPECT_LE(l, static_cast<int>(std::ceil(1.25 * call / 4)));
  }
  EXPECT_EQ(load[order[0]], 13);  // the home takes its bounded share, ceil(1.25 * 40 / 4)
}

}  // namespace
}  // namespace nunchi::remote
