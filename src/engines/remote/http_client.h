// A small blocking HTTP POST client on libcurl, for the remote judge only.
// One call is one transfer with its own deadline; the response body can be
// consumed as it arrives (for SSE streams) and the transfer aborted from the
// body callback, which closes the connection (the server sees it go away).
//
// Thread-safety: Post() may be called from many threads at once. Easy handles
// are pooled (a handle keeps its live connections, so keep-alive works) and
// each is used by one transfer at a time. curl_global_init runs once, on the
// first HttpClient construction.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "judges/judge.h"

namespace nunchi::remote {

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"; may hold secrets, never logged
  std::string body;
  Deadline deadline = Deadline::max();
  std::chrono::milliseconds connect_timeout{2'000};
  // Receives the body of a 2xx response piece by piece as it arrives; return
  // false to abort the transfer. Null: the body is collected into
  // HttpResponse::body. Non-2xx bodies are always collected.
  std::function<bool(std::string_view)> on_body;
};

struct HttpResponse {
  long status = 0;  // HTTP status; 0 when no response was received
  std::string body;
  std::optional<std::chrono::milliseconds> retry_after;  // from a Retry-After header
  bool aborted = false;                                  // on_body asked to stop
  bool timed_out = false;                                // the deadline (or connect timeout) passed
  std::string error;  // transport error text; empty when the exchange completed
  bool transport_ok() const { return error.empty(); }
};

// Longest body collected in memory; a longer one aborts the transfer.
inline constexpr size_t kMaxResponseBytes = 4 << 20;

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  HttpResponse Post(const HttpRequest& request);

 private:
  struct Handle;
  std::unique_ptr<Handle> Take();
  void Give(std::unique_ptr<Handle> handle);

  std::mutex mu_;
  std::vector<std::unique_ptr<Handle>> idle_;  // guarded by mu_
};

// Parses a Retry-After value: delay-seconds only (an HTTP-date gives nullopt).
std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value);

}  // namespace nunchi::remote
