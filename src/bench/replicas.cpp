#include "bench/replicas.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "bench/llama_server.h"
#include "bench/server.h"
#include "ops/child_process.h"

namespace nunchi::bench {
namespace {

double JudgedSignals(int port) {
  httplib::Client c("127.0.0.1", port);
  c.set_connection_timeout(1, 0);
  c.set_read_timeout(5, 0);
  auto r = c.Get("/metrics");
  if (!r || r->status != 200) return -1;
  const Series m = ParseMetrics(r->body);
  auto it = m.find("nunchi_signals_total{disposition=\"judged\"}");
  return it == m.end() ? 0 : it->second;
}

}  // namespace

std::string HaproxyConfig(int port_lb, int port_a, int port_b) {
  return "global\n  maxconn 256\n  log stderr format raw local0 info\n"
         "defaults\n  mode http\n  log global\n  option httplog\n  timeout connect 1s\n"
         "  timeout client 60s\n  timeout server 60s\n  option http-buffer-request\n"
         "  retries 3\n  option redispatch\n"
         "  retry-on conn-failure empty-response junk-response response-timeout\n"
         "frontend nunchi\n  bind 127.0.0.1:" +
         std::to_string(port_lb) +
         "\n  default_backend replicas\n"
         "backend replicas\n  balance roundrobin\n  option httpchk GET /readyz\n"
         "  default-server inter 500ms fall 2 rise 2\n"
         "  server a 127.0.0.1:" +
         std::to_string(port_a) + " check\n  server b 127.0.0.1:" + std::to_string(port_b) +
         " check\n";
}

int RunReplicasCommand(ReplicasArgs args) {
  BenchArgs& b = args.bench;
  std::string error;
  if (args.store.rfind("postgres", 0) != 0) {
    std::fprintf(stderr, "nunchi bench: --replicas needs --store postgres://...\n");
    return 2;
  }
  std::string haproxy = args.haproxy;
  for (const char* p : {"/usr/sbin/haproxy", "/usr/bin/haproxy"})
    if (haproxy.empty() && std::filesystem::exists(p)) haproxy = p;
  if (haproxy.empty()) {
    std::fprintf(stderr, "nunchi bench: haproxy not found (Debian package `haproxy`)\n");
    return 2;
  }
  if (!IdentifyModel(&b.conditions, &error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    return 2;
  }
  DescribeRun(&b.conditions);
  const LoadSpec& load = b.run.load;
  const int kill_at = args.kill_at >= 0 ? args.kill_at : load.cycles / 2;
  const int port_a = FreeLoopbackPort(), port_b = FreeLoopbackPort(), port_lb = FreeLoopbackPort();
  std::filesystem::create_directories(b.out_dir);
  auto replica_args = [&](int port) {
    std::vector<std::string> a = b.run.server_args;
    a.insert(a.end(), {"--store", args.store, "--port", std::to_string(port)});
    return a;
  };
  ManagedServer a(b.run.binary, replica_args(port_a), b.out_dir + "/replica-a");
  ManagedServer r_b(b.run.binary, replica_args(port_b), b.out_dir + "/replica-b");
  std::filesystem::create_directories(b.out_dir + "/replica-a");
  std::filesystem::create_directories(b.out_dir + "/replica-b");
  if (!a.Start(&error) || !r_b.Start(&error)) {
    std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
    return 1;
  }
  {
    std::ofstream f(b.out_dir + "/haproxy.cfg");
    f << HaproxyConfig(port_lb, port_a, port_b);
  }
  ChildProcess lb;
  if (!lb.Spawn({haproxy, "-db", "-f", b.out_dir + "/haproxy.cfg"},
                SpawnOptions(b.out_dir + "/haproxy.log"), &error)) {
    std::fprintf(stderr, "nunchi bench: haproxy: %s\n", error.c_str());
    return 1;
  }
  httplib::Client c("127.0.0.1", port_lb);
  c.set_connection_timeout(1, 0);
  bool ready = false;
  for (int i = 0; i < 500 && !ready; ++i) {
    auto r = c.Get("/readyz");
    ready = r && r->status == 200;
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!ready) {
    std::fprintf(stderr, "nunchi bench: haproxy never answered /readyz\n");
    return 1;
  }
  std::fprintf(
      stderr,
      "nunchi bench: 2 replicas on %s behind haproxy :%d; replica a killed before "
      "cycle %d%s\n",
      "PostgreSQL", port_lb, kill_at,
      args.restart_after > 0
          ? (", restarted before cycle " + std::to_string(kill_at + args.restart_after)).c_str()
          : "");
  RunOptions run = b.run;
  run.target = "http://127.0.0.1:" + std::to_string(port_lb);
  run.work_dir = b.out_dir;
  double a_before_kill = -1;
  std::string events;
  double after_warmup = -1;  // both replicas' judged signals once the history is in
  run.before_cycle = [&](int i) {
    if (i == 0) after_warmup = JudgedSignals(port_a) + JudgedSignals(port_b);
    if (i == kill_at) {
      a_before_kill = JudgedSignals(port_a);
      a.Kill9();
      events += "replica a SIGKILLed before cycle " + std::to_string(i) + "; ";
    }
    if (args.restart_after > 0 && i == kill_at + args.restart_after) {
      std::string why;
      if (a.Start(&why))
        events += "replica a restarted before cycle " + std::to_string(i) + "; ";
      else
        events += "replica a restart failed: " + why + "; ";
    }
  };
  Conditions cond = b.conditions;
  std::vector<CycleResult> cycles;
  bool ok = RunBench(run, &cond, &cycles, &error);
  const double a_after = JudgedSignals(port_a), b_judged = JudgedSignals(port_b);
  cond.engine += "; 2 replicas on one PostgreSQL behind HAProxy";
  cond.server_args = "replicas: " + [&] {
    std::string s;
    for (const auto& x : replica_args(0)) s += (s.empty() ? "" : " ") + x;
    return s;
  }() + "; " + events;
  lb.Stop();
  a.Stop();
  r_b.Stop();
  if (!ok) std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
  Summary s = Summarize(cycles, load.interval_s);
  if (!cycles.empty()) {
    if (!WriteResults(b.out_dir, load, cond, s, cycles, &error)) {
      std::fprintf(stderr, "nunchi bench: %s\n", error.c_str());
      return 1;
    }
    PrintRunLine(load, "replicas", s, b.out_dir);
  }
  int resets = 0, sent = 0, not_200 = 0;
  for (const auto& cy : cycles) {
    resets += cy.reset;
    sent += cy.new_signals;
    not_200 += cy.http_status != 200;
  }
  // Judged in the measured cycles, all replicas: each new signal once when
  // none was judged twice (every spot OK, so none was resent).
  const double judged = a_before_kill + std::max(0.0, a_after) + b_judged - after_warmup;
  std::printf(
      "replicas: %sjudged by a %.0f before the kill, %.0f after its restart; by b %.0f; "
      "%.0f judged in the measured cycles for %d new signals sent; %d answers not 200; "
      "%d STATE_RESET; %d deadline misses; %d spots FAILED\n",
      events.c_str(), a_before_kill, a_after, b_judged, judged, sent, not_200, resets,
      s.deadline_misses, s.spots_failed);
  return ok ? 0 : 1;
}

}  // namespace nunchi::bench
