#include "llm/fake_text_engine.h"

#include <algorithm>
#include <cstdio>

namespace nunchi::llm {

FakeScript AnswerAlways(std::string text) {
  return [text = std::move(text)](const EngineRequest&) {
    EngineResult r;
    r.text = text;
    r.stop = StopReason::kGrammarDone;
    return FakeAnswer{r};
  };
}

FakeTextEngine::FakeTextEngine(FakeScript script, std::string identity)
    : identity_(std::move(identity)), script_(std::move(script)) {
  thread_ = std::thread([this] { Loop(); });
}

FakeTextEngine::~FakeTextEngine() { Stop(); }

void FakeTextEngine::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::future<Result<EngineResult>> FakeTextEngine::Submit(EngineRequest request,
                                                         LateResultFn on_late) {
  std::vector<EngineRequest> one;
  one.push_back(std::move(request));
  return std::move(SubmitAll(std::move(one), std::move(on_late)).front());
}

std::vector<std::future<Result<EngineResult>>> FakeTextEngine::SubmitAll(
    std::vector<EngineRequest> requests, LateResultFn on_late) {
  std::vector<std::future<Result<EngineResult>>> futures;
  {
    std::lock_guard lock(mu_);
    for (auto& request : requests) {
      auto job = std::make_unique<Job>();
      job->request = std::move(request);
      job->on_late = on_late;
      futures.push_back(job->promise.get_future());
      if (stopping_ || failed_) {
        ++counters_.fallbacks;
        job->promise.set_value(
            Status(ErrorCode::kUnavailable, failed_ ? "engine failed" : "engine stopped"));
        continue;
      }
      ++counters_.requests;
      // Highest priority first, then earliest deadline; FIFO among equals.
      auto before = std::find_if(queue_.begin(), queue_.end(), [&](const auto& q) {
        if (q->request.priority != job->request.priority)
          return q->request.priority < job->request.priority;
        return q->request.deadline > job->request.deadline;
      });
      queue_.insert(before, std::move(job));
    }
  }
  cv_.notify_all();
  return futures;
}

Status FakeTextEngine::WarmPrefix(const std::string& text) {
  std::lock_guard lock(mu_);
  if (failed_) return Status(ErrorCode::kUnavailable, "engine failed");
  warmed_.push_back(text);
  return warm_status_;
}

Result<std::string> FakeTextEngine::ApplyChatTemplate(
    const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const {
  std::string out;
  for (const auto& [role, content] : msgs)
    out += "<|im_start|>" + role + "\n" + content + "<|im_end|>\n";
  if (add_assistant) out += "<|im_start|>assistant\n";
  return out;
}

std::vector<int32_t> FakeTextEngine::Tokenize(const std::string& text) const {
  return std::vector<int32_t>(text.begin(), text.end());
}

EngineCounters FakeTextEngine::Counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

bool FakeTextEngine::Ready() const {
  std::lock_guard lock(mu_);
  return !failed_ && !stopping_;
}

bool FakeTextEngine::Failed() const {
  std::lock_guard lock(mu_);
  return failed_;
}

void FakeTextEngine::set_script(FakeScript script) {
  std::lock_guard lock(mu_);
  script_ = std::move(script);
}

void FakeTextEngine::set_fault_hook(FakeFaultHook hook) {
  std::lock_guard lock(mu_);
  fault_hook_ = std::move(hook);
}

void FakeTextEngine::set_warm_status(Status status) {
  std::lock_guard lock(mu_);
  warm_status_ = std::move(status);
}

std::vector<EngineRequest> FakeTextEngine::requests() const {
  std::lock_guard lock(mu_);
  return seen_;
}

std::vector<std::string> FakeTextEngine::warmed() const {
  std::lock_guard lock(mu_);
  return warmed_;
}

void FakeTextEngine::WaitIdle() const {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void FakeTextEngine::Loop() {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) break;
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    Answer(*job);
    {
      std::lock_guard lock(mu_);
      busy_ = false;
    }
    cv_.notify_all();
  }
  std::deque<std::unique_ptr<Job>> rest;
  {
    std::lock_guard lock(mu_);
    rest.swap(queue_);
  }
  for (auto& job : rest) job->promise.set_value(Status(ErrorCode::kUnavailable, "engine stopped"));
}

Result<EngineResult> FakeTextEngine::Attempts(const EngineRequest& request) {
  FakeScript script;
  FakeFaultHook hook;
  {
    std::lock_guard lock(mu_);
    seen_.push_back(request);
    script = script_;
    hook = fault_hook_;
  }
  if (hook) hook(request);
  FakeAnswer answer = script ? script(request) : FakeAnswer{};
  if (answer.delay.count() > 0) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, answer.delay, [&] { return stopping_; });
    if (stopping_) return Status(ErrorCode::kUnavailable, "engine stopped");
  }
  std::lock_guard lock(mu_);
  if (answer.loops >= 1) {
    ++counters_.loops_stopped;
    const bool retried = request.retry_on_loop;
    if (retried) ++counters_.retries;
    if (retried && answer.loops >= 2) ++counters_.loops_stopped;  // the retry looped too
    if (!retried || answer.loops >= 2) {
      ++counters_.degenerations;
      return Status(ErrorCode::kDegenerated, "generation looped (fake)");
    }
    if (answer.result.ok()) answer.result->attempts = 2;
  }
  if (answer.result.ok()) {
    counters_.generated += answer.result->text.size();
    answer.result->prompt_tokens = static_cast<int>(
        request.prompt_tokens.empty() ? request.prompt.size() : request.prompt_tokens.size());
    answer.result->computed_tokens = answer.result->prompt_tokens;
    answer.result->generated_tokens = static_cast<int>(answer.result->text.size());
  }
  ++counters_.decode_calls;
  return answer.result;
}

