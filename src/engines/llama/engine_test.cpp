// Model tests of LlamaEngine on the tiny random-weight model (label: model).
#include "engines/llama/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <stdexcept>
#include <thread>

#include "engines/llama/test_model.h"
#include "llm/schema.h"

namespace nunchi::llama {
namespace {

using namespace std::chrono_literals;
using testing::TinyEngineOptions;

const char* kSystem =
    "You judge Korean posts about crowding. Answer one JSON object, ids in order, no spaces.";

std::string Line(int i) {
  static const char* texts[] = {"사람 많아요",  "줄이 길어요", "한산해요",    "입장 마감이래요",
                                "비 와서 조용", "대기 30분",   "주차장 널널", "팝업 오픈런"};
  return "#" + std::to_string(i + 1) + " u" + std::to_string(i) + " 14:0" + std::to_string(i % 10) +
         ": " + texts[i % 8] + " " + std::to_string(i * 7) + "\n";
}

std::string Thread(int n) {
  std::string t = "Spot: 강남역 11번 출구\n";
  for (int i = 0; i < n; ++i) t += Line(i);
  return t;
}

std::string ChatPrompt(const LlamaEngine& e, const std::string& user) {
  return *e.ApplyChatTemplate({{"system", kSystem}, {"user", user}}, true);
}

size_t CommonPrefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  return k;
}

std::unique_ptr<LlamaEngine> MakeEngine(EngineOptions o = TinyEngineOptions()) {
  auto e = LlamaEngine::Create(o);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  return std::move(e.value());
}

TEST(LlamaEngine, UnconstrainedLoopIsCaughtByTheGuard) {
  auto engine = MakeEngine();
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, "아무 말이나 길게 해 주세요");
  req.max_tokens = 400;
  req.retry_on_loop = false;
  auto r = engine->Run(req);
  ASSERT_FALSE(r.ok()) << "no loop within 400 tokens: " << r->text;
  EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated) << r.status().ToString();
  const auto c = engine->Counters();
  EXPECT_EQ(c.loops_stopped, 1u);
  EXPECT_EQ(c.degenerations, 1u);
  EXPECT_LT(c.generated, 100u);  // cut as soon as the tail repeats, far before the cap

  // With a retry the second attempt samples differently; it either ends or is
  // cut again, and both attempts are counted.
  req.retry_on_loop = true;
  auto r2 = engine->Run(req);
  const auto c2 = engine->Counters();
  EXPECT_EQ(c2.retries, 1u);
  EXPECT_GE(c2.loops_stopped, 2u);
  if (!r2.ok()) {
    EXPECT_EQ(r2.status().code(), ErrorCode::kDegenerated);
  } else {
    EXPECT_EQ(r2->attempts, 2);
  }
}

// A loop next to a long healthy prefill: once its tail repeats twice it sits
// out the decodes (at most loop_hold.max_steps of them), then resumes and is
// cut by the guard. With holding off it never sits out.
TEST(LlamaEngine, SuspectedLoopSitsOutWhileHealthyWorkRuns) {
  for (const int max_steps : {20, 0}) {
    EngineOptions o = TinyEngineOptions();
    o.n_batch = 16;  // the healthy prompt takes ~200 decodes
    o.max_active = 2;
    o.loop_hold = {8, max_steps};
    auto engine = MakeEngine(o);
    EngineRequest loop;
    loop.prompt = ChatPrompt(*engine, "아무 말이나 길게 해 주세요");
    loop.max_tokens = 400;
    loop.retry_on_loop = false;
    loop.deadline = EngineClock::now() + 1h;  // earlier: it gets its token in every decode
    EngineRequest healthy;
    healthy.prompt = ChatPrompt(*engine, Thread(200) + "Judge: #1\n");
    healthy.max_tokens = 2;
    healthy.deadline = EngineClock::now() + 2h;
    ASSERT_GT(engine->CountTokens(healthy.prompt), 2800);
    std::vector<EngineRequest> both;
    both.push_back(loop);
    both.push_back(healthy);
    auto futures = engine->SubmitAll(std::move(both));
    const auto lr = futures[0].get();
    const auto hr = futures[1].get();
    ASSERT_TRUE(hr.ok()) << hr.status().ToString();
    ASSERT_FALSE(lr.ok()) << "no loop: " << lr->text;
    EXPECT_EQ(lr.status().code(), ErrorCode::kDegenerated);
    EXPECT_EQ(engine->Counters().loop_holds, static_cast<uint64_t>(max_steps)) << max_steps;
  }
}

