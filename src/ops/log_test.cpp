#include "ops/log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace nunchi {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(Log, JsonLinesCarryTimeLevelEventAndFields) {
  std::ostringstream out;
  ConfigureLog(LogFormat::kJson, LogLevel::kInfo, &out);
  LogEvent(LogLevel::kInfo, "http_request", "POST /x 200",
           {{"request_id", "r-1"},
            {"status", 200},
            {"latency_ms", 1.5},
            {"ok", true},
            {"quote", "a \"b\"\n"}});
  LogEvent(LogLevel::kDebug, "dropped", "below the level");
  auto lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 1u) << out.str();
  auto j = nlohmann::json::parse(lines[0]);
  EXPECT_TRUE(std::regex_match(j["time"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00)")))
      << j["time"];
  EXPECT_EQ(j["level"], "info");
  EXPECT_EQ(j["event"], "http_request");
  EXPECT_EQ(j["msg"], "POST /x 200");
  EXPECT_EQ(j["request_id"], "r-1");
  EXPECT_EQ(j["status"], 200);
  EXPECT_EQ(j["latency_ms"], 1.5);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["quote"], "a \"b\"\n");
}

TEST(Log, TextLinesAndLevels) {
  std::ostringstream out;
  ConfigureLog(LogFormat::kText, LogLevel::kWarn, &out);
  LogEvent(LogLevel::kInfo, "hidden", "info is below warn");
  LogEvent(LogLevel::kError, "store_failed", "disk full", {{"path", "/data x"}, {"code", 28}});
  auto lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 1u) << out.str();
  EXPECT_TRUE(std::regex_search(lines[0], std::regex(R"(^\d{4}-\d\d-\d\dT[0-9:.]+\+00:00 error )")))
      << lines[0];
  EXPECT_NE(lines[0].find("store_failed disk full path=\"/data x\" code=28"), std::string::npos)
      << lines[0];
  EXPECT_FALSE(LogEnabled(LogLevel::kInfo));
  EXPECT_TRUE(LogEnabled(LogLevel::kError));
}

TEST(Log, ExternalFragmentsBecomeOneEventPerLine) {
  std::ostringstream out;
  ConfigureLog(LogFormat::kJson, LogLevel::kInfo, &out);
  LogExternal("llama.cpp", LogLevel::kWarn, "load: ");
  LogExternal("llama.cpp", LogLevel::kWarn, "missing tensor\nsecond line\n");
  LogExternal("llama.cpp", LogLevel::kDebug, "debug is below info\n");
  auto lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  auto a = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(a["event"], "external");
  EXPECT_EQ(a["source"], "llama.cpp");
  EXPECT_EQ(a["level"], "warning");
  EXPECT_EQ(a["msg"], "load: missing tensor");
  EXPECT_EQ(nlohmann::json::parse(lines[1])["msg"], "second line");
  LogLevel l;
  EXPECT_TRUE(ParseLogLevel("debug", &l));
  EXPECT_EQ(l, LogLevel::kDebug);
  EXPECT_FALSE(ParseLogLevel("loud", &l));
  LogFormat f;
  EXPECT_FALSE(ParseLogFormat("xml", &f));
  ConfigureLog(LogFormat::kJson, LogLevel::kInfo);  // back to stderr
}

}  // namespace
}  // namespace nunchi
