// Streaming (SSE), degeneration and circuit-breaker behaviour of RemoteJudge
// against a fake server.
#include <gtest/gtest.h>

#include "engines/remote/remote_judge.h"
#include "engines/remote/remote_test_util.h"

namespace nunchi::remote {
namespace {

using namespace std::chrono_literals;
using testing::CompletionBody;
using testing::FakeOpenAiServer;
using testing::kGoodAnswer;
using testing::MakeJudge;
using testing::MakeTask;
using testing::OptionsFor;
using testing::SseChunk;

// Streams `pieces` as SSE content deltas, then the finish chunk and [DONE].
void StreamPieces(httplib::Response& res, std::vector<std::string> pieces, std::string finish) {
  res.set_chunked_content_provider("text/event-stream",
                                   [pieces, finish](size_t, httplib::DataSink& sink) {
                                     for (const auto& p : pieces) {
                                       std::string event = testing::SseChunk(p);
                                       if (!sink.write(event.data(), event.size())) return false;
                                     }
                                     std::string end = SseChunk("", finish) + "data: [DONE]\n\n";
                                     sink.write(end.data(), end.size());
                                     sink.done();
                                     return true;
                                   });
}

TEST(RemoteStreamTest, StreamedAnswerIsParsed) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    std::string answer = kGoodAnswer;
    std::vector<std::string> pieces;
    for (size_t i = 0; i < answer.size(); i += 7) pieces.push_back(answer.substr(i, 7));
    // Pieces may split a UTF-8 sequence; JSON needs valid strings, so re-join those.
    std::vector<std::string> valid;
    std::string carry;
    for (auto& p : pieces) {
      carry += p;
      if (IsValidUtf8(carry)) {
        valid.push_back(carry);
        carry.clear();
      }
    }
    StreamPieces(res, valid, "stop");
  });
  auto judge = MakeJudge(OptionsFor(server, /*stream=*/true));
  auto out = judge->JudgeBundle(MakeTask());
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(out[0]->cause_text, "팝업 오픈런 대기줄");
  ASSERT_TRUE(out[1].ok());
  EXPECT_EQ(server.body(0)["stream"], true);
  EXPECT_EQ(judge->stats().degenerations.load(), 0u);
}

// Streams `head` then `piece(i)` every 2 ms until the client goes away (or a
// cap of 5000 pieces, ~10 s); checks that the guard cut every attempt and that
// the server saw each connection close and stopped sending soon after.
void ExpectCutByTheGuard(const std::string& head, std::function<std::string(int)> piece) {
  struct StreamLog {
    std::atomic<int> streams{0};
    std::atomic<int> closed_by_client{0};
    std::atomic<int> max_pieces{0};
  } log;
  const int kCap = 5000;
  FakeOpenAiServer server([&](const httplib::Request&, httplib::Response& res) {
    ++log.streams;
    res.set_chunked_content_provider("text/event-stream", [&](size_t, httplib::DataSink& sink) {
      std::string first = SseChunk(head);
      sink.write(first.data(), first.size());
      for (int i = 0; i < kCap && !server.stopping(); ++i) {
        std::string chunk = SseChunk(piece(i));
        if (!sink.write(chunk.data(), chunk.size()) || !sink.is_writable()) {
          ++log.closed_by_client;
          int m = log.max_pieces.load();
          while (i > m && !log.max_pieces.compare_exchange_weak(m, i)) {
          }
          return false;
        }
        std::this_thread::sleep_for(2ms);
      }
      sink.done();
      return true;
    });
  });
  auto judge = MakeJudge(OptionsFor(server, /*stream=*/true));
  auto start = Clock::now();
  auto out = judge->JudgeBundle(MakeTask());
  auto took = Clock::now() - start;
  for (const auto& r : out) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated);
  }
  EXPECT_LT(took, 3s);
  EXPECT_EQ(judge->stats().degenerations.load(), 2u);  // first try and the different retry
  EXPECT_EQ(log.streams.load(), 2);
  for (int i = 0; i < 200 && log.closed_by_client.load() < 2; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(log.closed_by_client.load(), 2);
  EXPECT_LT(log.max_pieces.load(), 200);
}

TEST(RemoteStreamTest, LoopingStreamIsCancelledByTheGuard) {
  ExpectCutByTheGuard(R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")",
                      [](int) { return std::string("줄이 계속 "); });
}

