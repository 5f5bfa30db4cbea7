// LlamaEngine: creation, the request queue, the engine thread's outer loop and
// the public API. The per-sequence state machine is in engine_slot.cpp.
#include "engines/llama/engine.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <exception>
#include <filesystem>

#include "engines/llama/engine_internal.h"
#include "engines/llama/runtime.h"

namespace nunchi::llama {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(EngineClock::now().time_since_epoch())
      .count();
}

// Heap order: the highest priority, then the earliest deadline, at the front.
bool LaterDeadline(const std::unique_ptr<LlamaEngine::Job>& a,
                   const std::unique_ptr<LlamaEngine::Job>& b) {
  if (a->request.priority != b->request.priority) return a->request.priority < b->request.priority;
  return a->request.deadline > b->request.deadline;
}

// Answers a job that never reached the engine thread.
void AnswerNow(LlamaEngine::Job& job, Status status) {
  job.done = true;
  job.promise.set_value(std::move(status));
}

std::string SafeName(std::string s) {
  for (char& c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) c = '_';
  }
  return s;
}

}  // namespace

LlamaEngine::LlamaEngine(const EngineOptions& options)
    : options_(options),
      st_(std::make_unique<State>()),
      counters_(std::make_unique<AtomicCounters>()) {}

Result<std::unique_ptr<LlamaEngine>> LlamaEngine::Create(const EngineOptions& options) {
  InitLlamaRuntime();
  if (options.max_active < 1 || options.n_batch < 1 || options.n_ctx < 16 ||
      options.background_chunk < 0) {
    return Status(ErrorCode::kInvalidArgument, "engine options out of range");
  }
  if (options.max_active > 256)
    return Status(ErrorCode::kInvalidArgument, "too many sequences (max 256)");
  auto identity = ModelIdentity(options.model_path);
  if (!identity.ok()) return identity.status();

  std::unique_ptr<LlamaEngine> e(new LlamaEngine(options));
  e->identity_ = *identity;
  State& st = *e->st_;
  llama_model_params mp = llama_model_default_params();
  st.model.reset(llama_model_load_from_file(options.model_path.c_str(), mp));
  if (!st.model) return Status(ErrorCode::kIo, "cannot load model " + options.model_path);

  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(options.n_ctx);
  cp.n_batch = static_cast<uint32_t>(options.n_batch);
  cp.n_ubatch = static_cast<uint32_t>(options.n_batch);
  cp.n_seq_max = static_cast<uint32_t>(options.max_active);
  const int threads = options.threads > 0
                          ? options.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  // By default one KV stream per active sequence: a token attends over its
  // own prompt only. The prefix cache lives in host memory (prefix_cache.h).
  cp.kv_unified = options.kv_unified;
  cp.flash_attn_type = options.flash_attn == FlashAttention::kOn ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                       : options.flash_attn == FlashAttention::kAuto
                           ? LLAMA_FLASH_ATTN_TYPE_AUTO
                           : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.no_perf = true;
  st.ctx.reset(llama_init_from_model(st.model.get(), cp));
  if (!st.ctx) return Status(ErrorCode::kInternal, "cannot create llama context");

  st.vocab = VocabInfo::Build(llama_model_get_vocab(st.model.get()));
  if (const char* t = llama_model_chat_template(st.model.get(), nullptr)) st.chat_template = t;
  e->n_ctx_seq_ = static_cast<int>(llama_n_ctx_seq(st.ctx.get()));
  st.pool = std::make_unique<SeqPool>(options.max_active);
  st.cache = std::make_unique<PrefixCache>(st.ctx.get(), options.cache_budget_bytes,
                                           static_cast<size_t>(std::max(0, options.max_cached)));
  st.batch = std::make_unique<Batch>(options.n_batch);
  if (!options.cache_dir.empty()) {
    st.cache_dir = (std::filesystem::path(options.cache_dir) / SafeName(e->identity_)).string();
    const size_t loaded = st.cache->Load(st.cache_dir);
    e->counters_->cache_loaded = loaded;
    e->counters_->cache_entries = st.cache->size();
  }
  e->last_progress_ns_ = NowNs();
  e->thread_ = std::thread([raw = e.get()] { raw->Loop(); });
  return e;
}

