#include "engines/remote/circuit_breaker.h"

namespace nunchi::remote {

CircuitBreaker::CircuitBreaker(Options options, NowFn now)
    : options_(options), now_(std::move(now)) {}

CircuitBreaker::State CircuitBreaker::StateLocked(Clock::time_point now) const {
  if (!open_) return State::kClosed;
  return now - opened_at_ >= options_.open_for ? State::kHalfOpen : State::kOpen;
}

bool CircuitBreaker::Allow() {
  std::lock_guard<std::mutex> lock(mu_);
  switch (StateLocked(now_())) {
    case State::kClosed:
      return true;
    case State::kOpen:
      return false;
    case State::kHalfOpen:
      if (probes_in_flight_ >= options_.half_open_probes) return false;
      ++probes_in_flight_;
      return true;
  }
  return false;
}

bool CircuitBreaker::WouldAllow() const {
  std::lock_guard<std::mutex> lock(mu_);
  switch (StateLocked(now_())) {
    case State::kClosed:
      return true;
    case State::kOpen:
      return false;
    case State::kHalfOpen:
      return probes_in_flight_ < options_.half_open_probes;
  }
  return false;
}

void CircuitBreaker::RecordSuccess() {
  std::lock_guard<std::mutex> lock(mu_);
  failures_ = 0;
  open_ = false;
  probes_in_flight_ = 0;
}

void CircuitBreaker::RecordFailure() {
  std::lock_guard<std::mutex> lock(mu_);
  if (open_) {
    // A failed probe (or a straggler that started before the breaker opened)
    // re-opens it for another full period.
    if (probes_in_flight_ > 0) --probes_in_flight_;
    opened_at_ = now_();
    return;
  }
  if (++failures_ >= options_.failure_threshold) {
    open_ = true;
    opened_at_ = now_();
    probes_in_flight_ = 0;
    ++times_opened_;
  }
}

void CircuitBreaker::RecordNeutral() {
  std::lock_guard<std::mutex> lock(mu_);
  if (open_ && probes_in_flight_ > 0) --probes_in_flight_;
}

CircuitBreaker::State CircuitBreaker::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return StateLocked(now_());
}

int CircuitBreaker::consecutive_failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failures_;
}

uint64_t CircuitBreaker::times_opened() const {
  std::lock_guard<std::mutex> lock(mu_);
  return times_opened_;
}

bool ConcurrencyLimiter::Acquire(Deadline deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  auto free = [&] { return in_flight_ < limit_; };
  if (deadline == Deadline::max()) {
    cv_.wait(lock, free);
  } else if (!cv_.wait_until(lock, deadline, free)) {
    return false;
  }
  ++in_flight_;
  return true;
}

void ConcurrencyLimiter::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
  cv_.notify_one();
}

int ConcurrencyLimiter::in_flight() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_flight_;
}

}  // namespace nunchi::remote
