// Test doubles for the cascade's suites (cascade_test.cpp, the budget's in
// cascade_budget_test.cpp): a scripted cheap judge, a fake LLM, a sink for
// late answers, a task and options with small priors. Test code only; the
// fakes are safe to call from the cascade's threads.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "domain/labels.h"
#include "judges/cascade.h"

namespace nunchi::judges::cascade_fakes {

using namespace std::chrono_literals;

// Answers target t with confidence conf[t] (RELEVANT/LOW), judge "cheap".
class ScriptedCheap : public Judge {
 public:
  std::map<size_t, double> conf;
  std::string_view name() const override { return "cheap"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    JudgeOutput out;
    for (size_t t : task.targets) {
      Judgment j;
      j.relevance = Relevance::kRelevant;
      j.level = Level::kLow;
      j.relevance_confidence = conf.count(t) ? conf[t] : 0.99;
      j.level_confidence = 1.0;
      out.emplace_back(j);
    }
    return out;
  }
};

// Answers every target HIGH after `delay`, or fails them; records what it was asked.
class FakeLlm : public Judge {
 public:
  std::chrono::milliseconds delay{0};
  // Besides delay, this long per code point of the targets' texts (a prefill).
  std::chrono::microseconds per_char{0};
  bool gated = false;  // wait for Open() (at most 5 s) before answering
  bool fail = false;
  std::atomic<bool> finished{false};
  std::condition_variable gate_cv;
  bool gate_open = false;
  void Open() {
    std::lock_guard lock(mu);
    gate_open = true;
    gate_cv.notify_all();
  }
  bool ready = true;
  std::mutex mu;
  std::vector<std::vector<size_t>> asked;
  std::vector<int> priorities;  // JudgeTask::priority of each call
  std::string_view name() const override { return "llm"; }
  bool Ready() const override { return ready; }
  bool failed_for_good = false;
  bool Failed() const override { return failed_for_good; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override {
    {
      std::lock_guard lock(mu);
      asked.push_back(task.targets);
      priorities.push_back(task.priority);
      gate_cv.notify_all();  // WaitForCalls
    }
    size_t chars = 0;
    for (size_t t : task.targets)
      if (t < task.bundle.size()) chars += Utf8Length(task.bundle.at(t).text);
    std::this_thread::sleep_for(delay + per_char * chars);
    if (gated) {
      std::unique_lock lock(mu);
      gate_cv.wait_for(lock, 5s, [&] { return gate_open; });
    }
    finished = true;
    JudgeOutput out;
    for (size_t k = 0; k < task.targets.size(); ++k) {
      if (fail) {
        out.emplace_back(ErrorCode::kInvalidOutput, "scripted failure");
        continue;
      }
      Judgment j;
      j.relevance = Relevance::kRelevant;
      j.level = Level::kHigh;
      out.emplace_back(j);
    }
    return out;
  }
  size_t calls() {
    std::lock_guard lock(mu);
    return asked.size();
  }
  // The escalation runs on its own thread: a caller that returned at
  // max_wait may be back before the call has reached the LLM.
  bool WaitForCalls(size_t n) {
    std::unique_lock lock(mu);
    return gate_cv.wait_for(lock, 5s, [&] { return asked.size() >= n; });
  }
};

// Collects what a cascade hands JudgeTask::on_late, from any thread.
// Declare it before the cascade: the cascade's destructor may still deliver.
struct LateSink {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<size_t, Judgment>> got;
  void Attach(JudgeTask& task) {
    task.on_late = [this](size_t pos, const Judgment& j) {
      std::lock_guard lock(mu);
      got.emplace_back(pos, j);
      cv.notify_all();
    };
  }
  // What has arrived once there are n (or after 5 s).
  std::vector<std::pair<size_t, Judgment>> WaitFor(size_t n) {
    std::unique_lock lock(mu);
    cv.wait_for(lock, 5s, [&] { return got.size() >= n; });
    return got;
  }
};

inline JudgeTask Task(size_t n, std::chrono::milliseconds budget) {
  JudgeTask t;
  t.bundle.post.text = "post";
  for (size_t i = 1; i < n; ++i) t.bundle.comments.push_back(Signal{"c", "a", {}, "comment"});
  for (size_t i = 0; i < n; ++i) t.targets.push_back(i);
  t.deadline = Clock::now() + budget;
  return t;
}

inline CascadeOptions Options(double threshold) {
  CascadeOptions o;
  o.threshold = threshold;
  o.calibration_version = "cal-test";
  o.call_seconds = 0.01;
  o.target_seconds = 0.01;
  o.char_seconds = 0;  // targets only, unless a test plans for text
  o.late_grace = 5s;
  return o;
}

}  // namespace nunchi::judges::cascade_fakes
