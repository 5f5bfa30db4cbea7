#include "engines/remote/remote_pool.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "engines/remote/remote_test_util.h"

namespace nunchi::remote {
namespace {

using namespace std::chrono_literals;
using nunchi::Clock;
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

// A task of bundle `post` (the affinity key is spot id + post id).
JudgeTask TaskOf(const std::string& post) {
  JudgeTask task = MakeTask();
  task.bundle.post_id = post;
  return task;
}

// Waits (bounded) until `done` holds; false when it never did.
template <typename F>
bool WaitFor(F done, std::chrono::milliseconds at_most = 10s) {
  for (auto until = Clock::now() + at_most; Clock::now() < until;) {
    if (done()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return done();
}

TEST(RemotePoolAffinityTest, ABundleGoesToTheSameServerEveryTime) {
  std::vector<std::unique_ptr<FakeOpenAiServer>> servers;
  std::vector<std::shared_ptr<RemoteJudge>> members;
  for (int i = 0; i < 4; ++i) {
    servers.push_back(std::make_unique<FakeOpenAiServer>(Answer));
    members.push_back(Member(*servers.back(), "m" + std::to_string(i)));
  }
  RemotePool pool("p", members, PoolOptions{});
  std::map<std::string, std::set<std::string>> judged_by;
  std::set<std::string> used;
  for (int round = 0; round < 3; ++round)
    for (int b = 0; b < 24; ++b) {
      auto out = pool.JudgeBundle(TaskOf("post-" + std::to_string(b)));
      ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
      judged_by["post-" + std::to_string(b)].insert(out[0]->judge);
      used.insert(out[0]->judge);
    }
  for (const auto& [post, judges] : judged_by) EXPECT_EQ(judges.size(), 1u) << post;
  EXPECT_GE(used.size(), 3u);  // 24 bundles spread over the 4 servers
  EXPECT_EQ(pool.stats().home, 72u);
  EXPECT_EQ(pool.stats().spilled, 0u);
}

TEST(RemotePoolAffinityTest, AFullServerSpillsToTheNextOne) {
  std::atomic<bool> hold{true};
  auto held = [&hold](const httplib::Request& req, httplib::Response& res) {
    while (hold) std::this_thread::sleep_for(2ms);
    Answer(req, res);
  };
  FakeOpenAiServer a(held), b(held);
  RemotePool pool("p", {Member(a, "a"), Member(b, "b")}, PoolOptions{});
  const JudgeTask task = TaskOf("hot");
  const size_t home = pool.HomeOf(RemotePool::AffinityKey(task));
  ASSERT_NE(home, kNoMember);
  // Same bundle three times at once: with 2 servers and epsilon 0.25 the home
  // takes 2 (bound ceil(1.25 * 2 / 2)), the third is over ceil(1.25 * 3 / 2) = 2.
  std::vector<std::thread> calls;
  std::vector<std::string> judges(3);
  for (int i = 0; i < 3; ++i) {
    calls.emplace_back([&, i] {
      auto out = pool.JudgeBundle(task);
      if (out[0].ok()) judges[static_cast<size_t>(i)] = out[0]->judge;
    });
    ASSERT_TRUE(WaitFor([&] { return a.requests() + b.requests() == i + 1; }));
  }
  hold = false;
  for (auto& t : calls) t.join();
  const std::string home_name = home == 0 ? "remote:a" : "remote:b";
  EXPECT_EQ(judges[0], home_name);
  EXPECT_EQ(judges[1], home_name);
  EXPECT_NE(judges[2], home_name);
  EXPECT_FALSE(judges[2].empty());
  EXPECT_EQ(pool.stats().spilled, 1u);
}

TEST(RemotePoolAffinityTest, ADownServersKeysMoveAndComeBack) {
  std::atomic<bool> down{false};
  auto flaky = [&down](const httplib::Request& req, httplib::Response& res) {
    if (down) {
      res.status = 503;
      return;
    }
    Answer(req, res);
  };
  FakeOpenAiServer s0(Answer), s1(flaky), s2(Answer);
  auto m1 = [&] {
    auto o = OptionsFor(s1);
    o.name = "s1";
    o.retries = 0;
    o.breaker_failure_threshold = 1;
    o.breaker_open_for = 1500ms;  // long enough for the loops below
    return std::shared_ptr<RemoteJudge>(RemoteJudge::Create(o).value());
  }();
  RemotePool pool("p", {Member(s0, "s0"), m1, Member(s2, "s2")}, PoolOptions{});
  std::vector<std::string> on_s1, elsewhere;
  std::map<std::string, size_t> home;
  for (int b = 0; b < 60; ++b) {
    std::string post = "post-" + std::to_string(b);
    home[post] = pool.HomeOf(RemotePool::AffinityKey(TaskOf(post)));
    (home[post] == 1 ? on_s1 : elsewhere).push_back(post);
  }
  ASSERT_FALSE(on_s1.empty());
  ASSERT_FALSE(elsewhere.empty());
  down = true;
  // The first call to s1 fails over to the next server and opens s1's breaker.
  auto out = pool.JudgeBundle(TaskOf(on_s1[0]));
  ASSERT_TRUE(out[0].ok()) << out[0].status().ToString();
  EXPECT_NE(out[0]->judge, "remote:s1");
  EXPECT_EQ(pool.stats().failed_over, 1u);
  ASSERT_FALSE(pool.MemberReady(1));
  const int s1_requests = s1.requests();
  for (const auto& post : on_s1) {
    auto o = pool.JudgeBundle(TaskOf(post));
    ASSERT_TRUE(o[0].ok());
    EXPECT_NE(o[0]->judge, "remote:s1");
  }
  for (const auto& post : elsewhere) {  // only s1's keys moved
    auto o = pool.JudgeBundle(TaskOf(post));
    ASSERT_TRUE(o[0].ok());
    EXPECT_EQ(o[0]->judge, home[post] == 0 ? "remote:s0" : "remote:s2");
  }
  EXPECT_EQ(s1.requests(), s1_requests);  // an open breaker is out of the ring
  EXPECT_GE(pool.stats().moved, on_s1.size());
  // s1 recovers; once its breaker lets a probe call through, its keys return.
  down = false;
  ASSERT_TRUE(WaitFor([&] { return pool.MemberReady(1); }));
  for (const auto& post : on_s1) {
    auto o = pool.JudgeBundle(TaskOf(post));
    ASSERT_TRUE(o[0].ok());
    EXPECT_EQ(o[0]->judge, "remote:s1") << post;
  }
}

}  // namespace
}  // namespace nunchi::remote