LlamaEngine::~LlamaEngine() { Stop(); }

void LlamaEngine::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mu_);
  stopped_ = true;
}

std::future<Result<EngineResult>> LlamaEngine::Submit(EngineRequest request, LateResultFn on_late) {
  std::vector<EngineRequest> one;
  one.push_back(std::move(request));
  return std::move(SubmitAll(std::move(one), std::move(on_late)).front());
}

std::vector<std::future<Result<EngineResult>>> LlamaEngine::SubmitAll(
    std::vector<EngineRequest> requests, LateResultFn on_late) {
  std::vector<std::future<Result<EngineResult>>> futures;
  std::vector<std::unique_ptr<Job>> jobs;
  const uint64_t group = next_group_.fetch_add(1, std::memory_order_relaxed);
  for (auto& request : requests) {
    auto job = std::make_unique<Job>();
    job->faulted = &counters_->faulted_requests;
    if (request.lockstep) job->group = group;
    job->prompt =
        request.prompt_tokens.empty()
            ? st_->vocab.Tokenize(request.prompt, /*parse_special=*/true)
            : std::vector<llama_token>(request.prompt_tokens.begin(), request.prompt_tokens.end());
    job->request = std::move(request);
    job->on_late = on_late;
    // The token cap is a bound, not a reservation: only the prompt must fit.
    futures.push_back(job->promise.get_future());
    if (job->prompt.empty()) {
      AnswerNow(*job, Status(ErrorCode::kInvalidArgument, "empty prompt"));
    } else if (static_cast<int>(job->prompt.size()) + 16 > n_ctx_seq_) {
      AnswerNow(*job, Status(ErrorCode::kInvalidArgument, "prompt too long for the context"));
    } else {
      jobs.push_back(std::move(job));
    }
  }
  {
    std::lock_guard lock(mu_);
    for (auto& job : jobs) {
      if (failed_) {
        Bump(counters_->fallbacks);
        AnswerNow(*job, Status(ErrorCode::kUnavailable, "engine failed"));
      } else if (stopping_) {
        AnswerNow(*job, Status(ErrorCode::kUnavailable, "engine stopped"));
      } else if (queue_.size() >= options_.queue_capacity) {
        Bump(counters_->fallbacks);
        AnswerNow(*job, Status(ErrorCode::kUnavailable, "engine queue full"));
      } else {
        Bump(counters_->requests);
        queue_.push_back(std::move(job));
        std::push_heap(queue_.begin(), queue_.end(), LaterDeadline);
      }
    }
  }
  cv_.notify_all();
  return futures;
}

Status LlamaEngine::WarmPrefix(const std::string& text) {
  auto job = std::make_unique<Job>();
  job->prompt = st_->vocab.Tokenize(text, /*parse_special=*/true);
  if (job->prompt.empty()) return Status(ErrorCode::kInvalidArgument, "empty prefix");
  job->faulted = &counters_->faulted_requests;
  job->pin_prefix = true;
  job->request.max_tokens = 0;
  job->request.id = "prefix";
  auto future = job->promise.get_future();
  {
    std::lock_guard lock(mu_);
    if (failed_ || stopping_) {
      job->done = true;
      return Status(ErrorCode::kUnavailable, failed_ ? "engine failed" : "engine stopped");
    }
    queue_.push_back(std::move(job));
    std::push_heap(queue_.begin(), queue_.end(), LaterDeadline);
  }
  cv_.notify_all();
  return future.get().status();
}

