// Against a real llama-server (CTest label "model"): structured answers,
// whitespace padding cut on the stream, and a cut stream really stopping
// generation on the server. Needs the llama-server binary installed by
// scripts/setup-llama.sh and a GGUF model in $NUNCHI_TEST_MODEL or one the
// test generates (see llama_server_process.h); skips cleanly when either is
// missing. Set NUNCHI_TEST_MODEL_RANDOM=1 for a random-weight model (it must
// pad). Any model will do, random weights included: the grammar makes the
// answer well-formed whatever the weights, which is what this test checks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

#include "engines/remote/llama_server_process.h"
#include "engines/remote/remote_judge.h"

#ifdef NUNCHI_CAN_MAKE_MODEL
#include "engines/llama/make_model.h"
#endif

namespace nunchi::remote {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

using nunchi::testing::EnvOr;
using nunchi::testing::LlamaServerProcess;

Signal MakeSignal(const std::string& id, const std::string& author, int minute,
                  const std::string& text) {
  std::string t = "2026-11-29T14:0" + std::to_string(minute) + ":00+09:00";
  return Signal{id, author, ParseTimestamp(t).value(), text};
}

RemoteOptions OptionsFor(const LlamaServerProcess& server, const std::string& model) {
  RemoteOptions o;
  o.name = "llama-server";
  o.kind = BackendKind::kLlamaServer;
  o.base_url = server.base_url();
  o.model = fs::path(model).filename().string();
  o.timeout = 120s;
  o.retries = 30;  // a busy machine may still answer 503 just after the load
  o.backoff_base = 500ms;
  o.backoff_max = 2s;
  o.breaker_failure_threshold = 1000;
  o.max_tokens_per_target = 96;
  return o;
}

JudgeTask MakeTask() {
  JudgeTask task;
  task.spot = {"s1", "성수 팝업거리", "팝업스토어 앞 보행로"};
  task.bundle.post_id = "p1";
  task.bundle.post = MakeSignal("p1", "u1", 2, "팝업 오픈런 줄이 골목 끝까지");
  for (int i = 0; i < 3; ++i) {
    task.bundle.comments.push_back(
        MakeSignal("c" + std::to_string(i), "u" + std::to_string(i + 2), 3 + i,
                   i == 1 ? "근처 주차장은 널널해요" : "끝이 안 보여요"));
  }
  task.targets = {1, 2, 3};
  task.analyzed_at = ParseTimestamp("2026-11-29T14:09:00+09:00")->ms;
  task.deadline = Clock::now() + 180s;
  return task;
}

class LlamaServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string bin = nunchi::testing::FindLlamaServer();
    if (bin.empty()) GTEST_SKIP() << "llama-server not found (run scripts/setup-llama.sh)";
    std::function<bool(const std::string&)> make;
#ifdef NUNCHI_CAN_MAKE_MODEL
    // No model given: generate the tiny random-weight one (Qwen2 vocabulary).
    make = [](const std::string& out) {
      llama::MakeModelOptions mo;
      mo.shape = "tiny";
      mo.out = out;
      mo.quiet = true;
      Status s = llama::MakeModel(mo);
      if (!s.ok()) std::fprintf(stderr, "make-model: %s\n", s.ToString().c_str());
      return s.ok();
    };
#endif
    bool generated = false;
    model_ = nunchi::testing::TestModel(make, &generated);
    if (model_.empty()) GTEST_SKIP() << "set NUNCHI_TEST_MODEL to a GGUF file";
    if (generated) setenv("NUNCHI_TEST_MODEL_RANDOM", "1", 1);
    server_ = std::make_unique<LlamaServerProcess>(bin, model_);
    ASSERT_TRUE(server_->WaitReady()) << "llama-server did not start:\n" << server_->log();
  }
  std::string model_;
  std::unique_ptr<LlamaServerProcess> server_;
};

TEST_F(LlamaServerTest, GrammarAnswersAreWellFormed) {
  auto judge = RemoteJudge::Create(OptionsFor(*server_, model_));
  ASSERT_TRUE(judge.ok()) << judge.status().ToString();
  auto out = (*judge)->JudgeBundle(MakeTask());
  ASSERT_EQ(out.size(), 3u);
  for (const auto& r : out) {
    // Well-formed by construction; a random model may still loop inside a
    // cause text and be cut, which is a legitimate kDegenerated.
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated) << r.status().ToString();
    }
  }
  EXPECT_EQ((*judge)->output_counters().Total(), 0u);
}