// Answers that judge many items alike are not loops: the forced ids between
// the items break the repetition the guard looks for. (Fed sampled tokens
// only, the guard saw one token per IRRELEVANT item and cut such answers.)
TEST(LlamaEngine, ManyAlikeItemsAreNotALoop) {
  auto engine = MakeEngine();
  std::vector<std::string> ids;
  std::string judge = "Judge:";
  for (int i = 1; i <= 70; ++i) {
    ids.push_back("#" + std::to_string(i));
    judge += " #" + std::to_string(i);
  }
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, Thread(70) + judge + "\n");
  req.grammar = llm::JudgeGbnf(ids);
  req.max_tokens = static_cast<int>(llm::MaxAnswerBytes(ids));
  req.retry_on_loop = false;
  auto r = engine->Run(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stop, StopReason::kGrammarDone);
  EXPECT_EQ(engine->Counters().loops_stopped, 0u);
}

TEST(LlamaEngine, GrammarForcesStructureAndAnswersInShape) {
  auto engine = MakeEngine();
  const std::vector<std::string> ids = {"#2", "#5"};
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, Thread(6) + "Judge: #2 #5\n");
  req.grammar = llm::JudgeGbnf(ids);
  req.max_tokens = static_cast<int>(llm::MaxAnswerBytes(ids));
  auto r = engine->Run(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->stop, StopReason::kGrammarDone);
  EXPECT_EQ(r->text.rfind("{\"#2\":{\"r\":\"", 0), 0u) << r->text;
  EXPECT_NE(r->text.find(",\"#5\":{\"r\":\""), std::string::npos) << r->text;
  EXPECT_EQ(r->text.back(), '}');
  // Keys, ids and punctuation were fed without sampling.
  EXPECT_GT(r->forced_tokens, 4);
  EXPECT_EQ(engine->Counters().forced, static_cast<uint64_t>(r->forced_tokens));
}

TEST(LlamaEngine, GrownBundlePrefillsOnlyTheNewTokens) {
  auto engine = MakeEngine();
  ASSERT_TRUE(engine->WarmPrefix(*engine->ApplyChatTemplate({{"system", kSystem}}, false)).ok());
  EngineRequest a;
  a.prompt = ChatPrompt(*engine, Thread(10) + "Judge: #10\n");
  a.max_tokens = 4;
  a.retry_on_loop = false;
  auto ra = engine->Run(a);
  ASSERT_TRUE(ra.ok()) << ra.status().ToString();
  // The instructions were computed once, by WarmPrefix.
  const auto system_tokens =
      engine->Tokenize(*engine->ApplyChatTemplate({{"system", kSystem}}, false)).size();
  EXPECT_EQ(static_cast<size_t>(ra->reused_tokens), system_tokens);

  // The backend resends the bundle with one more comment.
  EngineRequest b = a;
  b.prompt = ChatPrompt(*engine, Thread(11) + "Judge: #11\n");
  const auto before = engine->Counters();
  auto rb = engine->Run(b);
  ASSERT_TRUE(rb.ok()) << rb.status().ToString();
  const auto after = engine->Counters();
  const auto ta = engine->Tokenize(a.prompt);
  const auto tb = engine->Tokenize(b.prompt);
  const size_t common = CommonPrefix(ta, tb);
  ASSERT_GT(common, system_tokens);
  EXPECT_EQ(static_cast<size_t>(rb->reused_tokens), common);
  EXPECT_EQ(static_cast<size_t>(rb->computed_tokens), tb.size() - common);
  EXPECT_EQ(after.prefill_computed - before.prefill_computed, tb.size() - common);
  EXPECT_EQ(after.prefill_reused - before.prefill_reused, common);
  EXPECT_LT(tb.size() - common, tb.size() / 4);  // only the new comment and the request
}

