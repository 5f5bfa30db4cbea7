#include "bench/oracle_server.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace nunchi::bench {
namespace {

std::vector<judges::LabeledBundle> OneBundle() {
  std::istringstream in(R"json({"bundle_id":"b","spot":{"spot_id":"s","name":"역 3번 출구","description":"출구 앞 (계단 포함)"},"post":{"signal_id":"p","author_id":"u1","minutes_ago":3,"text":"줄이  끝이 안 보여요","label":{"relevance":"RELEVANT","level":"HIGH","cause":"EVENT"}},"comments":[{"signal_id":"c1","author_id":"u2","minutes_ago":1,"text":"ㅋㅋ","label":{"relevance":"IRRELEVANT","level":"UNKNOWN","cause":"NONE"}}]})json");
  return judges::ReadBundlesJsonl(in).value();
}

nlohmann::json Ask(const OracleServer& oracle, const std::string& extra_line = "") {
  std::string user =
      "Spot: 역 3번 출구 (출구 앞 (계단 포함))\nThread (#1 is the post):\n"
      "#1 u1 11:57: 줄이 끝이 안 보여요\n#2 u2 11:59: ㅋㅋ\n" +
      extra_line + "Now: 12:00\nJudge: #1 #2" + (extra_line.empty() ? "" : " #3");
  nlohmann::json body = {{"model", "oracle"},
                         {"messages", {{{"role", "system"}, {"content", "x"}},
                                       {{"role", "user"}, {"content", user}}}}};
  std::string url = oracle.base_url();
  httplib::Client c(url.substr(0, url.size() - 3));
  auto r = c.Post("/v1/chat/completions", body.dump(), "application/json");
  EXPECT_TRUE(r);
  auto doc = nlohmann::json::parse(r->body);
  return nlohmann::json::parse(doc["choices"][0]["message"]["content"].get<std::string>());
}

TEST(OracleServer, AnswersTheGoldLabelAtPOne) {
  OracleServer oracle(OneBundle(), {1.0, 7, 0, 0});
  auto out = Ask(oracle);
  EXPECT_EQ(out["#1"]["r"], "RELEVANT");
  EXPECT_EQ(out["#1"]["l"], "HIGH");
  EXPECT_EQ(out["#1"]["c"], "EVENT");
  EXPECT_EQ(out["#2"]["r"], "IRRELEVANT");
  EXPECT_EQ(oracle.unknown_items(), 0u);
  EXPECT_EQ(oracle.items(), 2u);
}

TEST(OracleServer, AnswersWrongAtPZeroAndCountsUnknownSignals) {
  OracleServer oracle(OneBundle(), {0.0, 7, 0, 0});
  auto out = Ask(oracle, "#3 u3 11:59: 처음 보는 글\n");
  const bool first_right = out["#1"]["r"] == "RELEVANT" && out["#1"]["l"] == "HIGH";
  EXPECT_FALSE(first_right);
  EXPECT_EQ(out["#2"]["r"], "RELEVANT");  // an IRRELEVANT gold becomes RELEVANT
  EXPECT_EQ(out["#3"]["r"], "IRRELEVANT");
  EXPECT_EQ(oracle.unknown_items(), 1u);
}

}  // namespace
}  // namespace nunchi::bench