Result<std::string> LlamaEngine::ApplyChatTemplate(
    const std::vector<std::pair<std::string, std::string>>& msgs, bool add_assistant) const {
  const char* tmpl = st_->chat_template.empty() ? "chatml" : st_->chat_template.c_str();
  return llama::ApplyChatTemplate(tmpl, msgs, add_assistant);
}

std::vector<int32_t> LlamaEngine::Tokenize(const std::string& text) const {
  return st_->vocab.Tokenize(text, true);
}

EngineCounters LlamaEngine::Counters() const {
  const auto& c = *counters_;
  auto g = [](const std::atomic<uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  return {g(c.requests),
          g(c.prefill_computed),
          g(c.prefill_reused),
          g(c.generated),
          g(c.forced),
          g(c.loops_stopped),
          g(c.retries),
          g(c.loop_holds),
          g(c.degenerations),
          g(c.fallbacks),
          g(c.deadline_exceeded),
          g(c.decode_calls),
          g(c.grammar_full_passes),
          g(c.cache_entries),
          g(c.cache_loaded),
          g(c.decode_ns),
          g(c.sample_ns),
          g(c.faults),
          g(c.faulted_requests)};
}

bool LlamaEngine::Ready() const {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || failed_) return false;
  }
  if (!busy_.load()) return true;
  const int64_t idle_ns = NowNs() - last_progress_ns_.load();
  return idle_ns <
         std::chrono::duration_cast<std::chrono::nanoseconds>(options_.stall_timeout).count();
}

bool LlamaEngine::Failed() const {
  std::lock_guard lock(mu_);
  return failed_;
}

void LlamaEngine::Complete(Job& job, Result<EngineResult> result) {
  if (job.done) return;
  job.done = true;
  if (job.pin_prefix) {
    job.promise.set_value(std::move(result));
    return;
  }
  const bool late = EngineClock::now() > job.request.deadline;
  if (!result.ok()) Bump(counters_->fallbacks);
  if (late && result.ok()) Bump(counters_->deadline_exceeded);
  if (late && job.on_late) {
    // The caller's code on the engine thread: what it throws is its fault,
    // counted, and the request still gets its result.
    try {
      job.on_late(result);
    } catch (const std::exception& e) {
      Bump(counters_->faults);
      std::fprintf(stderr, "nunchi: llama engine: late-result callback of %s threw: %s\n",
                   job.request.id.c_str(), e.what());
    } catch (...) {
      Bump(counters_->faults);
      std::fprintf(stderr, "nunchi: llama engine: late-result callback of %s threw\n",
                   job.request.id.c_str());
    }
  }
  job.promise.set_value(std::move(result));
}

bool LlamaEngine::AdmitJobs() {
  std::vector<std::unique_ptr<Job>> admitted;
  {
    std::lock_guard lock(mu_);
    while (!queue_.empty() &&
           static_cast<int>(st_->slots.size() + admitted.size()) < options_.max_active) {
      std::pop_heap(queue_.begin(), queue_.end(), LaterDeadline);
      admitted.push_back(std::move(queue_.back()));
      queue_.pop_back();
    }
  }
  for (auto& job : admitted) StartSlot(std::move(job));
  return !admitted.empty();
}

