// Black-box: the HTTP surface docs/openapi.yaml describes beyond the analysis
// contract: method routing (405 with Allow, 404, OPTIONS, HEAD, no stall on a
// PUT or PATCH without a body), the extraction routes' answers and problems,
// and the headers every response carries. Run under
// tests/openapi/validate_responses.py (CTest openapi_responses_test), every
// response here is also checked against the spec.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "blackbox/server_process.h"

namespace nunchi::testing {
namespace {

class SpecTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess(TempDir("spec")); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  // A client that gives up after 2 s: a request the server stalls on (the
  // 5 s body wait this suite guards against) fails instead of passing late.
  static httplib::Client Quick() {
    auto c = server_->Client();
    c.set_read_timeout(2, 0);
    return c;
  }
  static ServerProcess* server_;
};
ServerProcess* SpecTest::server_ = nullptr;

nlohmann::json Body(const httplib::Result& r) { return nlohmann::json::parse(r->body); }

// Sends raw bytes on a fresh connection and returns what comes back within
// 2 s (the status line first). httplib's client always adds Content-Length,
// so the no-length case needs a raw socket.
std::string RawExchange(int port, const std::string& bytes) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string got;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::send(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size())) {
    char buf[4096];
    ssize_t n;
    while (got.find("\r\n\r\n") == std::string::npos && (n = ::recv(fd, buf, sizeof buf, 0)) > 0)
      got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return got;
}

TEST_F(SpecTest, PutAndPatchWithoutContentLengthAnswerAtOnce) {
  // Before: cpp-httplib waited 5 s for a body that never came, then 400.
  for (const char* method : {"PUT", "PATCH", "DELETE"}) {
    std::string got = RawExchange(server_->port(), std::string(method) +
                                                       " /v1/congestion-analyses HTTP/1.1\r\n"
                                                       "Host: x\r\n\r\n");
    EXPECT_EQ(got.rfind("HTTP/1.1 405", 0), 0u) << method << ": '" << got << "'";
    EXPECT_NE(got.find("Allow: POST"), std::string::npos) << method << ": " << got;
  }
  std::string got = RawExchange(server_->port(), "PUT /elsewhere HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(got.rfind("HTTP/1.1 404", 0), 0u) << got;
}

TEST_F(SpecTest, WrongMethodOnAKnownRouteIs405WithAllow) {
  auto c = Quick();
  struct Case {
    const char* method;
    const char* path;
    const char* allow;
  };
  for (const Case& k :
       {Case{"GET", "/v1/congestion-analyses", "POST"},
        Case{"PUT", "/v1/congestion-analyses", "POST"},
        Case{"PATCH", "/v1/congestion-analyses", "POST"},
        Case{"DELETE", "/v1/congestion-analyses", "POST"},
        Case{"GET", "/v1/extractions/receipt", "POST"},
        Case{"PUT", "/v1/extractions/taxi-fare", "POST"}, Case{"POST", "/livez", "GET, HEAD"},
        Case{"PUT", "/metrics", "GET, HEAD"}, Case{"DELETE", "/readyz", "GET, HEAD"}}) {
    httplib::Request req;
    req.method = k.method;
    req.path = k.path;
    auto r = c.send(req);
    ASSERT_TRUE(r) << k.method << " " << k.path << ": " << httplib::to_string(r.error());
    EXPECT_EQ(r->status, 405) << k.method << " " << k.path;
    EXPECT_EQ(r->get_header_value("Allow"), k.allow) << k.method << " " << k.path;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/problem+json");
    EXPECT_EQ(Body(r)["code"], "METHOD_NOT_ALLOWED");
    EXPECT_FALSE(r->get_header_value("X-Request-Id").empty());
  }
}

TEST_F(SpecTest, AWrongMethodWithABodyIs405AndTheBodyIsNotANextRequest) {
  auto c = Quick();
  // The body is a whole HTTP request: if the server left it unread, it would
  // answer it as the next request on this keep-alive connection.
  auto r = c.Put("/v1/congestion-analyses", "GET /nothing-smuggled HTTP/1.1\r\nHost: x\r\n\r\n",
                 "application/json");
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(r->get_header_value("Allow"), "POST");
  auto next = c.Get("/livez");
  ASSERT_TRUE(next);
  EXPECT_EQ(next->status, 200);
  EXPECT_EQ(Body(next)["status"], "live");
}

TEST_F(SpecTest, UnknownRoutesAre404WhateverTheMethod) {
  auto c = Quick();
  for (const char* method : {"GET", "PUT", "PATCH", "DELETE", "POST"}) {
    httplib::Request req;
    req.method = method;
    req.path = "/v1/nothing";
    auto r = c.send(req);
    ASSERT_TRUE(r) << method << ": " << httplib::to_string(r.error());
    EXPECT_EQ(r->status, 404) << method;
    EXPECT_EQ(Body(r)["code"], "NOT_FOUND");
  }
}

TEST_F(SpecTest, OptionsAndHeadAnswerWithoutABody) {
  auto c = Quick();
  httplib::Request req;
  req.method = "OPTIONS";
  req.path = "/v1/congestion-analyses";
  auto r = c.send(req);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 204);
  EXPECT_EQ(r->get_header_value("Allow"), "POST");
  auto h = c.Head("/readyz");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->status, 200);
  EXPECT_TRUE(h->body.empty());
}

