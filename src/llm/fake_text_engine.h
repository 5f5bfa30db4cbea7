// FakeTextEngine: a TextEngine (text_engine.h) for tests, with no model. A
// script decides each request's answer (text, error, delay, whether it
// loops); one worker thread answers requests one at a time, highest priority
// then earliest deadline first, keeping the TextEngine contract the way the
// real engine does: deadlines drop work (or finish it late for on_late),
// loops are retried once and then answer kDegenerated, and anything thrown on
// the worker thread (by the fault hook, the script or an on_late callback) is
// caught, fails the request it was working on with kInternal, is counted in
// faults / faulted_requests, and the worker goes on. A FatalEngineFault
// thrown there is one it cannot survive: Ready() turns false for good and
// every request from then on answers kUnavailable.
//
// Tokens are bytes (one token per byte of the text); the chat template is
// ChatML. Thread-safety: every method may be called from any thread; the
// script and the fault hook run on the worker thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "llm/text_engine.h"

namespace nunchi::llm {

// Thrown on the engine thread for a failure the engine cannot survive.
struct FatalEngineFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct FakeAnswer {
  Result<EngineResult> result = EngineResult{};
  std::chrono::milliseconds delay{0};  // worker time the request takes
  int loops = 0;  // attempts that loop before result: 1 retried (when allowed), 2 degenerate
};

// Called on the worker thread for each request (attempt 1, or 2 after a loop).
using FakeScript = std::function<FakeAnswer(const EngineRequest& request)>;
// Called on the worker thread before each request is answered; may throw.
using FakeFaultHook = std::function<void(const EngineRequest& request)>;

// A script answering every request with the same text.
FakeScript AnswerAlways(std::string text);

class FakeTextEngine : public TextEngine {
 public:
  explicit FakeTextEngine(FakeScript script = AnswerAlways(""),
                          std::string identity = "fake-model@0000000000000000");
  ~FakeTextEngine() override;
  FakeTextEngine(const FakeTextEngine&) = delete;
  FakeTextEngine& operator=(const FakeTextEngine&) = delete;

  std::future<Result<EngineResult>> Submit(EngineRequest request,
                                           LateResultFn on_late = {}) override;
  std::vector<std::future<Result<EngineResult>>> SubmitAll(std::vector<EngineRequest> requests,
                                                           LateResultFn on_late = {}) override;
  Status WarmPrefix(const std::string& text) override;
  Result<std::string> ApplyChatTemplate(
      const std::vector<std::pair<std::string, std::string>>& msgs,
      bool add_assistant) const override;
  std::vector<int32_t> Tokenize(const std::string& text) const override;
  EngineCounters Counters() const override;
  bool Ready() const override;
  bool Failed() const override;
  const std::string& model_identity() const override { return identity_; }

  void set_script(FakeScript script);
  void set_fault_hook(FakeFaultHook hook);
  // WarmPrefix answers this from now on (Ok by default).
  void set_warm_status(Status status);
  // Requests in the order the worker took them up (attempts after a loop included).
  std::vector<EngineRequest> requests() const;
  std::vector<std::string> warmed() const;
  // Waits until the worker has nothing queued or in hand.
  void WaitIdle() const;
  void Stop();

 private:
  struct Job {
    EngineRequest request;
    LateResultFn on_late;
    std::promise<Result<EngineResult>> promise;
  };
  void Loop();
  void Answer(Job& job);
  Result<EngineResult> Attempts(const EngineRequest& request);

  std::string identity_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::deque<std::unique_ptr<Job>> queue_;
  FakeScript script_;
  FakeFaultHook fault_hook_;
  Status warm_status_ = Status::Ok();
  std::vector<EngineRequest> seen_;
  std::vector<std::string> warmed_;
  EngineCounters counters_;
  bool busy_ = false;
  bool failed_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace nunchi::llm