TEST(LlamaEngine, RestartRestoresTheSavedPrefixCache) {
  EngineOptions o = TinyEngineOptions();
  o.cache_dir = testing::ScratchDir("restart");
  EngineRequest req;
  int first_tokens = 0;
  {
    auto engine = MakeEngine(o);
    req.prompt = ChatPrompt(*engine, Thread(12) + "Judge: #3\n");
    req.max_tokens = 4;
    req.retry_on_loop = false;
    auto r = engine->Run(req);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    first_tokens = r->prompt_tokens;
    EXPECT_EQ(r->computed_tokens, first_tokens);
  }  // destruction saves the cache
  std::vector<std::filesystem::path> files;
  for (const auto& f : std::filesystem::recursive_directory_iterator(o.cache_dir)) {
    if (f.path().extension() == ".seq") files.push_back(f.path());
  }
  ASSERT_FALSE(files.empty());
  std::map<std::filesystem::path, uintmax_t> sizes;
  {
    auto engine = MakeEngine(o);
    EXPECT_GE(engine->Counters().cache_loaded, 1u);
    // Loaded: mark the files, so that a rewrite would show.
    for (const auto& f : files) {
      std::ofstream(f, std::ios::app) << 'M';
      sizes[f] = std::filesystem::file_size(f);
    }
    auto r = engine->Run(req);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    // Only the last prompt token is decoded again, for its logits.
    EXPECT_EQ(r->reused_tokens, first_tokens - 1);
    EXPECT_EQ(r->computed_tokens, 1);
    EXPECT_EQ(engine->Counters().prefill_computed, 1u);
  }
  // The second shutdown kept the files of the entries it had loaded: same
  // tokens, same state, nothing to write again.
  for (const auto& f : files) {
    ASSERT_TRUE(std::filesystem::exists(f)) << f;
    EXPECT_EQ(std::filesystem::file_size(f), sizes[f]) << f;
  }
}

TEST(LlamaEngine, RestartRejectsACacheOfAnotherModel) {
  EngineOptions o = TinyEngineOptions();
  o.cache_dir = testing::ScratchDir("foreign");
  {
    auto engine = MakeEngine(o);
    EngineRequest req;
    req.prompt = ChatPrompt(*engine, Thread(3));
    req.max_tokens = 2;
    req.retry_on_loop = false;
    ASSERT_TRUE(engine->Run(req).ok());
  }
  // Corrupt every saved file's name: its token hash no longer matches.
  for (const auto& d : std::filesystem::recursive_directory_iterator(o.cache_dir)) {
    if (d.path().extension() == ".seq") {
      std::filesystem::rename(d.path(), d.path().parent_path() / "0000000000000000.seq");
    }
  }
  auto engine = MakeEngine(o);
  EXPECT_EQ(engine->Counters().cache_loaded, 0u);
}

TEST(LlamaEngine, ImpossibleDeadlineAnswersInTimeAndLateWorkStillArrives) {
  auto engine = MakeEngine();
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, Thread(40) + "Judge: #40\n");
  req.grammar = llm::JudgeGbnf(std::vector<std::string>{"#40"});
  req.max_tokens = 200;
  req.deadline = EngineClock::now() + 5ms;
  const auto t0 = EngineClock::now();
  auto r = engine->Run(req);
  const auto waited = EngineClock::now() - t0;
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDeadlineExceeded);
  EXPECT_LT(waited, 100ms);

  // With a late-result callback the work goes on and its result arrives.
  std::promise<Result<EngineResult>> late;
  req.deadline = EngineClock::now() + 5ms;
  auto r2 = engine->Run(req, [&](const Result<EngineResult>& res) { late.set_value(res); });
  EXPECT_EQ(r2.status().code(), ErrorCode::kDeadlineExceeded);
  auto f = late.get_future();
  ASSERT_EQ(f.wait_for(60s), std::future_status::ready);
  const auto lr = f.get();
  ASSERT_TRUE(lr.ok()) << lr.status().ToString();
  EXPECT_EQ(lr->stop, StopReason::kGrammarDone);
  EXPECT_TRUE(engine->Ready());
}

TEST(LlamaEngine, ConcurrentClientsGetTheirOwnAnswers) {
  auto engine = MakeEngine();
  constexpr int kClients = 8;
  constexpr int kEach = 3;
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  std::vector<std::string> failures(kClients);
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int k = 0; k < kEach; ++k) {
        // Each client asks for its own ids: an answer routed to the wrong
        // caller could not match them.
        const std::vector<std::string> ids = {"#" + std::to_string(c + 1),
                                              "#" + std::to_string(c + 10 + k)};
        EngineRequest req;
        req.prompt = ChatPrompt(*engine, Thread(c + 12 + k) + "Judge: " + ids[0] + " " + ids[1]);
        req.grammar = llm::JudgeGbnf(ids);
        req.max_tokens = static_cast<int>(llm::MaxAnswerBytes(ids));
        req.id = std::to_string(c) + "." + std::to_string(k);
        auto r = engine->Run(req);
        const std::string head = "{\"" + ids[0] + "\":{\"r\":\"";
        const std::string mid = ",\"" + ids[1] + "\":{\"r\":\"";
        if (r.ok() && r->text.rfind(head, 0) == 0 && r->text.find(mid) != std::string::npos) {
          ++ok;
        } else {
          failures[c] += (r.ok() ? r->text : r.status().ToString()) + "\n";
        }
      }
    });
  }
  for (auto& t : clients) t.join();
  for (const auto& f : failures) EXPECT_TRUE(f.empty()) << f;
  EXPECT_EQ(ok.load(), kClients * kEach);
  const auto c = engine->Counters();
  // Continuous batching: far fewer decode calls than generated tokens.
  EXPECT_LT(c.decode_calls, c.generated);
}

