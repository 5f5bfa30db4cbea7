// The cascade end to end: `nunchi serve` with a remote model (a fake
// OpenAI-compatible server in this process) routes by confidence, keeps the
// cheap answer when the model is late and stores the late answer for later
// cycles, and `nunchi export-labels` turns the model's verdicts into
// training lines.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "blackbox/cycle.h"
#include "domain/trace_context.h"
#include "engines/remote/fake_openai_server.h"
#include "ops/child_process.h"

namespace nunchi::testing {
namespace {

using nlohmann::json;
using remote::testing::CompletionBody;
using remote::testing::FakeOpenAiServer;

// Answers every id on the "Judge:" line RELEVANT/HIGH/INCIDENT after `delay_ms`.
struct Model {
  std::atomic<int> items{0};
  std::atomic<int> delay_ms{0};
  FakeOpenAiServer server{[this](const httplib::Request& req, httplib::Response& res) {
    json body = json::parse(req.body);
    std::string user = body["messages"].back()["content"];
    json out = json::object();
    // The ids of the "Judge:" line only (the escalation prompt's "Text:" line
    // repeats the last one).
    size_t at = user.find("Judge: ");
    const std::string judge_line =
        at == std::string::npos ? std::string() : user.substr(at, user.find('\n', at) - at);
    user = judge_line;
    for (size_t i = user.find('#'); i != std::string::npos; i = user.find('#', i + 1)) {
      size_t end = user.find_first_not_of("0123456789", i + 1);
      out[user.substr(i, end - i)] = {
          {"r", "RELEVANT"}, {"l", "HIGH"}, {"c", "INCIDENT"}, {"t", "모델 판단"}};
      ++items;
    }
    for (int waited = 0; waited < delay_ms && !server.stopping(); waited += 20)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    res.set_content(CompletionBody(out.dump()), "application/json");
  }};
};

std::vector<std::string> Serve(const Model& m, const std::string& threshold) {
  return {"--base-url", m.server.base_url(), "--remote-model",         "fake",   "--remote-stream",
          "false",      "--keep-texts",      "--escalation-threshold", threshold};
}

// The sum of every series of one metric family on /metrics.
double FamilySum(httplib::Client& c, const std::string& family) {
  auto r = c.Get("/metrics");
  if (!r) return -1;
  double sum = 0;
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(family + "{", 0) == 0 || line.rfind(family + " ", 0) == 0)
      sum += std::stod(line.substr(line.rfind(' ') + 1));
  return sum;
}

int RunExport(const std::string& data_dir, const std::string& out) {
  ChildProcess p;
  std::string error;
  EXPECT_TRUE(p.Spawn({NUNCHI_BINARY, "export-labels", "--data-dir", data_dir, "--out", out},
                      SpawnOptions(out + ".log"), &error))
      << error;
  int code = -1;
  for (int i = 0; i < 500 && !p.Exited(&code); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return code;
}

TEST(Cascade, UnsureSignalsGoToTheModelAndItsVerdictsExportAsTrainingLines) {
  Model model;
  std::string dir = TempDir("cascade-export");
  {
    ServerProcess server(dir, Serve(model, "1.01"));  // every signal is unsure
    auto c = server.Client();
    Backend backend;
    backend.AddSpot("s1", "강남역 11번 출구");
    // The budget's priors (0.5 s a call, 0.5 s a target, 0.0125 s a code
    // point of uncached text) plan the short post at 1.2 s, within the
    // default 4 s wait's headroom of 3.2 s, and the comment of about 240
    // code points at 3.5 s more: the post is waited for, the comment
    // deferred, and its answer replaces the stored cheap judgment.
    std::string p = backend.Post("s1", "u1", "출구 앞 사람 좀 있네요", 2);
    std::string comment = "ㅋㅋ";
    for (int i = 0; i < 10; ++i) comment += " 오늘은 날씨가 맑고 바람이 조금 불어요.";
    backend.Comment("s1", p, "u2", comment, 1);
    auto r = PostAnalysis(c, backend.Request());
    ASSERT_TRUE(r) << server.log();
    ASSERT_EQ(r->status, 200) << r->body;
    json resp = json::parse(r->body);
    EXPECT_EQ(SpotOf(resp, "s1")["analysis_status"], "OK");
    EXPECT_EQ(SpotOf(resp, "s1")["congestion_level"], "HIGH");  // the model's answers count
    EXPECT_EQ(FamilySum(c, "nunchi_cascade_llm_in_time_total"), 1);
    EXPECT_EQ(FamilySum(c, "nunchi_cascade_escalated_total"), 1);
    EXPECT_EQ(FamilySum(c, "nunchi_cascade_deferred_total"), 1);
    for (int i = 0; i < 250 && FamilySum(c, "nunchi_cascade_late_replaced_total") < 1; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(FamilySum(c, "nunchi_cascade_late_replaced_total"), 1);
    EXPECT_EQ(model.items.load(), 2);
    ASSERT_EQ(server.Stop(), 0);
  }
  std::string out = dir + "/labels.jsonl";
  ASSERT_EQ(RunExport(dir, out), 0);
  std::ifstream in(out);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  for (const json& l : lines) {
    EXPECT_EQ(l["post"]["label"]["level"], "HIGH");
    EXPECT_EQ(l["source"]["judge"], "remote:openai");
    EXPECT_FALSE(l["source"]["cheap_judge"].get<std::string>().empty());
  }
  EXPECT_EQ(lines[0]["post"]["text"], "출구 앞 사람 좀 있네요");
}

// Section 4's loop: the model's verdicts exported, `nunchi train` on the
// shipped data plus them, and the next start of serve loads the new model
// (DATA_DIR/classifier.model) into the default judge.
TEST(Cascade, ExportedVerdictsRetrainTheClassifierThatTheNextStartLoads) {
  Model model;
  std::string dir = TempDir("cascade-retrain");
  {
    ServerProcess server(dir, Serve(model, "1.01"));
    auto c = server.Client();
    Backend backend;
    backend.AddSpot("s1", "강남역 11번 출구");
    std::string p = backend.Post("s1", "u1", "출구 앞 사람 좀 있네요", 2);
    backend.Comment("s1", p, "u2", "에스컬레이터 고장이라 줄 섰어요", 1);
    auto r = PostAnalysis(c, backend.Request());
    ASSERT_TRUE(r) << server.log();
    ASSERT_EQ(r->status, 200) << r->body;
    ASSERT_EQ(server.Stop(), 0);
  }
  const std::string labels = dir + "/labels.jsonl";
  ASSERT_EQ(RunExport(dir, labels), 0);
  const std::string model_file = dir + "/classifier.model";
  {
    ChildProcess p;
    std::string error;
    ASSERT_TRUE(p.Spawn({NUNCHI_BINARY, "train", "--shipped", NUNCHI_SOURCE_DIR "/data/train",
                         "--data", labels, "--out", model_file},
                        SpawnOptions(dir + "/train.log"), &error))
        << error;
    int code = -1;
    for (int i = 0; i < 30000 && !p.Exited(&code); ++i)  // 10 minutes on a busy machine
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(code, 0);
  }
  std::ifstream written(model_file);
  ASSERT_TRUE(written.good());
  ServerProcess again(dir, Serve(model, "0"));  // nothing escalated: the classifier answers
  EXPECT_NE(again.log().find("classifier.model"), std::string::npos) << again.log();
  auto c = again.Client();
  Backend backend;
  backend.AddSpot("s2", "시청역 2번 출구");
  backend.Post("s2", "u3", "지금 사람 엄청 많아요 줄이 길어요", 1);
  auto r = PostAnalysis(c, backend.Request());
  ASSERT_TRUE(r) << again.log();
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(SpotOf(json::parse(r->body), "s2")["analysis_status"], "OK");
  EXPECT_EQ(again.Stop(), 0);
}

TEST(Cascade, ConfidentSignalsNeverReachTheModel) {
  Model model;
  ServerProcess server(TempDir("cascade-none"), Serve(model, "0"));
  auto c = server.Client();
  Backend backend;
  backend.AddSpot("s1", "강남역 11번 출구");
  backend.Post("s1", "u1", "출구 앞 한산해요 줄 없어요", 2);
  auto r = PostAnalysis(c, backend.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(model.items.load(), 0);
  EXPECT_EQ(model.server.requests(), 0);
}

TEST(Cascade, LateModelLeavesTheSpotOkOnTimeAndItsAnswerCountsNextCycle) {
  Model model;
  model.delay_ms = 4500;  // past the answer, not past the budget (3 s - margins, 1.5 s a target)
  std::vector<std::string> args = Serve(model, "1.01");
  args.insert(args.end(), {"--deadline-ms", "3000"});
  ServerProcess server(TempDir("cascade-late"), args);
  auto c = server.Client();
  Backend backend;
  backend.AddSpot("s1", "강남역 11번 출구");
  backend.Post("s1", "u1", "출구 앞 한산해요 줄 없어요", 2);
  auto r = PostAnalysis(c, backend.Request());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  json first = json::parse(r->body);
  EXPECT_EQ(SpotOf(first, "s1")["analysis_status"], "OK");  // the cheap judgment stands
  EXPECT_NE(SpotOf(first, "s1")["congestion_level"], "HIGH");
  backend.Acknowledge(first);
  // The model's late answer replaces the stored one; re-aggregation shows it.
  json next;
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    backend.Advance(0);
    auto r2 = PostAnalysis(c, backend.Request());
    ASSERT_TRUE(r2);
    ASSERT_EQ(r2->status, 200) << r2->body;
    next = json::parse(r2->body);
    if (SpotOf(next, "s1")["congestion_level"] == "HIGH") break;
  }
  EXPECT_EQ(SpotOf(next, "s1")["congestion_level"], "HIGH") << server.log();
  EXPECT_GE(
      Metric(c, "nunchi_late_judgments_total", "{judge=\"remote:openai\",outcome=\"stored\"}"), 1);
}

// W3C trace context: the model server's requests join the caller's trace
// (same trace id, a span of their own); a request without a traceparent
// starts a trace, whose id the access log line carries.
TEST(Cascade, ModelCallsCarryTheRequestsTraceId) {
  Model model;
  ServerProcess server(TempDir("cascade-trace"), Serve(model, "1.01"));
  auto c = server.Client();
  Backend backend;
  backend.AddSpot("s1", "강남역 11번 출구");
  const std::string p = backend.Post("s1", "u1", "출구 앞 사람 좀 있네요", 2);
  const std::string tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto r = c.Post("/v1/congestion-analyses", {{"traceparent", tp}}, backend.Request().dump(),
                  "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("traceparent"), tp);
  ASSERT_EQ(model.server.requests(), 1) << server.log();
  const std::string sent = model.server.traceparent(0);
  ASSERT_TRUE(ValidTraceparent(sent)) << sent;
  EXPECT_EQ(TraceIdOf(sent), TraceIdOf(tp));
  EXPECT_NE(SpanIdOf(sent), SpanIdOf(tp));

  backend.Acknowledge(json::parse(r->body));
  backend.Comment("s1", p, "u2", "줄이 엄청 길어요", 1);
  auto r2 = c.Post("/v1/congestion-analyses", {{"X-Request-Id", "trace-none"}},
                   backend.Request().dump(), "application/json");
  ASSERT_TRUE(r2);
  ASSERT_EQ(r2->status, 200) << r2->body;
  EXPECT_FALSE(r2->has_header("traceparent"));  // none was sent, none is echoed
  ASSERT_EQ(model.server.requests(), 2) << server.log();
  const std::string started = model.server.traceparent(1);
  ASSERT_TRUE(ValidTraceparent(started)) << started;
  EXPECT_NE(TraceIdOf(started), TraceIdOf(tp));
  // The access line of that request names the trace it started.
  std::string line_trace;
  for (int attempt = 0; attempt < 50 && line_trace.empty(); ++attempt) {
    std::istringstream in(server.log());
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line, nullptr, false);
      if (j.is_object() && j.value("event", "") == "http_request" &&
          j.value("request_id", "") == "trace-none")
        line_trace = j.value("trace_id", "");
    }
    if (line_trace.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(line_trace, TraceIdOf(started)) << server.log();
}

}  // namespace
}  // namespace nunchi::testing
