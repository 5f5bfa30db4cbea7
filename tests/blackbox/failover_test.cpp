// Two `nunchi serve` replicas on one PostgreSQL behind HAProxy (all on
// loopback), driven through the load balancer. One replica is killed with
// SIGKILL in the middle of the run: every cycle is still answered (200,
// within the 50 s contract) by the other, with no STATE_RESET and one epoch
// throughout; no acknowledged judgment is lost (every signal has its row in
// PostgreSQL); no signal is judged twice (the replicas' judged-signal counters
// add up to the signals sent); and the killed replica, restarted, rejoins and
// answers again. A second test kills a replica *while* it answers a cycle
// (its model server, a fake, holds the call so that the kill lands in
// flight). Label postgres: it fails under CI=true when PostgreSQL or
// HAProxy cannot be started, and skips with the reason elsewhere.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "blackbox/cycle.h"
#include "blackbox/server_process.h"
#include "engines/remote/fake_openai_server.h"
#include "ops/child_process.h"
#include "store/pg_test_server.h"

namespace nunchi::testing {
namespace {

const char* kTexts[] = {
    "지금 사람 너무 많아서 발 디딜 틈도 없어요 줄이 끝이 안 보여요",
    "대기 1시간 넘는다고 하네요 완전 미어터짐",
    "지금 완전 한산해요 줄 하나도 없어요",
};

std::string FindHaproxy() {
  for (const char* p : {"/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

#define NEED(cond, why)                                                           \
  if (!(cond)) {                                                                  \
    if (PgTestServer::MustFailWithoutServer()) FAIL() << "CI=true and " << (why); \
    GTEST_SKIP() << "SKIPPED (set CI=true to make this a failure): " << (why);    \
  }

// The load balancer as docs/deploy.md shows it: round robin, health check
// on /readyz every 500 ms, a connection refused or an empty response (a
// replica killed while answering) retried on the other server.
bool StartHaproxy(const std::string& haproxy, const std::string& dir, int port_lb, int port_a,
                  int port_b, ChildProcess* lb, std::string* why) {
  const std::string cfg = dir + "/haproxy.cfg";
  {
    std::ofstream f(cfg);
    f << "global\n  maxconn 256\n  log stderr format raw local0 info\n"
         "defaults\n  mode http\n  log global\n  option httplog\n  timeout connect 1s\n"
         "  timeout client 60s\n  timeout server 60s\n  option http-buffer-request\n  retries 3\n"
         "  option redispatch\n"
         "  retry-on conn-failure empty-response junk-response response-timeout\n"
         "frontend nunchi\n  bind 127.0.0.1:"
      << port_lb
      << "\n  default_backend replicas\n"
         "backend replicas\n  balance roundrobin\n  option httpchk GET /readyz\n"
         "  default-server inter 500ms fall 2 rise 2\n"
         "  server a 127.0.0.1:"
      << port_a << " check\n  server b 127.0.0.1:" << port_b << " check\n";
  }
  return lb->Spawn({haproxy, "-db", "-f", cfg}, SpawnOptions(dir + "/haproxy.log"), why);
}

double Judged(httplib::Client& c) {
  double v = Metric(c, "nunchi_signals_total", "{disposition=\"judged\"}");
  return v < 0 ? 0 : v;
}

// Polls /readyz through HAProxy until a replica answers (5 s at most);
// fails at once if HAProxy exits.
::testing::AssertionResult WaitForLoadBalancer(httplib::Client& c, ChildProcess& lb) {
  for (int i = 0; i < 250; ++i) {
    if (auto r = c.Get("/readyz"); r && r->status == 200) return ::testing::AssertionSuccess();
    if (lb.Exited()) return ::testing::AssertionFailure() << "haproxy exited";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ::testing::AssertionSuccess();  // the cycles below then say what is wrong
}

TEST(Failover, AKilledReplicaLosesNothingAndRejoins) {
  PgTestServer pg;
  std::string why;
  NEED(pg.Start(&why), "PostgreSQL could not be started: " + why);
  NEED(pg.CreateDatabase("failover", &why), why);
  const std::string haproxy = FindHaproxy();
  NEED(!haproxy.empty(), std::string("haproxy is not installed (Debian package `haproxy`)"));
  const std::string url = pg.Url("failover");
  const int port_a = FreePort(), port_b = FreePort(), port_lb = FreePort();
  ASSERT_TRUE(port_a && port_b && port_lb);
  const std::string dir_a = TempDir("replica-a"), dir_b = TempDir("replica-b"),
                    dir_lb = TempDir("haproxy");
  auto start = [&](const std::string& dir, int port) {
    return std::make_unique<ServerProcess>(
        dir, std::vector<std::string>{"--port", std::to_string(port), "--store", url});
  };
  auto a = start(dir_a, port_a);
  auto b = getenv("NUNCHI_FAILOVER_MUTANT")  // a replica on its own SQLite: must fail
               ? std::make_unique<ServerProcess>(
                     dir_b, std::vector<std::string>{"--port", std::to_string(port_b)})
               : start(dir_b, port_b);

  ChildProcess lb;
  ASSERT_TRUE(StartHaproxy(haproxy, dir_lb, port_lb, port_a, port_b, &lb, &why)) << why;
  httplib::Client c("127.0.0.1", port_lb);
  c.set_read_timeout(60, 0);
  c.set_connection_timeout(5, 0);
  ASSERT_TRUE(WaitForLoadBalancer(c, lb));

  Backend be(0, "f");
  const std::vector<std::string> spots = {"s1", "s2", "s3"};
  std::map<std::string, std::string> post;
  for (const auto& s : spots) be.AddSpot(s, "장소 " + s);
  int sent = 0;
  std::string epoch;
  double judged_by_a_before_kill = 0;
  auto cycle = [&](int n) {
    be.Advance(1);
    for (size_t k = 0; k < spots.size(); ++k) {
      const std::string& s = spots[k];
      const char* text = kTexts[(n + k) % 3];
      if (!post.count(s))
        post[s] = be.Post(s, "u" + std::to_string(n), text, 0);
      else
        be.Comment(s, post[s], "u" + std::to_string(n * 10 + k), text, 0);
      ++sent;
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto r = PostAnalysis(c, be.Request());
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(r) << "cycle " << n << ": no answer through haproxy";
    ASSERT_EQ(r->status, 200) << "cycle " << n << ": " << r->body;
    EXPECT_LT(secs, 50.0) << "cycle " << n;
    auto j = nlohmann::json::parse(r->body);
    for (const auto& s : j["spots"]) EXPECT_EQ(s["analysis_status"], "OK") << "cycle " << n;
    if (epoch.empty()) epoch = j["state_epoch"];
    EXPECT_EQ(j["state_epoch"], epoch) << "cycle " << n << ": the epoch changed";
    be.Acknowledge(j);
  };

  for (int n = 0; n < 6; ++n) {
    cycle(n);
    if (HasFatalFailure()) return;
  }
  {
    auto ca = a->Client();
    judged_by_a_before_kill = Judged(ca);
  }
  EXPECT_GT(judged_by_a_before_kill, 0) << "round robin never reached replica a";
  a->Kill9();
  for (int n = 6; n < 12; ++n) {
    cycle(n);
    if (HasFatalFailure()) return;
  }
  // The killed replica restarts on its port and rejoins.
  a = start(dir_a, port_a);
  auto ca = a->Client();
  for (int i = 0; i < 100 && Judged(ca) == 0; ++i) {
    cycle(12 + i);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(Judged(ca), 0) << "the restarted replica got no work through haproxy";
  auto cb = b->Client();
  std::printf(
      "failover: %d signals sent; judged by a %.0f before the kill, %.0f after its "
      "restart; by b %.0f\n",
      sent, judged_by_a_before_kill, Judged(ca), Judged(cb));
  // No signal judged twice, none lost.
  EXPECT_EQ(judged_by_a_before_kill + Judged(ca) + Judged(cb), sent);
  EXPECT_EQ(Metric(cb, "nunchi_state_resets_total", "{reason=\"epoch\"}") <= 0, true);
  auto rows = pg.Query("failover", "SELECT count(*) FROM judgments", &why);
  ASSERT_TRUE(rows) << why;
  EXPECT_EQ(std::stoi(*rows), sent) << "acknowledged judgments missing from PostgreSQL";
  lb.Stop();
}

// A fake model server per replica. It answers "{}" at once (invalid for every
// target, so the default judge answers after the remote judge's one retry,
// and the breaker stays closed), or, while `hold` is set, keeps the call open
// until it is cleared: the replica is then inside a cycle, its bundles claimed.
struct ModelServer {
  std::atomic<bool> hold{false};
  remote::testing::FakeOpenAiServer server{[this](const httplib::Request&, httplib::Response& res) {
    while (hold && !server.stopping()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    res.set_content(remote::testing::CompletionBody("{}"), "application/json");
  }};
  ~ModelServer() { hold = false; }
};

TEST(Failover, AReplicaKilledDuringACycleLosesNothing) {
  PgTestServer pg;
  std::string why;
  NEED(pg.Start(&why), "PostgreSQL could not be started: " + why);
  NEED(pg.CreateDatabase("inflight", &why), why);
  const std::string haproxy = FindHaproxy();
  NEED(!haproxy.empty(), std::string("haproxy is not installed (Debian package `haproxy`)"));
  const std::string url = pg.Url("inflight");
  const int port_a = FreePort(), port_b = FreePort(), port_lb = FreePort();
  ASSERT_TRUE(port_a && port_b && port_lb);
  ModelServer model_a, model_b;
  // A 4 s deadline: a dead replica's claims lapse after it and the 15 s margin.
  auto start = [&](const std::string& tag, int port, const ModelServer& m) {
    return std::make_unique<ServerProcess>(
        TempDir(tag),
        std::vector<std::string>{"--port", std::to_string(port), "--store", url, "--deadline-ms",
                                 "4000", "--route", "remote,default", "--backend", "openai",
                                 "--base-url", m.server.base_url(), "--remote-model", "fake"});
  };
  auto a = start("inflight-a", port_a, model_a);
  auto b = start("inflight-b", port_b, model_b);
  ChildProcess lb;
  ASSERT_TRUE(StartHaproxy(haproxy, TempDir("inflight-lb"), port_lb, port_a, port_b, &lb, &why))
      << why;
  httplib::Client c("127.0.0.1", port_lb);
  c.set_read_timeout(60, 0);
  c.set_connection_timeout(5, 0);
  ASSERT_TRUE(WaitForLoadBalancer(c, lb));

  Backend be(0, "k");
  const std::vector<std::string> spots = {"s1", "s2", "s3"};
  std::map<std::string, std::string> post;
  for (const auto& s : spots) be.AddSpot(s, "장소 " + s);
  int sent = 0, n = 0;
  std::string epoch;
  auto add_signals = [&] {
    be.Advance(1);
    for (size_t k = 0; k < spots.size(); ++k) {
      const std::string& s = spots[k];
      const char* text = kTexts[(n + k) % 3];
      if (!post.count(s))
        post[s] = be.Post(s, "u" + std::to_string(n), text, 0);
      else
        be.Comment(s, post[s], "u" + std::to_string(n * 10 + k), text, 0);
      ++sent;
    }
    ++n;
  };
  // One cycle: 200 within 50 s with the same epoch; the signals stay new
  // (resent next cycle) unless every spot is OK. Returns the FAILED spots.
  auto cycle = [&](double* secs) -> int {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = PostAnalysis(c, be.Request());
    *secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) {
      ADD_FAILURE() << "no answer through haproxy";
      return -1;
    }
    if (r->status != 200) {
      ADD_FAILURE() << "HTTP " << r->status << ": " << r->body;
      return -1;
    }
    EXPECT_LT(*secs, 50.0);
    auto j = nlohmann::json::parse(r->body);
    if (epoch.empty()) epoch = j["state_epoch"];
    EXPECT_EQ(j["state_epoch"], epoch) << "the epoch changed";
    int failed = 0;
    for (const auto& s : j["spots"]) failed += s["analysis_status"] != "OK";
    if (failed == 0)
      be.Acknowledge(j);
    else
      be.epoch() = j["state_epoch"].get<std::string>();
    return failed;
  };
  double secs = 0;
  for (int i = 0; i < 4; ++i) {
    add_signals();
    ASSERT_EQ(cycle(&secs), 0) << "warm-up cycle " << i;
  }

  // Hold replica a's model calls; cycles go round robin, so within two one
  // lands on a and hangs there.
  model_a.hold = true;
  const int calls_before = model_a.server.requests();
  double judged_by_a = 0;
  {
    auto ca = a->Client();
    judged_by_a = Judged(ca);
  }
  add_signals();
  std::thread in_flight;
  double in_flight_secs = 0;
  int in_flight_failed = -2;
  for (int tries = 0; tries < 2 && model_a.server.requests() == calls_before; ++tries) {
    in_flight = std::thread([&] { in_flight_failed = cycle(&in_flight_secs); });
    for (int i = 0; i < 500 && model_a.server.requests() == calls_before; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (model_a.server.requests() == calls_before) {
      in_flight.join();  // b answered it: the next one goes to a
      add_signals();
    }
  }
  ASSERT_GT(model_a.server.requests(), calls_before) << "no cycle reached replica a";
  double a_at_kill = 0;  // a counts a signal as judged when it dispatches it
  {
    auto ca = a->Client();
    a_at_kill = Judged(ca);
  }
  a->Kill9();  // inside the cycle: a's bundles are claimed, its model call open
  model_a.hold = false;
  in_flight.join();
  // HAProxy resends the dropped request to b (retry-on empty-response): it is
  // answered, and the bundles a had claimed are FAILED while a's claims last.
  EXPECT_GE(in_flight_failed, 0) << "the in-flight cycle was not answered";
  EXPECT_LT(in_flight_secs, 50.0);
  const auto killed_at = std::chrono::steady_clock::now();
  int failed_cycles = in_flight_failed > 0 ? 1 : 0, failed = in_flight_failed;
  while (failed != 0 && std::chrono::steady_clock::now() - killed_at < std::chrono::seconds(60)) {
    // Resent at once (the same analyzed_at): a simulated minute per resend
    // would age the signals out of the judging window before a's claims lapse.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    failed = cycle(&secs);
    if (HasFailure()) return;
    failed_cycles += failed > 0;
  }
  ASSERT_EQ(failed, 0) << "spots still FAILED 60 s after the kill";
  const double recovered_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
  add_signals();
  ASSERT_EQ(cycle(&secs), 0);

  auto cb = b->Client();
  std::printf(
      "failover in flight: %d signals sent; judged by a %.0f before the kill cycle and %.0f in "
      "it (lost with a), by b %.0f; "
      "in-flight cycle answered in %.2f s with %d spot(s) FAILED; all OK again %.1f s after "
      "the kill (%d cycles with FAILED spots)\n",
      sent, judged_by_a, a_at_kill - judged_by_a, Judged(cb), in_flight_secs, in_flight_failed,
      recovered_s, failed_cycles);
  // Nothing judged twice, nothing lost: b judged every signal a had not
  // stored exactly once; the only ones judged on both are those of the cycle
  // a died in, which a never stored (b judged them once a's claims lapsed).
  EXPECT_EQ(judged_by_a + Judged(cb), sent);
  EXPECT_EQ(a_at_kill - judged_by_a, static_cast<double>(spots.size()));
  EXPECT_EQ(Metric(cb, "nunchi_state_resets_total", "{reason=\"epoch\"}") <= 0, true);
  auto rows = pg.Query("inflight", "SELECT count(*) FROM judgments", &why);
  ASSERT_TRUE(rows) << why;
  EXPECT_EQ(std::stoi(*rows), sent) << "acknowledged judgments missing from PostgreSQL";
  lb.Stop();
}

}  // namespace
}  // namespace nunchi::testing
