// Two `nunchi serve` replicas on one PostgreSQL behind HAProxy (all on
// loopback), driven through the load balancer. One replica is killed with
// SIGKILL in the middle of the run: every cycle is still answered (200,
// within the 50 s contract) by the other, with no STATE_RESET and one epoch
// throughout; no acknowledged judgment is lost (every signal has its row in
// PostgreSQL); no signal is judged twice (the replicas' judged-signal counters
// add up to the signals sent); and the killed replica, restarted, rejoins and
// answers again. Label postgres: it fails under CI=true when PostgreSQL or
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
#include "ops/child_process.h"
#include "store/pg_test_server.h"

namespace nunchi::testing {
namespace {

const char* kTexts[] = {
    "지금 사람 너무 많아서 발 디딜 틈도 없어요 줄이 끝이 안 보여요",
    "대기 1시간 넘는다고 하네요 완전 미어터짐",
    "지금 완전 한산해요 줄 하나도 없어요",
};

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

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

double Judged(httplib::Client& c) {
  double v = Metric(c, "nunchi_signals_total", "{disposition=\"judged\"}");
  return v < 0 ? 0 : v;
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

  // The load balancer as docs/deploy.md shows it: round robin, health check
  // on /readyz every 500 ms, a connection refused retried on the other server.
  const std::string cfg = dir_lb + "/haproxy.cfg";
  {
    std::ofstream f(cfg);
    f << "global\n  maxconn 256\n"
         "defaults\n  mode http\n  timeout connect 1s\n  timeout client 60s\n"
         "  timeout server 60s\n  retries 3\n  option redispatch\n"
         "  retry-on conn-failure empty-response response-timeout\n"
         "frontend nunchi\n  bind 127.0.0.1:"
      << port_lb
      << "\n  default_backend replicas\n"
         "backend replicas\n  balance roundrobin\n  option httpchk GET /readyz\n"
         "  default-server inter 500ms fall 2 rise 2\n"
         "  server a 127.0.0.1:"
      << port_a << " check\n  server b 127.0.0.1:" << port_b << " check\n";
  }
  ChildProcess lb;
  ASSERT_TRUE(lb.Spawn({haproxy, "-db", "-f", cfg}, SpawnOptions(dir_lb + "/haproxy.log"), &why))
      << why;
  httplib::Client c("127.0.0.1", port_lb);
  c.set_read_timeout(60, 0);
  c.set_connection_timeout(5, 0);
  for (int i = 0; i < 250; ++i) {
    if (auto r = c.Get("/readyz"); r && r->status == 200) break;
    ASSERT_FALSE(lb.Exited()) << "haproxy exited";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

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

}  // namespace
}  // namespace nunchi::testing