TEST(RemoteStreamTest, WhitespacePaddingIsCancelledByTheGuard) {
  const char* kinds[] = {" ", "\t", "\n", "  ", "\t\t"};
  ExpectCutByTheGuard(R"({"#2":{"r":)",
                      [&](int i) { return std::string(kinds[(i * 7 + i / 3) % 5]); });
}

TEST(RemoteStreamTest, TokenCapWithARepeatingTailIsADegeneration) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    std::string tail;
    for (int i = 0; i < 4; ++i) tail += "대기 대기 ";
    res.set_content(
        CompletionBody(R"({"#2":{"r":"RELEVANT","l":"HIGH","c":"EVENT","t":")" + tail, "length"),
        "application/json");
  });
  auto judge = MakeJudge(OptionsFor(server));
  auto out = judge->JudgeBundle(MakeTask());
  for (const auto& r : out) EXPECT_EQ(r.status().code(), ErrorCode::kDegenerated);
  EXPECT_EQ(judge->stats().length_stops.load(), 2u);
  EXPECT_EQ(judge->stats().cap_degenerations.load(), 2u);
}

TEST(RemoteStreamTest, TokenCapWithoutRepetitionIsInvalidOutput) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    StreamPieces(res, {R"({"#2":{"r":"RELEVANT","l":"HI)"}, "length");
  });
  auto judge = MakeJudge(OptionsFor(server, /*stream=*/true));
  auto out = judge->JudgeBundle(MakeTask());
  for (const auto& r : out) EXPECT_EQ(r.status().code(), ErrorCode::kInvalidOutput);
  EXPECT_EQ(judge->stats().length_stops.load(), 2u);
  EXPECT_EQ(judge->stats().cap_degenerations.load(), 0u);
}

TEST(RemoteStreamTest, AServerThatIgnoresStreamIsStillRead) {
  FakeOpenAiServer server([](const httplib::Request&, httplib::Response& res) {
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto out = MakeJudge(OptionsFor(server, /*stream=*/true))->JudgeBundle(MakeTask());
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(out[0]->level, Level::kHigh);
}

TEST(RemoteStreamTest, CircuitBreakerOpensAndHalfOpens) {
  std::atomic<bool> healthy{false};
  FakeOpenAiServer server([&](const httplib::Request&, httplib::Response& res) {
    if (!healthy) {
      res.status = 500;
      return;
    }
    res.set_content(CompletionBody(kGoodAnswer), "application/json");
  });
  auto o = OptionsFor(server);
  o.retries = 0;
  o.breaker_failure_threshold = 2;
  o.breaker_open_for = 300ms;
  auto judge = MakeJudge(o);
  for (int i = 0; i < 2; ++i) {
    auto out = judge->JudgeBundle(MakeTask());
    EXPECT_EQ(out[0].status().code(), ErrorCode::kUnavailable);
  }
  EXPECT_EQ(server.requests(), 2);
  EXPECT_EQ(judge->breaker().state(), CircuitBreaker::State::kOpen);
  EXPECT_FALSE(judge->Ready());
  auto start = Clock::now();
  auto refused = judge->JudgeBundle(MakeTask());
  EXPECT_LT(Clock::now() - start, 50ms);  // fails fast
  EXPECT_EQ(refused[0].status().code(), ErrorCode::kUnavailable);
  EXPECT_NE(refused[0].status().message().find("circuit breaker open"), std::string::npos);
  EXPECT_EQ(server.requests(), 2);  // nothing was sent
  EXPECT_EQ(judge->stats().breaker_rejections.load(), 1u);

  // Half-open after the period: a failing probe opens it again.
  std::this_thread::sleep_for(350ms);
  EXPECT_EQ(judge->breaker().state(), CircuitBreaker::State::kHalfOpen);
  EXPECT_TRUE(judge->Ready());
  judge->JudgeBundle(MakeTask());
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(judge->breaker().state(), CircuitBreaker::State::kOpen);

  // Next period: the backend is back, the probe succeeds and closes it.
  healthy = true;
  std::this_thread::sleep_for(350ms);
  auto out = judge->JudgeBundle(MakeTask());
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_EQ(judge->breaker().state(), CircuitBreaker::State::kClosed);
  EXPECT_TRUE(judge->Ready());
}

}  // namespace
}  // namespace nunchi::remote
