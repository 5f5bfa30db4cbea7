#include "domain/trace_context.h"

#include <gtest/gtest.h>

#include <set>

namespace nunchi {
namespace {

constexpr const char* kParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(TraceContext, ValidatesTheW3cFormat) {
  EXPECT_TRUE(ValidTraceparent(kParent));
  EXPECT_FALSE(ValidTraceparent(""));
  EXPECT_FALSE(ValidTraceparent("00-zz-not-a-trace-01"));
  EXPECT_FALSE(ValidTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"));
  EXPECT_FALSE(ValidTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"));
  EXPECT_FALSE(ValidTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"));
  EXPECT_FALSE(ValidTraceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
  EXPECT_FALSE(ValidTraceparent(std::string(kParent) + "-x"));  // version 00 has no more
  EXPECT_TRUE(ValidTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x"));
}

TEST(TraceContext, ChildKeepsTraceIdAndFlagsWithANewSpan) {
  std::set<std::string> spans;
  for (int i = 0; i < 50; ++i) {
    const std::string child = ChildTraceparent(kParent);
    ASSERT_TRUE(ValidTraceparent(child)) << child;
    EXPECT_EQ(TraceIdOf(child), "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_EQ(child.substr(53), "01");
    EXPECT_NE(SpanIdOf(child), "00f067aa0ba902b7");
    spans.insert(SpanIdOf(child));
  }
  EXPECT_EQ(spans.size(), 50u);  // a new span per call
  // A later version's child is version 00 with the same ids and flags.
  const std::string v1 =
      ChildTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-future");
  EXPECT_EQ(v1.substr(0, 3), "00-");
  EXPECT_EQ(TraceIdOf(v1), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(v1.substr(53), "00");
}

TEST(TraceContext, WithoutAParentAChildStartsATrace) {
  const std::string a = ChildTraceparent(""), b = ChildTraceparent("garbage");
  ASSERT_TRUE(ValidTraceparent(a)) << a;
  ASSERT_TRUE(ValidTraceparent(b)) << b;
  EXPECT_NE(TraceIdOf(a), TraceIdOf(b));
  EXPECT_TRUE(ValidTraceparent(NewTraceparent()));
  EXPECT_EQ(TraceIdOf("nope"), "");
}

}  // namespace
}  // namespace nunchi