// json_schema mode lets the server's JSON grammar allow whitespace, which a
// random model pads until the cap: the guard must cut it on the stream, and
// every target must end with a typed result well before the deadline.
TEST_F(LlamaServerTest, WhitespacePaddingIsCutOnTheStream) {
  RemoteOptions o = OptionsFor(*server_, model_);
  o.llama_server_gbnf = false;
  o.max_tokens_per_target = 48;
  auto judge = RemoteJudge::Create(o);
  ASSERT_TRUE(judge.ok());
  auto out = (*judge)->JudgeBundle(MakeTask());
  ASSERT_EQ(out.size(), 3u);
  for (const auto& r : out) {
    if (!r.ok()) {
      ErrorCode c = r.status().code();
      EXPECT_TRUE(c == ErrorCode::kDegenerated || c == ErrorCode::kInvalidOutput)
          << r.status().ToString();
    }
  }
  const auto& s = (*judge)->stats();
  // A random-weight model pads (say so with NUNCHI_TEST_MODEL_RANDOM=1); a
  // trained one may answer cleanly, so then this only reports.
  if (EnvOr("NUNCHI_TEST_MODEL_RANDOM") == "1") {
    EXPECT_GE(s.degenerations.load() + s.cap_degenerations.load(), 1u);
  }
  std::printf("attempts=%lu degenerations=%lu length_stops=%lu cap_degenerations=%lu\n",
              static_cast<unsigned long>(s.attempts.load()),
              static_cast<unsigned long>(s.degenerations.load()),
              static_cast<unsigned long>(s.length_stops.load()),
              static_cast<unsigned long>(s.cap_degenerations.load()));
}

// A stream the guard cuts stops generating on the server too: the client
// closes the connection, llama-server sees it and releases the slot. Checked
// on llama-server itself: soon after the call returns no slot is processing,
// llama_decode() calls stop, and the tokens generated are far below the cap.
// A client that kept the connection open would leave the slot generating
// towards the cap (thousands of tokens: minutes on this model and machine).
TEST_F(LlamaServerTest, AStreamCutByTheGuardStopsGeneratingOnTheServer) {
  if (EnvOr("NUNCHI_TEST_MODEL_RANDOM") != "1") {
    GTEST_SKIP() << "needs a random-weight model, which pads (NUNCHI_TEST_MODEL_RANDOM=1)";
  }
  RemoteOptions o = OptionsFor(*server_, model_);
  o.llama_server_gbnf = false;     // json_schema: free whitespace, which it pads with
  o.retries = 0;                   // one stream, no retry after the cut
  o.max_tokens_per_target = 1000;  // 3 targets: a cap of 3016 tokens
  const int cap = o.max_tokens_base + 3 * o.max_tokens_per_target;
  auto judge = RemoteJudge::Create(o);
  ASSERT_TRUE(judge.ok()) << judge.status().ToString();
  ASSERT_EQ(server_->Metric("llamacpp:tokens_predicted_total"), 0);

  auto out = (*judge)->JudgeBundle(MakeTask());
  const auto returned = std::chrono::steady_clock::now();
  ASSERT_EQ(out.size(), 3u);
  const auto& s = (*judge)->stats();
  ASSERT_EQ(s.degenerations.load(), 1u)
      << "the guard did not cut the stream: " << (out[0].ok() ? "ok" : out[0].status().ToString());
  for (const auto& r : out) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated) << r.status().ToString();
  }

  // The slot is released promptly (the server checks the connection between tokens).
  std::optional<bool> processing;
  while (std::chrono::steady_clock::now() - returned < 2s) {
    processing = server_->AnySlotProcessing();
    if (processing == false) break;
    std::this_thread::sleep_for(20ms);
  }
  const auto idle_after = std::chrono::steady_clock::now() - returned;
  ASSERT_EQ(processing, false) << "llama-server still generates 2 s after the cut: "
                               << server_->Slots().dump();

  // Nothing decodes any more, and what was generated is a small part of the cap.
  const double decodes = server_->Metric("llamacpp:n_decode_total");
  std::this_thread::sleep_for(1s);
  EXPECT_EQ(server_->Metric("llamacpp:n_decode_total"), decodes);
  const double predicted = server_->Metric("llamacpp:tokens_predicted_total");
  EXPECT_GT(predicted, 0);
  EXPECT_LT(predicted, cap / 4);
  EXPECT_EQ(server_->Metric("llamacpp:requests_processing"), 0);
  std::printf(
      "slot idle %lld ms after the call returned; "
      "tokens_predicted_total=%.0f (cap %d) n_decode_total=%.0f\n",
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(idle_after).count()),
      predicted, cap, decodes);
}

}  // namespace
}  // namespace nunchi::remote
