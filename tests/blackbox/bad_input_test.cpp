// Black-box: every kind of bad input gets the right problem details and
// changes no stored state.
#include <gtest/gtest.h>

#include "blackbox/cycle.h"

namespace nunchi::testing {
namespace {

class BadInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ServerProcess(TempDir("bad"), {"--max-body-bytes", "20000", "--max-text-chars",
                                                 "50", "--max-signals", "30"});
    // One good cycle so there is state that must not change.
    auto c = server_->Client();
    backend_ = new Backend();
    backend_->AddSpot("s1", "명동 거리");
    std::string p = backend_->Post("s1", "u1", "사람 많아요 줄 길어요", 1);
    backend_->Comment("s1", p, "u2", "완전 붐벼요", 0);
    auto r = PostAnalysis(c, backend_->Request());
    ASSERT_EQ(r->status, 200) << r->body;
    backend_->Acknowledge(nlohmann::json::parse(r->body));
    post_ = p;
  }
  static void TearDownTestSuite() {
    delete server_;
    delete backend_;
  }

  // Sends body, expects status/code, and checks that no state changed.
  nlohmann::json Expect(const std::string& body, int status, const std::string& code,
                        const std::string& content_type = "application/json") {
    auto c = server_->Client();
    const double rows = Metric(c, "nunchi_store_rows");
    const double calls = Metric(c, "nunchi_judge_calls_total");
    auto r = c.Post("/v1/congestion-analyses", body, content_type);
    EXPECT_TRUE(r);
    if (!r) return nullptr;
    EXPECT_EQ(r->status, status) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/problem+json");
    auto j = nlohmann::json::parse(r->body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r->body;
    EXPECT_EQ(j["code"], code) << r->body;
    EXPECT_EQ(j["status"], status);
    EXPECT_TRUE(j["title"].is_string());
    EXPECT_TRUE(j["detail"].is_string());
    EXPECT_EQ(Metric(c, "nunchi_store_rows"), rows);
    EXPECT_EQ(Metric(c, "nunchi_judge_calls_total"), calls);
    return j;
  }

  static bool HasPointer(const nlohmann::json& problem, const std::string& pointer) {
    for (const auto& e : problem["errors"])
      if (e["pointer"] == pointer) return true;
    return false;
  }

  // A valid next-cycle request with one new comment, to be broken by each test.
  nlohmann::json Good() {
    Backend copy = *backend_;
    copy.Comment("s1", post_, "u9", "여기도 똑같아요", 0);
    return copy.Request();
  }

  static ServerProcess* server_;
  static Backend* backend_;
  static std::string post_;
};
ServerProcess* BadInput::server_ = nullptr;
Backend* BadInput::backend_ = nullptr;
std::string BadInput::post_;

TEST_F(BadInput, MalformedJsonIs400) {
  Expect("{\"analyzed_at\": ", 400, "MALFORMED_JSON");
  Expect("", 400, "MALFORMED_JSON");
  Expect("{\"text\": \"\xff\xfe\"}", 400, "MALFORMED_JSON");  // not UTF-8
}

TEST_F(BadInput, WrongContentTypeIs415) {
  Expect(Good().dump(), 415, "UNSUPPORTED_MEDIA_TYPE", "text/plain");
}

TEST_F(BadInput, OversizedBodyIs413) {
  std::string big = std::string(30000, ' ') + Good().dump();
  Expect(big, 413, "PAYLOAD_TOO_LARGE");
}

TEST_F(BadInput, NewSignalInNoBundleIs422) {
  auto j = Good();
  j["new_signals"].push_back({{"kind", "COMMENT"}, {"signal_id", "ghost"}, {"post_id", post_}});
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/new_signals/1/signal_id")) << p.dump();
}

TEST_F(BadInput, DuplicateSignalIdsAre422) {
  auto j = Good();
  auto& comments = j["spots"][0]["bundles"][0]["comments"];
  comments.push_back(comments[0]);
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots/0/bundles/0/comments/2/signal_id")) << p.dump();
}

TEST_F(BadInput, UnknownKindIs422) {
  auto j = Good();
  j["new_signals"][0]["kind"] = "REPLY";
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/new_signals/0/kind")) << p.dump();
}

TEST_F(BadInput, TextOverTheLimitIs422) {
  auto j = Good();
  std::string long_text;
  for (int i = 0; i < 51; ++i) long_text += "가";
  j["spots"][0]["bundles"][0]["comments"][1]["text"] = long_text;
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots/0/bundles/0/comments/1/text")) << p.dump();
}

TEST_F(BadInput, TooManySignalsIs422) {
  Backend copy = *backend_;
  for (int i = 0; i < 30; ++i) copy.Comment("s1", post_, "x" + std::to_string(i), "ㅋㅋ", 0);
  auto p = Expect(copy.Request().dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots")) << p.dump();
}

TEST_F(BadInput, UnparsableTimestampsAre422) {
  auto j = Good();
  j["analyzed_at"] = "2026-11-29 18:40";
  j["spots"][0]["bundles"][0]["comments"][1]["created_at"] = "어제";
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/analyzed_at")) << p.dump();
  EXPECT_TRUE(HasPointer(p, "/spots/0/bundles/0/comments/1/created_at")) << p.dump();
}

TEST_F(BadInput, WrongShapesAre422) {
  Expect("[]", 422, "INVALID_REQUEST");
  auto j = Good();
  j["spots"] = "s1";
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots")) << p.dump();
}

TEST_F(BadInput, UnknownRouteIs404Problem) {
  auto c = server_->Client();
  auto r = c.Get("/v2/nothing");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/problem+json");
  EXPECT_EQ(nlohmann::json::parse(r->body)["code"], "NOT_FOUND");
}

TEST_F(BadInput, OverlongOrUnprintableIdentifiersAre422) {
  auto j = Good();
  j["spots"][0]["spot_id"] = std::string(10000, 's');  // (1 MiB: hostile_test)
  auto p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots/0/spot_id")) << p;
  EXPECT_LT(p.dump().size(), 4096u) << "the id is not echoed back whole";
  j = Good();
  j["spots"][0]["bundles"][0]["comments"][0]["author_id"] = "u\u0007bell";
  p = Expect(j.dump(), 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/spots/0/bundles/0/comments/0/author_id")) << p;
}

TEST_F(BadInput, NumbersOutOfRangeAre422WithAPointer) {
  auto j = Good();
  std::string body = j.dump();
  body.insert(1, "\"extra\": [1, 1e400], ");
  auto p = Expect(body, 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/extra/1")) << p;
  EXPECT_EQ(p.dump().find("json.exception"), std::string::npos) << p;
  body = j.dump();
  body.insert(1, "\"n\": " + std::string(10000, '7') + ", ");
  p = Expect(body, 422, "INVALID_REQUEST");
  EXPECT_TRUE(HasPointer(p, "/n")) << p;
}

TEST_F(BadInput, BytesAfterTheJsonValueAre400) {
  std::string body = Good().dump();
  Expect(body + std::string("\0garbage", 8), 400, "MALFORMED_JSON");
  Expect(body + "garbage", 400, "MALFORMED_JSON");
}

TEST_F(BadInput, TheGoodRequestStillWorksAfterAllThat) {
  auto c = server_->Client();
  auto r = PostAnalysis(c, Good());
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body)["spots"][0]["analysis_status"], "OK");
}

}  // namespace
}  // namespace nunchi::testing
