// Black-box (CTest label "model"): the real binary in front of a real
// llama-server that is killed with SIGKILL while it generates for a cycle.
// The cycle is still answered inside its deadline with valid contract JSON:
// spots FAILED when the remote judge is the only one, answered by the default
// judge when it follows; nunchi stays up, answers the next cycle, exits
// cleanly, and /metrics counts the transport errors. Skips when llama-server
// or a model is missing (see engines/remote/llama_server_process.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <sstream>
#include <thread>

#include "blackbox/cycle.h"
#include "engines/remote/llama_server_process.h"

namespace nunchi::testing {

namespace {

using namespace std::chrono_literals;

const char* kHigh = "지금 사람 너무 많아서 발 디딜 틈도 없어요 줄이 끝이 안 보여요";
const char* kHigh2 = "대기 1시간 넘는다고 하네요 완전 미어터짐";
const std::string kRemoteLabels =
    "{backend=\"llama-server\",model=\"tiny\",prompt_version=\"judge-v1\"}";

// The tiny random-weight model, written by the binary under test.
bool MakeTinyModel(const std::string& out) {
  std::string cmd = std::string(NUNCHI_BINARY) + " make-model --shape tiny --quiet --out '" + out +
                    "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

class RemoteKillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string bin = FindLlamaServer();
    if (bin.empty()) GTEST_SKIP() << "llama-server not found (run scripts/setup-llama.sh)";
    bool generated = false;
    std::string model = TestModel(MakeTinyModel, &generated);
    if (model.empty()) GTEST_SKIP() << "no model: set NUNCHI_TEST_MODEL (or build with llama.cpp)";
    llama_ = std::make_unique<LlamaServerProcess>(bin, model);
    ASSERT_TRUE(llama_->WaitReady()) << "llama-server did not start:\n" << llama_->log();
  }

  std::unique_ptr<ServerProcess> StartNunchi(const std::string& route) {
    return std::make_unique<ServerProcess>(
        TempDir("remote-kill"),
        std::vector<std::string>{"--route", route, "--backend", "llama-server", "--base-url",
                                 llama_->base_url(), "--remote-model", "tiny", "--deadline-ms",
                                 "8000"});
  }

  // Kills llama-server once a slot has streamed at least one token; returns
  // the tokens it had generated then, or -1 when that did not happen within
  // 7 s (it is killed anyway).
  int KillWhileGenerating() {
    const auto until = std::chrono::steady_clock::now() + 7s;
    while (std::chrono::steady_clock::now() < until) {
      nlohmann::json slots = llama_->Slots();
      for (const auto& s : slots.is_array() ? slots : nlohmann::json::array()) {
        int decoded = s.contains("next_token") ? s["next_token"][0].value("n_decoded", 0) : 0;
        if (s.value("is_processing", false) && decoded >= 1) {
          llama_->Kill9();
          return decoded;
        }
      }
      std::this_thread::sleep_for(10ms);
    }
    llama_->Kill9();
    return -1;
  }

  // Two spots, a post and two comments each: two remote calls of three targets.
  static void AddSpots(Backend& be) {
    for (const std::string spot : {"s1", "s2"}) {
      be.AddSpot(spot, spot == "s1" ? "서울역 2번 출구" : "강남역 11번 출구");
      std::string p = be.Post(spot, spot + "-u1", kHigh, 2);
      be.Comment(spot, p, spot + "-u2", kHigh2, 1);
      be.Comment(spot, p, spot + "-u3", kHigh, 0);
    }
  }