TEST_F(SpecTest, HealthBodiesAreTheDocumentedOnes) {
  auto c = Quick();
  auto live = c.Get("/livez");
  ASSERT_TRUE(live);
  EXPECT_EQ(Body(live), (nlohmann::json{{"status", "live"}}));
  auto ready = c.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(Body(ready)["status"], "ready");
  EXPECT_TRUE(Body(ready)["state_epoch"].is_string());
  // The caller's request id comes back as sent.
  auto tagged = c.Get("/livez", {{"X-Request-Id", "spec-test-1"}});
  ASSERT_TRUE(tagged);
  EXPECT_EQ(tagged->get_header_value("X-Request-Id"), "spec-test-1");
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST_F(SpecTest, ExtractionAnswersAndProblems) {
  auto c = server_->Client();
  const std::string dir = NUNCHI_TESTDATA "/extract";
  auto probe = c.Post("/v1/extractions/receipt", "", "image/png");
  ASSERT_TRUE(probe);
  if (probe->status == 404) GTEST_SKIP() << "built without image extraction";
  EXPECT_EQ(probe->status, 400);
  EXPECT_EQ(Body(probe)["code"], "MISSING_IMAGE");

  auto not_image = c.Post("/v1/extractions/taxi-fare", "plain words, no picture", "image/png");
  ASSERT_TRUE(not_image);
  EXPECT_EQ(not_image->status, 415);
  EXPECT_EQ(Body(not_image)["code"], "NOT_AN_IMAGE");

  const std::string jpeg = ReadFile(dir + "/0001-bank.jpg");
  ASSERT_FALSE(jpeg.empty());
  auto truncated = c.Post("/v1/extractions/receipt", jpeg.substr(0, jpeg.size() / 3), "image/jpeg");
  ASSERT_TRUE(truncated);
  EXPECT_EQ(truncated->status, 422);

  auto receipt = c.Post("/v1/extractions/receipt", jpeg, "image/jpeg");
  ASSERT_TRUE(receipt);
  ASSERT_EQ(receipt->status, 200) << receipt->body;
  auto rj = Body(receipt);
  EXPECT_EQ(rj["kind"], "receipt");
  EXPECT_TRUE(rj["checks"]["vat_consistent"].is_boolean());
  for (const char* f : {"amount", "paid_at", "merchant", "issuer", "approval_number"}) {
    EXPECT_TRUE(rj["evidence"].contains(f)) << f;
    // An unread field has null evidence and confidence 0 (the spec says so).
    if (rj[f].is_null()) {
      EXPECT_TRUE(rj["evidence"][f].is_null()) << f;
      EXPECT_EQ(rj["confidence"][f], 0.0) << f;
    }
  }

  auto taxi =
      c.Post("/v1/extractions/taxi-fare", ReadFile(dir + "/0003-led_meter.jpg"), "image/jpeg");
  ASSERT_TRUE(taxi);
  ASSERT_EQ(taxi->status, 200) << taxi->body;
  auto tj = Body(taxi);
  EXPECT_EQ(tj["kind"], "taxi_fare");
  EXPECT_TRUE(tj["method"] == "seven_segment" || tj["method"] == "ocr") << tj.dump();
}

TEST_F(SpecTest, TheServerLogIsJsonLinesWithAnAccessLinePerRequest) {
  auto c = Quick();
  const std::string tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto r = c.Get("/readyz", {{"X-Request-Id", "spec-log-1"}, {"traceparent", tp}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("traceparent"), tp);  // echoed back
  auto bad = c.Get("/livez", {{"traceparent", "00-zz-not-a-trace-01"}});
  ASSERT_TRUE(bad);
  EXPECT_FALSE(bad->has_header("traceparent"));
  auto wrong = c.Get("/v1/congestion-analyses", {{"X-Request-Id", "spec-log-2"}});
  ASSERT_TRUE(wrong);

  bool saw_listening = false, saw_config = false;
  nlohmann::json ready_line, wrong_line;
  for (int attempt = 0; attempt < 50 && wrong_line.is_null(); ++attempt) {
    std::istringstream in(server_->log());
    for (std::string line; std::getline(in, line);) {
      nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      ASSERT_FALSE(j.is_discarded()) << "not a JSON line: " << line;
      ASSERT_TRUE(j.contains("time") && j.contains("level") && j.contains("event")) << line;
      EXPECT_TRUE(std::regex_match(j["time"].get<std::string>(),
                                   std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00)")))
          << line;
      saw_listening |= j["event"] == "listening";
      saw_config |= j["event"] == "config";
      if (j["event"] == "http_request" && j["request_id"] == "spec-log-1") ready_line = j;
      if (j["event"] == "http_request" && j["request_id"] == "spec-log-2") wrong_line = j;
    }
    if (wrong_line.is_null()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(saw_listening);
  EXPECT_TRUE(saw_config);
  ASSERT_FALSE(ready_line.is_null()) << server_->log();
  EXPECT_EQ(ready_line["route"], "/readyz");
  EXPECT_EQ(ready_line["status"], 200);
  EXPECT_EQ(ready_line["method"], "GET");
  EXPECT_EQ(ready_line["traceparent"], tp);
  EXPECT_GT(ready_line["bytes_out"].get<int>(), 0);
  EXPECT_GE(ready_line["latency_ms"].get<double>(), 0.0);
  ASSERT_FALSE(wrong_line.is_null());
  EXPECT_EQ(wrong_line["status"], 405);
}

TEST_F(SpecTest, MetricsHaveProcessBuildInfoAndFineBuckets) {
  auto c = Quick();
  auto m = c.Get("/metrics");
  ASSERT_TRUE(m);
  for (const char* name :
       {"process_cpu_seconds_total ", "process_resident_memory_bytes ", "process_open_fds ",
        "process_start_time_seconds ", "nunchi_build_info{version=\""}) {
    EXPECT_NE(m->body.find(std::string("\n") + name), std::string::npos) << name;
  }
  EXPECT_NE(m->body.find("llama_commit=\""), std::string::npos);
  // Buckets from 100 us, and the analysis route's series exported from the start.
  EXPECT_NE(m->body.find("nunchi_http_request_duration_seconds_bucket{route=\"/v1/"
                         "congestion-analyses\",status=\"200\",le=\"0.0001\"}"),
            std::string::npos);
}

}  // namespace
}  // namespace nunchi::testing
