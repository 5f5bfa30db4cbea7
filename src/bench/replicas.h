// `nunchi bench --replicas --store postgres://...`: issue 17 part 2's bench
// mode. Starts two `nunchi serve` replicas on one PostgreSQL store (given;
// the bench does not run PostgreSQL) behind HAProxy on loopback (the
// configuration of docs/deploy.md), drives the load's cycles through the
// load balancer, SIGKILLs replica a just before cycle `kill_at` and restarts
// it before cycle kill_at + restart_after. Writes OUT/ like any run, plus
// each replica's judged-signal count and HAProxy's log.
//
// Thread-safety: one call at a time; blocks until the run is over.
#pragma once

#include <string>

#include "bench/bench.h"

namespace nunchi::bench {

struct ReplicasArgs {
  BenchArgs bench;        // load, nunchi binary, server args, out dir, conditions
  std::string store;      // postgres://... shared by both replicas (required)
  std::string haproxy;    // empty: /usr/sbin/haproxy or /usr/bin/haproxy
  int kill_at = -1;       // cycle before which replica a is killed (-1: half-way)
  int restart_after = 3;  // cycles later it is restarted (0: never)
};

// The HAProxy configuration of docs/deploy.md for two replicas.
std::string HaproxyConfig(int port_lb, int port_a, int port_b);

// Returns the process exit code (0 when the run finished).
int RunReplicasCommand(ReplicasArgs args);

}  // namespace nunchi::bench