void LlamaEngine::Loop() {
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (stopping_) break;
      if (queue_.empty() && st_->slots.empty()) {
        busy_ = false;
        cv_.wait_for(lock, std::chrono::milliseconds(200),
                     [&] { return stopping_ || !queue_.empty(); });
        last_progress_ns_ = NowNs();
        continue;
      }
      busy_ = true;
    }
    // Everything below runs the model and callers' callbacks: a throw fails
    // this step's requests, not the process.
    try {
      DropExpired();
      AdmitJobs();
      if (!st_->slots.empty()) Step();
    } catch (const std::exception& e) {
      OnFault(e.what());
    } catch (...) {
      OnFault("unknown exception");
    }
    {
      std::lock_guard lock(mu_);
      if (failed_) break;
    }
  }
  bool failed = false;
  {
    std::lock_guard lock(mu_);
    failed = failed_;
  }
  const Status gone(ErrorCode::kUnavailable, failed ? "engine failed" : "engine stopped");
  // Shutdown: answer everything, then persist the cache (not after a failure:
  // the state it would save is not to be trusted).
  try {
    for (auto& slot : st_->slots) {
      if (slot->job) Finish(*slot, gone);
    }
  } catch (...) {
    failed = true;
  }
  st_->slots.clear();  // unanswered jobs answer kInternal as they go (Job::~Job)
  std::vector<std::unique_ptr<Job>> rest;
  {
    std::lock_guard lock(mu_);
    rest.swap(queue_);
  }
  for (auto& job : rest) {
    try {
      Complete(*job, gone);
    } catch (...) {
    }
  }
  if (!failed && !st_->cache_dir.empty()) {
    try {
      st_->cache->Save(st_->cache_dir);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nunchi: llama engine: saving the prefix cache failed: %s\n", e.what());
    }
  }
}

void LlamaEngine::MarkFailed() {
  {
    std::lock_guard lock(mu_);
    failed_ = true;
  }
  std::fprintf(stderr,
               "nunchi: llama engine: failed for good; not ready, requests answer kUnavailable\n");
  cv_.notify_all();
}

void LlamaEngine::OnFault(const std::string& what) {
  Bump(counters_->faults);
  ++consecutive_faults_;
  bool fatal = consecutive_faults_ >= std::max(1, options_.max_consecutive_faults);
  std::fprintf(stderr, "nunchi: llama engine: fault on the engine thread (%d in a row): %s\n",
               consecutive_faults_, what.c_str());
  // The step's sequences are in an unknown state: clear them, keep nothing
  // of them in the prefix cache, and answer their requests.
  const Status failed(ErrorCode::kInternal, "engine fault: " + what);
  llama_memory_t mem = llama_get_memory(st_->ctx.get());
  for (auto& slot : st_->slots) {
    if (!slot->job) continue;
    try {
      if (slot->seq >= 0) {
        llama_memory_seq_rm(mem, slot->seq, -1, -1);
        st_->pool->Release(slot->seq);
        slot->seq = -1;
      }
      Bump(counters_->faulted_requests);
      Complete(*slot->job, failed);
    } catch (...) {
      fatal = true;  // cannot even clear up: give up
    }
    slot->job.reset();  // answers kInternal if Complete did not
  }
  st_->slots.clear();
  st_->batch->Clear();
  if (fatal) MarkFailed();
}

void LlamaEngine::DropExpired() {
  const auto now = EngineClock::now();
  const auto grace = options_.late_grace;
  auto expired = [&](const Job& j) {
    if (j.request.deadline == EngineClock::time_point::max() || now <= j.request.deadline) {
      return false;
    }
    return !j.on_late || now - j.request.deadline > grace;
  };
  for (auto& slot : st_->slots) {
    if (expired(*slot->job)) {
      Bump(counters_->deadline_exceeded);
      Finish(*slot, Status(ErrorCode::kDeadlineExceeded, "engine: deadline passed"));
    }
  }
  std::erase_if(st_->slots, [](const auto& s) { return s->job == nullptr; });
  std::vector<std::unique_ptr<Job>> dropped;
  {
    std::lock_guard lock(mu_);
    auto it =
        std::partition(queue_.begin(), queue_.end(), [&](const auto& j) { return !expired(*j); });
    for (auto d = it; d != queue_.end(); ++d) dropped.push_back(std::move(*d));
    queue_.erase(it, queue_.end());
    std::make_heap(queue_.begin(), queue_.end(), LaterDeadline);
  }
  for (auto& job : dropped) {
    Bump(counters_->deadline_exceeded);
    Complete(*job, Status(ErrorCode::kDeadlineExceeded, "engine: deadline passed in queue"));
  }
}

}  // namespace nunchi::llama
