#include "engines/remote/sse.h"

#include <gtest/gtest.h>

#include <vector>

namespace nunchi::remote {
namespace {

TEST(SseReaderTest, ReassemblesEventsSplitAnywhere) {
  const std::string stream =
      ": keep-alive\n\ndata: {\"a\":1}\n\nevent: x\r\ndata: line1\r\ndata: line2\r\n\r\n"
      "data: [DONE]\n\n";
  for (size_t step : {1u, 2u, 5u, 1000u}) {
    SseReader reader;
    std::vector<std::string> got;
    for (size_t i = 0; i < stream.size(); i += step) {
      reader.Feed(std::string_view(stream).substr(i, step), [&](std::string_view d) {
        got.emplace_back(d);
        return true;
      });
    }
    EXPECT_EQ(got, (std::vector<std::string>{"{\"a\":1}", "line1\nline2", "[DONE]"})) << step;
  }
}

TEST(SseReaderTest, StopsWhenAsked) {
  SseReader reader;
  int seen = 0;
  auto on = [&](std::string_view) { return ++seen < 2; };
  EXPECT_FALSE(reader.Feed("data: 1\n\ndata: 2\n\ndata: 3\n\n", on));
  EXPECT_EQ(seen, 2);
  EXPECT_FALSE(reader.Feed("data: 4\n\n", on));
  EXPECT_EQ(seen, 2);
}

TEST(SseReaderTest, FinishFlushesAnUnterminatedEvent) {
  SseReader reader;
  std::vector<std::string> got;
  auto on = [&](std::string_view d) {
    got.emplace_back(d);
    return true;
  };
  reader.Feed("data: tail", on);
  EXPECT_TRUE(got.empty());
  reader.Finish(on);
  EXPECT_EQ(got, (std::vector<std::string>{"tail"}));
}

// Found by fuzz_sse: Finish ends the stream, so a later Feed is ignored.
TEST(SseReaderTest, NothingIsReadAfterFinish) {
  SseReader reader;
  int seen = 0;
  auto on = [&](std::string_view) { return ++seen > 0; };
  EXPECT_TRUE(reader.Finish(on));
  EXPECT_FALSE(reader.Feed("data: late\n\n", on));
  EXPECT_FALSE(reader.Finish(on));
  EXPECT_EQ(seen, 0);
}

}  // namespace
}  // namespace nunchi::remote
