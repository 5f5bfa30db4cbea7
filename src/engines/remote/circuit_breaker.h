// A circuit breaker and a concurrency limit for one backend.
//
// CircuitBreaker: closed -> open after failure_threshold consecutive
// failures; open -> half-open once open_for has passed, letting at most
// half_open_probes calls through; a probe's success closes it, its failure
// opens it again for another open_for. Every Allow() that returns true must
// be followed by exactly one Record*(). The clock is injectable for tests.
//
// ConcurrencyLimiter: at most `limit` holders; Acquire waits until a slot is
// free or the deadline passes. Use Slot for RAII release.
//
// Thread-safety: both are fully thread-safe (one mutex each).
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>

#include "judges/judge.h"

namespace nunchi::remote {

class CircuitBreaker {
 public:
  enum class State { kClosed, kOpen, kHalfOpen };
  struct Options {
    int failure_threshold = 5;
    Clock::duration open_for = std::chrono::seconds(10);
    int half_open_probes = 1;
  };
  using NowFn = std::function<Clock::time_point()>;

  explicit CircuitBreaker(
      Options options, NowFn now = [] { return Clock::now(); });

  // May this call go to the backend? (Takes a probe slot when half-open.)
  bool Allow();
  void RecordSuccess();
  void RecordFailure();
  // The call ended without a verdict on the backend's health (a 4xx, a 429,
  // our own deadline): frees a probe slot and changes nothing else.
  void RecordNeutral();

  State state() const;
  // Whether Allow() would let a call through now (without taking a slot).
  bool WouldAllow() const;
  int consecutive_failures() const;
  uint64_t times_opened() const;

 private:
  State StateLocked(Clock::time_point now) const;

  const Options options_;
  const NowFn now_;
  mutable std::mutex mu_;
  int failures_ = 0;   // consecutive, while closed
  bool open_ = false;  // open or half-open
  Clock::time_point opened_at_;
  int probes_in_flight_ = 0;
  uint64_t times_opened_ = 0;
};

class ConcurrencyLimiter {
 public:
  explicit ConcurrencyLimiter(int limit) : limit_(limit < 1 ? 1 : limit) {}

  bool Acquire(Deadline deadline);
  void Release();
  int in_flight() const;
  int limit() const { return limit_; }

  // Holds one slot until destroyed (when acquired()).
  class Slot {
   public:
    Slot(ConcurrencyLimiter& limiter, Deadline deadline)
        : limiter_(limiter), held_(limiter.Acquire(deadline)) {}
    ~Slot() {
      if (held_) limiter_.Release();
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    bool acquired() const { return held_; }

   private:
    ConcurrencyLimiter& limiter_;
    bool held_;
  };

 private:
  const int limit_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
};

}  // namespace nunchi::remote