// A 16-token batch (prompts take several steps) with the loop hold and guard off, for the
// tests that watch the order in which sequences are stepped.
EngineOptions SmallBatchOptions(int max_active) {
  EngineOptions o = TinyEngineOptions();
  o.n_batch = 16;
  o.max_active = max_active;
  o.loop_hold.max_steps = 0;
  o.guard.min_span = o.guard.short_min_span = 1u << 30;
  return o;
}

// Lockstep requests of one SubmitAll call start decoding together, once the
// last prompt is in (as llama-batched-bench does); without lockstep a short
// prompt decodes, and here finishes, while the long ones still prefill.
TEST(LlamaEngine, LockstepRequestsDecodeOnlyOnceEveryPromptOfTheirCallIsIn) {
  for (const bool lockstep : {true, false}) {
    auto engine = MakeEngine(SmallBatchOptions(3));  // the long prompts take several steps
    std::vector<EngineRequest> requests;
    for (int i = 0; i < 3; ++i) {
      EngineRequest req;
      for (int k = 0; k < (i == 0 ? 8 : 40); ++k) req.prompt_tokens.push_back(300 + 17 * i + k);
      req.max_tokens = 2;
      req.retry_on_loop = false;
      req.lockstep = lockstep;
      // The short prompt first in admission and in the batch budget.
      req.deadline = EngineClock::now() + (i == 0 ? 1h : 2h);
      requests.push_back(std::move(req));
    }
    auto futures = engine->SubmitAll(std::move(requests));
    std::vector<EngineResult> results;
    for (auto& f : futures) {
      auto r = f.get();
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      results.push_back(*r);
    }
    EngineClock::time_point last_prefill{};
    for (const auto& r : results) last_prefill = std::max(last_prefill, r.prefilled_at);
    EXPECT_EQ(results[0].generated_tokens, 2);
    if (lockstep) {
      for (const auto& r : results) EXPECT_GT(r.finished_at, last_prefill);
    } else {
      EXPECT_LT(results[0].finished_at, last_prefill);  // done before the others were in
    }
  }
}

// A request of a lower priority yields the batch to one of a higher priority
// that has work, even with the earlier deadline (which alone gets the batch
// budget first), and resumes once it is done.
TEST(LlamaEngine, ALowerPriorityRequestYieldsToAHigherOne) {
  for (const int low : {0, -1}) {
    auto engine = MakeEngine(SmallBatchOptions(2));  // each prompt takes several steps
    std::vector<EngineRequest> requests;
    for (int i = 0; i < 2; ++i) {
      EngineRequest req;
      for (int k = 0; k < 48; ++k) req.prompt_tokens.push_back(300 + 17 * i + k);
      req.max_tokens = 2;
      req.retry_on_loop = false;
      req.priority = i == 0 ? low : 0;
      req.deadline = EngineClock::now() + (i == 0 ? 1h : 2h);
      requests.push_back(std::move(req));
    }
    auto futures = engine->SubmitAll(std::move(requests));
    auto first = futures[0].get();
    auto second = futures[1].get();
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    EXPECT_EQ(first->generated_tokens, 2);
    if (low < 0) {
      EXPECT_LT(second->finished_at, first->prefilled_at) << "the higher priority went first";
    } else {
      EXPECT_LT(first->finished_at, second->prefilled_at) << "equal: the earlier deadline first";
    }
  }
}

// A request below the default priority (the cascade's deferred calls) puts
// at most background_chunk prompt tokens in one decode, so that a request of
// a higher priority arriving meanwhile waits for one short step; the default
// priority, or background_chunk 0, takes n_batch tokens a step.
TEST(LlamaEngine, ABackgroundPromptGoesInByChunks) {
  struct Case {
    int priority;
    int chunk;
    int min_steps, max_steps;
  };
  for (const Case c : {Case{-1, 8, 6 + 1, 6 + 3}, Case{0, 8, 1, 3}, Case{-1, 0, 1, 3}}) {
    EngineOptions o = TinyEngineOptions();
    o.n_batch = 64;
    o.max_active = 1;
    o.background_chunk = c.chunk;
    o.loop_hold.max_steps = 0;
    auto steps = std::make_shared<std::atomic<int>>(0);
    o.fault_hook = [steps](const EngineRequest&) { steps->fetch_add(1); };
    auto engine = MakeEngine(o);
    EngineRequest req;
    for (int k = 0; k < 48; ++k) req.prompt_tokens.push_back(300 + k);
    req.max_tokens = 2;
    req.retry_on_loop = false;
    req.priority = c.priority;
    auto result = engine->Submit(std::move(req)).get();
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->computed_tokens, 48);
    EXPECT_GE(steps->load(), c.min_steps) << "priority " << c.priority << ", chunk " << c.chunk;
    EXPECT_LE(steps->load(), c.max_steps) << "priority " << c.priority << ", chunk " << c.chunk;
  }
}

