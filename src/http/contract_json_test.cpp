#include "http/contract_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http/problem.h"

namespace nunchi {
namespace {

using nlohmann::json;

json Example() {
  return json::parse(R"({
    "analyzed_at": "2026-11-29T18:40:00+09:00", "state_epoch": "e-7f3a",
    "spots": [{"spot_id": "s1", "name": "강남역 11번 출구", "description": "출구 앞",
      "bundles": [{"post_id": "p9",
        "post": {"signal_id": "p9", "author_id": "u1", "created_at": "2026-11-29T18:30:00+09:00", "text": "사람 많아요"},
        "comments": [{"signal_id": "c31", "author_id": "u2", "created_at": "2026-11-29T18:35:00+09:00", "text": "저도요"}]}]}],
    "new_signals": [{"kind": "COMMENT", "signal_id": "c31", "post_id": "p9"}]})");
}

bool Has(const std::vector<FieldError>& errs, const std::string& pointer) {
  for (const auto& e : errs)
    if (e.pointer == pointer) return true;
  return false;
}

TEST(ContractJson, ParsesTheDesignExample) {
  std::vector<FieldError> errs;
  auto r = ParseAnalysisRequest(Example(), &errs);
  ASSERT_TRUE(r) << (errs.empty() ? "" : errs[0].pointer + ": " + errs[0].detail);
  EXPECT_EQ(r->state_epoch, "e-7f3a");
  ASSERT_EQ(r->spots.size(), 1u);
  EXPECT_EQ(r->spots[0].info.name, "강남역 11번 출구");
  EXPECT_EQ(r->spots[0].bundles[0].comments[0].text, "저도요");
  EXPECT_EQ(r->new_signals[0].kind, SignalKind::kComment);
  EXPECT_EQ(r->analyzed_at.ms - r->spots[0].bundles[0].post.created_at.ms, 10 * 60'000);
}

TEST(ContractJson, CollectsEveryFieldErrorWithPointers) {
  json j = Example();
  j["analyzed_at"] = "yesterday";
  j["spots"][0]["bundles"][0]["comments"][0]["text"] = 5;
  j["spots"][0]["bundles"][0]["post"].erase("author_id");
  j["new_signals"][0]["kind"] = "REPLY";
  std::vector<FieldError> errs;
  EXPECT_FALSE(ParseAnalysisRequest(j, &errs));
  EXPECT_TRUE(Has(errs, "/analyzed_at"));
  EXPECT_TRUE(Has(errs, "/spots/0/bundles/0/comments/0/text"));
  EXPECT_TRUE(Has(errs, "/spots/0/bundles/0/post/author_id"));
  EXPECT_TRUE(Has(errs, "/new_signals/0/kind"));
  EXPECT_EQ(errs.size(), 4u);
}

TEST(ContractJson, StateEpochAndBundlesAreOptional) {
  json j = Example();
  j.erase("state_epoch");
  j["spots"][0].erase("bundles");
  j["new_signals"] = json::array();
  std::vector<FieldError> errs;
  auto r = ParseAnalysisRequest(j, &errs);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->state_epoch.has_value());
  EXPECT_TRUE(r->spots[0].bundles.empty());
}

TEST(ContractJson, SerializesOkAndFailedSpotsWithNulls) {
  AnalysisResponse resp{"2026-11-29T18:40:00+09:00", "e-1", {}};
  SpotResult ok{"s1", AnalysisStatus::kOk, Level::kHigh, Cause::kIncident,
                std::string("2호선 고장"), 4, std::string("2026-11-29T18:39:00+09:00")};
  SpotResult unknown{"s2", AnalysisStatus::kOk, Level::kUnknown, {}, {}, 0, {}};
  SpotResult failed{"s3", AnalysisStatus::kFailed, {}, {}, {}, {}, {}};
  resp.spots = {ok, unknown, failed};
  json j = json::parse(SerializeAnalysisResponse(resp));
  EXPECT_EQ(j["spots"][0]["congestion_level"], "HIGH");
  EXPECT_EQ(j["spots"][0]["cause_code"], "INCIDENT");
  EXPECT_EQ(j["spots"][0]["report_count"], 4);
  EXPECT_EQ(j["spots"][1]["congestion_level"], "UNKNOWN");
  EXPECT_TRUE(j["spots"][1]["cause_code"].is_null());
  EXPECT_TRUE(j["spots"][1]["cause_summary"].is_null());
  EXPECT_EQ(j["spots"][1]["report_count"], 0);
  EXPECT_EQ(j["spots"][2]["analysis_status"], "FAILED");
  for (const char* k :
       {"congestion_level", "cause_code", "cause_summary", "report_count", "last_reported_at"})
    EXPECT_TRUE(j["spots"][2][k].is_null()) << k;
  EXPECT_EQ(j["state_epoch"], "e-1");
}

TEST(Problem, BodyCarriesCodeTypeAndErrors) {
  Problem p = MakeProblem(422, "INVALID_REQUEST", "bad");
  p.errors.push_back({"/spots/0", "nope"});
  json j = json::parse(ProblemBody(p, "/v1/congestion-analyses"));
  EXPECT_EQ(j["status"], 422);
  EXPECT_EQ(j["code"], "INVALID_REQUEST");
  EXPECT_EQ(j["type"], "https://nunchi.dev/problems/invalid-request");
  EXPECT_EQ(j["errors"][0]["pointer"], "/spots/0");
  EXPECT_EQ(ProblemFromStatus(Status(ErrorCode::kStateReset, "x")).status, 409);
  EXPECT_EQ(ProblemFromStatus(Status(ErrorCode::kStateReset, "x")).code, "STATE_RESET");
}

TEST(ContractJson, NumberOutOfRangeIsA422WithItsPointer) {
  json out;
  auto r =
      ParseJsonBody(R"({"analyzed_at": "x", "spots": [{"spot_id": "a"}, {"n": 1e400}]})", &out);
  EXPECT_EQ(r.kind, BodyParse::kOutOfRange);
  EXPECT_EQ(r.pointer, "/spots/1/n");
  EXPECT_EQ(r.detail.find("json.exception"), std::string::npos) << "no library text";
  std::string big = "{\"a/b\": [0, [1, 2], {\"k\": " + std::string(10000, '9') + "}]}";
  r = ParseJsonBody(big, &out);
  EXPECT_EQ(r.kind, BodyParse::kOutOfRange);
  EXPECT_EQ(r.pointer, "/a~1b/2/k");
  r = ParseJsonBody("[-1e400]", &out);
  EXPECT_EQ(r.kind, BodyParse::kOutOfRange);
  EXPECT_EQ(r.pointer, "/0");
  EXPECT_EQ(ParseJsonBody("{\"a\": 1.5e300, \"b\": [18446744073709551615]}", &out).kind,
            BodyParse::kOk);
}

TEST(ContractJson, BytesAfterTheValueAreMalformed) {
  json out;
  EXPECT_EQ(ParseJsonBody(std::string("{\"a\": 1}\0garbage", 16), &out).kind,
            BodyParse::kMalformed);
  EXPECT_EQ(ParseJsonBody("{\"a\": 1} garbage", &out).kind, BodyParse::kMalformed);
  EXPECT_EQ(ParseJsonBody("{\"a\": 1}{}", &out).kind, BodyParse::kMalformed);
  EXPECT_EQ(ParseJsonBody("{\"a\": 1}  \n", &out).kind, BodyParse::kOk);
  EXPECT_EQ(ParseJsonBody("\"\xff\"", &out).kind, BodyParse::kMalformed) << "not UTF-8";
}

}  // namespace
}  // namespace nunchi
