// EdgeServer: cpp-httplib's Server with the connection handling replaced, so
// that hostile clients cannot hold its threads. Debian 12's cpp-httplib 0.11.4
// gives one thread per connection for the whole connection, a per-recv() read
// timeout only (a client sending one header byte a second is never cut), no
// bound on the header section or on a chunked or compressed body, and no
// limit on connections. Here instead:
//  - one gate thread (epoll) owns every connection while its header section
//    arrives and while it idles between keep-alive requests: a connection
//    costs no worker thread until a whole header section is in, within
//    header_timeout and max_header_bytes (else 408 / 431 and closed);
//  - framing is checked there (two different Content-Length values, or
//    Content-Length with Transfer-Encoding: 400);
//  - complete requests go to a bounded worker pool (queue full: 503 with
//    Retry-After, answered by the gate), health and metrics to their own
//    threads so they never wait behind analyses;
//  - a worker reads the body within body_timeout and a raw byte cap, serves
//    one request via httplib's process_request, and hands the connection back
//    to the gate (idle keep-alive is reaped after keep_alive_timeout);
//  - Shutdown() closes what the gate holds at once and gives the workers a
//    bounded drain before their sockets are shut down under them.
//
// Threading: Admit() runs on httplib's accept thread; Shutdown() once, from
// the thread that ran listen_after_bind(), after it returned.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ops/metrics.h"

namespace nunchi {

struct EdgeOptions {
  std::chrono::milliseconds header_timeout{5'000};  // the whole header section
  std::chrono::milliseconds body_timeout{15'000};   // the whole body
  std::chrono::milliseconds keep_alive_timeout{5'000};
  std::chrono::milliseconds write_timeout{5'000};
  std::chrono::milliseconds drain{5'000};  // at shutdown, for requests being served
  size_t keep_alive_max = 100;             // requests per connection
  size_t max_connections = 1024;
  size_t max_header_bytes = 32 << 10;    // the whole header section
  size_t max_header_line = 8 << 10;      // one request or header line
  size_t max_raw_body_bytes = 24 << 20;  // bytes read for one body, framing included
  size_t workers = 32;                   // threads serving requests
  size_t max_queued = 64;                // complete requests waiting for a worker
  size_t health_workers = 2;             // threads for /livez /readyz /health /metrics
  // Only these paths take a Content-Encoding (their handlers count the body
  // as it is decoded); elsewhere an encoded body is refused with 415, since
  // httplib would inflate it whole into memory.
  std::vector<std::string> decoding_paths = {"/v1/congestion-analyses"};
};

class EdgeServer : public httplib::Server {
 public:
  EdgeServer(EdgeOptions options, MetricsRegistry& metrics);
  ~EdgeServer() override;

  // After listen_after_bind() returned: drain and join (bounded by drain,
  // plus what a handler already running takes to return).
  void Shutdown();

  // cpp-httplib 0.11.4 listens with a backlog of 5 (a compile-time constant
  // of the Debian library): 50 clients connecting at once see SYNs dropped
  // and a 1 s retransmit. Call after bind: listens again with this backlog.
  void RaiseBacklog(int backlog);

  // The thread serving a request may ask that its connection be closed after
  // the answer (a body left unread, a refused request).
  static void CloseAfterThisRequest();

  class Impl;

 private:
  bool process_and_close_socket(socket_t sock) override;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nunchi
