#include "engines/remote/remote_pool.h"

#include <gtest/gtest.h>

#include <set>

#include "engines/remote/remote_test_util.h"

namespace nunchi::remote {
namespace {

using namespace std::chrono_literals;
using testing::CompletionBody;
using testing::FakeOpenAiServer;
using testing::kGoodAnswer;
using testing::MakeTask;
using testing::OptionsFor;

std::shared_ptr<RemoteJudge> Member(const FakeOpenAiServer& server, const std::string& name) {
  auto o = OptionsFor(server);
  o.name = name;
  o.retries = 0;
  o.breaker_failure_threshold = 1;
  o.breaker_open_for = 60s;
  auto judge = RemoteJudge::Create(o);
  return judge.ok() ? std::shared_ptr<RemoteJudge>(std::move(judge).value()) : nullptr;
}

void Answer(const httplib::Request&, httplib::Response& res) {
  res.set_content(CompletionBody(kGoodAnswer), "application/json");
}

TEST(RemotePoolTest, RoundRobinSpreadsCalls) {
  FakeOpenAiServer a(Answer), b(Answer);
  RemotePool pool("p", {Member(a, "a"), Member(b, "b")}, PoolPolicy::kRoundRobin);
  EXPECT_EQ(pool.name(), "remote-pool:p");
  std::set<std::string> judges;
  for (int i = 0; i < 4; ++i) {
    auto out = pool.JudgeBundle(MakeTask());
    ASSERT_TRUE(out[0].ok());
    judges.insert(out[0]->judge);
  }
  EXPECT_EQ(a.requests(), 2);
  EXPECT_EQ(b.requests(), 2);
  EXPECT_EQ(judges, (std::set<std::string>{"remote:a", "remote:b"}));
}

TEST(RemotePoolTest, FailsOverAndSkipsAnOpenBreaker) {
  FakeOpenAiServer down([](const httplib::Request&, httplib::Response& res) { res.status = 503; });
  FakeOpenAiServer up(Answer);
  RemotePool pool("p", {Member(down, "down"), Member(up, "up")}, PoolPolicy::kRoundRobin);
  for (int i = 0; i < 4; ++i) {
    auto out = pool.JudgeBundle(MakeTask());
    ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
    EXPECT_EQ(out[0]->judge, "remote:up");
  }
  EXPECT_EQ(down.requests(), 1);  // then its breaker opened and the pool skipped it
  EXPECT_FALSE(pool.members()[0]->Ready());
  EXPECT_TRUE(pool.Ready());
}

TEST(RemotePoolTest, LeastBusyPrefersTheIdleMember) {
  auto slow = [](const httplib::Request& req, httplib::Response& res) {
    std::this_thread::sleep_for(300ms);
    Answer(req, res);
  };
  auto a = std::make_unique<FakeOpenAiServer>(slow);
  auto b = std::make_unique<FakeOpenAiServer>(slow);
  RemotePool pool("p", {Member(*a, "a"), Member(*b, "b")}, PoolPolicy::kLeastBusy);
  // One long call occupies a member; the next call must go to the other one.
  std::string first;
  std::thread busy([&] {
    auto out = pool.JudgeBundle(MakeTask());
    if (out[0].ok()) first = out[0]->judge;
  });
  for (int i = 0; i < 200 && a->requests() + b->requests() == 0; ++i) {
    std::this_thread::sleep_for(2ms);
  }
  auto out = pool.JudgeBundle(MakeTask());
  busy.join();
  ASSERT_TRUE(out[0].ok());
  ASSERT_FALSE(first.empty());
  EXPECT_NE(out[0]->judge, first);
  EXPECT_EQ(a->requests(), 1);
  EXPECT_EQ(b->requests(), 1);
}

TEST(RemotePoolTest, NoMemberReadyIsUnavailable) {
  RemotePool pool("empty", {});
  EXPECT_FALSE(pool.Ready());
  auto out = pool.JudgeBundle(MakeTask());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].status().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace nunchi::remote