  // Runs a cycle whose model server dies mid-generation; checks the answer
  // came back in time with valid JSON, and returns it.
  nlohmann::json CycleWithAKill(ServerProcess& server, Backend& be) {
    const auto start = std::chrono::steady_clock::now();
    auto answer = std::async(std::launch::async, [&] {
      auto cc = server.Client();
      auto r = PostAnalysis(cc, be.Request());
      return std::make_pair(r ? r->status : -1, r ? r->body : std::string());
    });
    const int decoded = KillWhileGenerating();
    EXPECT_GE(decoded, 1) << "never saw llama-server generate";
    const auto killed = std::chrono::steady_clock::now() - start;
    auto [status, body] = answer.get();
    const auto answered = std::chrono::steady_clock::now() - start;
    EXPECT_LT(answered, 8s);
    auto ms = [](auto d) {
      return static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
    };
    std::printf("killed llama-server at %lld ms (%d tokens generated); answered at %lld ms\n",
                ms(killed), decoded, ms(answered));
    EXPECT_EQ(status, 200) << body;
    nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
    EXPECT_TRUE(j.is_object() && j["state_epoch"].is_string() && j["spots"].is_array()) << body;
    return j;
  }

  // After the kill: nunchi is alive, says why, and answers the next cycle in time.
  void ExpectServiceGoesOn(ServerProcess& server, Backend& be, const std::string& next_status) {
    auto c = server.Client();
    auto live = c.Get("/livez");
    ASSERT_TRUE(live);
    EXPECT_EQ(live->status, 200);
    const double transport_errors =
        Metric(c, "nunchi_remote_transport_errors_total", kRemoteLabels);
    EXPECT_GE(transport_errors, 1);
    std::printf("transport errors %.0f, breaker rejections %.0f\n", transport_errors,
                Metric(c, "nunchi_remote_breaker_rejections_total", kRemoteLabels));
    be.Advance(1);
    be.Post("s1", "s1-u4", kHigh2, 0);
    const auto start = std::chrono::steady_clock::now();
    auto r = PostAnalysis(c, be.Request());
    ASSERT_TRUE(r);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
    ASSERT_EQ(r->status, 200) << r->body;
    auto j = nlohmann::json::parse(r->body);
    EXPECT_EQ(SpotOf(j, "s1")["analysis_status"], next_status) << r->body;
    EXPECT_EQ(server.Stop(), 0) << server.log();  // no crash: a clean exit on SIGTERM
  }

  std::unique_ptr<LlamaServerProcess> llama_;
};

TEST_F(RemoteKillTest, OnlyTheRemoteJudgeGivesFailedSpotsInTime) {
  auto server = StartNunchi("remote");
  Backend be;
  AddSpots(be);
  nlohmann::json j = CycleWithAKill(*server, be);
  ASSERT_EQ(j["spots"].size(), 2u) << j.dump();
  for (const auto& s : j["spots"]) {
    EXPECT_EQ(s["analysis_status"], "FAILED") << s.dump();
    EXPECT_TRUE(s["congestion_level"].is_null()) << s.dump();
    EXPECT_TRUE(s["report_count"].is_null()) << s.dump();
  }
  auto c = server->Client();
  EXPECT_EQ(Metric(c, "nunchi_spots_total", "{status=\"FAILED\"}"), 2);
  be.epoch() = j["state_epoch"].get<std::string>();  // FAILED: the signals stay pending
  ExpectServiceGoesOn(*server, be, "FAILED");
}

TEST_F(RemoteKillTest, TheDefaultJudgeAnswersWhenItFollows) {
  auto server = StartNunchi("remote,default");
  Backend be;
  AddSpots(be);
  nlohmann::json j = CycleWithAKill(*server, be);
  ASSERT_EQ(j["spots"].size(), 2u) << j.dump();
  for (const auto& s : j["spots"]) {
    EXPECT_EQ(s["analysis_status"], "OK") << s.dump();
    EXPECT_EQ(s["congestion_level"], "HIGH") << s.dump();
    EXPECT_EQ(s["report_count"], 3) << s.dump();
  }
  auto c = server->Client();
  EXPECT_GE(Metric(c, "nunchi_judgments_total", "{judge=\"rules\",outcome=\"ok\"}"), 1);
  be.Acknowledge(j);
  ExpectServiceGoesOn(*server, be, "OK");
}

}  // namespace
}  // namespace nunchi::testing
