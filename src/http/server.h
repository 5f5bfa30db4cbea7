// HttpServer: the thin HTTP edge. It parses JSON into contract structs, calls
// AnalysisService, writes JSON or problem details, and serves /livez,
// /readyz, /health and /metrics straight from in-memory state, so they never
// wait behind judging. Owns the cpp-httplib server and its thread pool.
//
// The edge (http/edge.h) bounds connections, header and body time and size,
// and answers health and metrics on their own threads. Inbound Bearer
// authentication when auth_key is set.
//
// Threading: Listen() blocks the calling thread and returns after Stop() and
// a bounded drain; Stop() may be called from any thread (e.g. a signal
// handler's helper thread).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "domain/status.h"
#include "http/edge.h"
#include "ops/metrics.h"
#include "service/analysis_service.h"

namespace nunchi {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                      // 0 picks a free port
  size_t max_body_bytes = 4 << 20;      // larger analysis bodies get 413
  // Any route's body (the image uploads); 0: max_body_bytes.
  size_t max_upload_bytes = 0;
  std::chrono::milliseconds deadline{45'000};  // answer within this of receipt
  size_t threads = 32;                  // HTTP worker threads
  EdgeOptions edge;                     // timeouts and bounds of the edge (threads: above)
  // Compressed analysis bodies: refused when decoding grows them more than this.
  double max_decompression_ratio = 100;
  // Inbound authentication: when set, every route but /livez needs
  // `Authorization: Bearer <auth_key>` (and /metrics too unless metrics_open).
  std::string auth_key;
  bool metrics_open = false;
};

class HttpServer {
 public:
  HttpServer(AnalysisService& service, MetricsRegistry& metrics, HttpOptions options);
  ~HttpServer();

  // Lets other layers (image extraction) add their routes before Bind().
  httplib::Server& raw() { return *server_; }

  // Binds the socket; returns the bound port.
  Result<int> Bind();
  // Serves until Stop(). Call after Bind().
  void Listen();
  void Stop();

 private:
  void Routes();
  AnalysisService& service_;
  MetricsRegistry& metrics_;
  HttpOptions options_;
  std::unique_ptr<EdgeServer> server_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace nunchi