// A throw on the engine thread (the fault hook, before a step's decode)
// fails that step's requests with kInternal, is counted, and the engine goes
// on answering: the process does not end.
// With a KV stream per sequence a prompt gets n_ctx / max_active cells; with
// the unified buffer (serve --kv-unified) it may use all n_ctx of them.
TEST(LlamaEngine, AUnifiedBufferFitsAPromptLongerThanOneStream) {
  EngineRequest req;
  for (int k = 0; k < 400; ++k) req.prompt_tokens.push_back(100 + (k * 7919) % 900);
  req.max_tokens = 2;
  req.retry_on_loop = false;
  EngineOptions o = TinyEngineOptions();
  o.n_ctx = 1024;  // 4 streams of 256 cells
  auto streams = MakeEngine(o);
  auto r = streams->Run(req);
  ASSERT_FALSE(r.ok()) << "400 tokens do not fit a 256-cell stream";
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidArgument) << r.status().ToString();
  o.kv_unified = true;
  auto unified = MakeEngine(o);
  r = unified->Run(req);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GE(r->generated_tokens, 1);
}

TEST(LlamaEngine, AThrowInsideAStepFailsItsRequestsAndTheEngineGoesOn) {
  EngineOptions o = TinyEngineOptions();
  o.fault_hook = [](const EngineRequest& r) {
    if (r.id == "boom") throw std::runtime_error("injected fault");
  };
  auto engine = MakeEngine(o);
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, Thread(3) + "Judge: #2\n");
  req.grammar = llm::JudgeGbnf(std::vector<std::string>{"#2"});
  req.max_tokens = 64;
  req.id = "boom";
  auto failed = engine->Run(req);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kInternal);
  EXPECT_NE(failed.status().message().find("injected fault"), std::string::npos);
  EXPECT_TRUE(engine->Ready());
  req.id = "fine";
  auto ok = engine->Run(req);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->stop, StopReason::kGrammarDone);
  const auto c = engine->Counters();
  EXPECT_EQ(c.faults, 1u);
  EXPECT_EQ(c.faulted_requests, 1u);
}

TEST(LlamaEngine, AThrowingLateCallbackIsCountedAndTheRequestStillAnswers) {
  auto engine = MakeEngine();
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, Thread(30) + "Judge: #30\n");
  req.grammar = llm::JudgeGbnf(std::vector<std::string>{"#30"});
  req.max_tokens = 200;
  req.deadline = EngineClock::now() + 2ms;
  auto future = engine->Submit(
      req, [](const Result<EngineResult>&) { throw std::runtime_error("late callback"); });
  ASSERT_EQ(future.wait_for(60s), std::future_status::ready);
  EXPECT_TRUE(future.get().ok());  // finished late, its result delivered all the same
  EXPECT_EQ(engine->Counters().faults, 1u);
  EXPECT_TRUE(engine->Ready());
  req.deadline = EngineClock::time_point::max();
  EXPECT_TRUE(engine->Run(req).ok());
}

TEST(LlamaEngine, FaultsInARowMarkTheEngineFailedAndEverythingAnswers) {
  EngineOptions o = TinyEngineOptions();
  o.max_consecutive_faults = 2;
  o.fault_hook = [](const EngineRequest&) { throw std::runtime_error("always"); };
  auto engine = MakeEngine(o);
  EngineRequest req;
  req.prompt = ChatPrompt(*engine, "hello");
  req.max_tokens = 4;
  EXPECT_EQ(engine->Run(req).status().code(), ErrorCode::kInternal);
  EXPECT_TRUE(engine->Ready());
  EXPECT_EQ(engine->Run(req).status().code(), ErrorCode::kInternal);
  // Given up: not ready, and what comes later is refused, not left hanging.
  for (int i = 0; i < 100 && engine->Ready(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(engine->Ready());
  EXPECT_EQ(engine->Run(req).status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(engine->Counters().faults, 2u);
}

}  // namespace
}  // namespace nunchi::llama