void FakeTextEngine::Answer(Job& job) {
  const auto deadline = job.request.deadline;
  auto note_fault = [&](const char* what, bool fatal) {
    std::fprintf(stderr, "nunchi: fake engine: %s on %s: %s\n", fatal ? "fatal fault" : "fault",
                 job.request.id.c_str(), what);
    std::lock_guard lock(mu_);
    ++counters_.faults;
    if (fatal) failed_ = true;
  };
  Result<EngineResult> result = Status(ErrorCode::kInternal, "engine fault");
  bool answered = false;
  if (EngineClock::now() > deadline && !job.on_late) {
    result = Status(ErrorCode::kDeadlineExceeded, "engine: deadline passed in queue");
  } else {
    try {
      result = Attempts(job.request);
      answered = true;
    } catch (const FatalEngineFault& e) {
      note_fault(e.what(), true);
      result = Status(ErrorCode::kInternal, std::string("engine failed: ") + e.what());
    } catch (const std::exception& e) {
      note_fault(e.what(), false);
      result = Status(ErrorCode::kInternal, std::string("engine fault: ") + e.what());
    } catch (...) {
      note_fault("unknown exception", false);
      result = Status(ErrorCode::kInternal, "engine fault: unknown exception");
    }
  }
  const bool late = EngineClock::now() > deadline;
  if (answered && late && !job.on_late) {
    result = Status(ErrorCode::kDeadlineExceeded, "engine: deadline passed");
  }
  {
    std::lock_guard lock(mu_);
    if (!answered) ++counters_.faulted_requests;
    if (late) ++counters_.deadline_exceeded;
    if (!result.ok()) ++counters_.fallbacks;
    if (!answered && failed_) {
      // Nothing survives a fatal fault: what is queued answers now.
      for (auto& q : queue_) q->promise.set_value(Status(ErrorCode::kUnavailable, "engine failed"));
      queue_.clear();
    }
  }
  if (answered && late && job.on_late) {
    try {
      job.on_late(result);
    } catch (const std::exception& e) {
      note_fault(e.what(), false);
    } catch (...) {
      note_fault("unknown exception in on_late", false);
    }
  }
  job.promise.set_value(std::move(result));
}

}  // namespace nunchi::llm
