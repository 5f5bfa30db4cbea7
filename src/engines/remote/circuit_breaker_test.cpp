#include "engines/remote/circuit_breaker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace nunchi::remote {
namespace {

using std::chrono::seconds;
using State = CircuitBreaker::State;

TEST(CircuitBreakerTest, OpensHalfOpensAndCloses) {
  Clock::time_point now{};
  CircuitBreaker b({3, seconds(10), 1}, [&] { return now; });
  EXPECT_EQ(b.state(), State::kClosed);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(b.Allow());
    b.RecordFailure();
  }
  ASSERT_TRUE(b.Allow());
  b.RecordSuccess();  // a success resets the count
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(b.Allow());
    b.RecordFailure();
  }
  EXPECT_EQ(b.state(), State::kOpen);
  EXPECT_FALSE(b.Allow());
  EXPECT_FALSE(b.WouldAllow());
  EXPECT_EQ(b.times_opened(), 1u);

  now += seconds(10);
  EXPECT_EQ(b.state(), State::kHalfOpen);
  EXPECT_TRUE(b.WouldAllow());
  ASSERT_TRUE(b.Allow());   // the probe
  EXPECT_FALSE(b.Allow());  // only one at a time
  b.RecordFailure();        // probe failed: open again for a full period
  EXPECT_EQ(b.state(), State::kOpen);
  now += seconds(9);
  EXPECT_FALSE(b.Allow());
  now += seconds(1);
  ASSERT_TRUE(b.Allow());
  b.RecordNeutral();  // no verdict: the probe slot is free again
  ASSERT_TRUE(b.Allow());
  b.RecordSuccess();
  EXPECT_EQ(b.state(), State::kClosed);
  EXPECT_TRUE(b.Allow());
}

TEST(ConcurrencyLimiterTest, BoundsHoldersAndTimesOut) {
  ConcurrencyLimiter limiter(2);
  ASSERT_TRUE(limiter.Acquire(Deadline::max()));
  ASSERT_TRUE(limiter.Acquire(Clock::now()));
  auto start = Clock::now();
  EXPECT_FALSE(limiter.Acquire(Clock::now() + std::chrono::milliseconds(50)));
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(45));
  limiter.Release();
  {
    ConcurrencyLimiter::Slot slot(limiter, Clock::now() + std::chrono::milliseconds(50));
    EXPECT_TRUE(slot.acquired());
    EXPECT_EQ(limiter.in_flight(), 2);
  }
  EXPECT_EQ(limiter.in_flight(), 1);

  std::atomic<int> inside{0}, peak{0};
  std::vector<std::thread> threads;
  ConcurrencyLimiter two(2);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      ConcurrencyLimiter::Slot slot(two, Deadline::max());
      int now = ++inside;
      int p = peak.load();
      while (now > p && !peak.compare_exchange_weak(p, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      --inside;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(peak.load(), 2);
}

}  // namespace
}  // namespace nunchi::remote
