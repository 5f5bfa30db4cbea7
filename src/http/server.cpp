#include "http/server.h"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string_view>

#include "http/access_log.h"
#include "http/contract_json.h"
#include "http/method_routing.h"
#include "http/problem.h"

namespace nunchi {
namespace {

constexpr const char* kAnalysesPath = "/v1/congestion-analyses";

// httplib reads, routes, answers and logs one request on one thread, so the
// start time of the request being served can live in a thread_local.
thread_local std::chrono::steady_clock::time_point t_request_start;

std::string NewRequestId() {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t seed = std::random_device{}();
  char buf[40];
  std::snprintf(buf, sizeof buf, "r-%08llx-%06llx",
                static_cast<unsigned long long>(seed & 0xffffffff),
                static_cast<unsigned long long>(counter.fetch_add(1) & 0xffffff));
  return buf;
}

void SendProblem(httplib::Response& res, const Problem& p, const std::string& instance) {
  res.status = p.status;
  if (p.status == 503) res.set_header("Retry-After", "1");
  res.set_content(ProblemBody(p, instance), kProblemContentType);
}

std::string RouteLabel(const std::string& path) {
  for (const char* r : {kAnalysesPath, "/livez", "/readyz", "/health", "/metrics",
                        "/v1/extractions/taxi-fare", "/v1/extractions/receipt"})
    if (path == r) return r;
  return "other";
}

// An X-Request-Id is echoed in a response header and written to the decision
// log, so only a bounded run of visible ASCII is taken; anything else is
// replaced by a fresh id.
bool AcceptableRequestId(const std::string& id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id)
    if (c < 0x21 || c > 0x7e) return false;
  return true;
}

// Constant-time comparison of a presented token with the key.
bool SameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  return diff == 0;
}

bool IsJson(const std::string& content_type) {
  std::string ct = content_type.substr(0, content_type.find(';'));
  while (!ct.empty() && ct.back() == ' ') ct.pop_back();
  for (auto& c : ct) c = static_cast<char>(std::tolower(c));
  return ct == "application/json" || (ct.size() > 5 && ct.ends_with("+json"));
}

}  // namespace

HttpServer::HttpServer(AnalysisService& service, MetricsRegistry& metrics, HttpOptions options)
    : service_(service),
      metrics_(metrics),
      options_(options),
      started_(std::chrono::steady_clock::now()) {
  EdgeOptions edge = options_.edge;
  edge.workers = options_.threads;
  // The raw cap (framing included) stays above the body limit however it is set.
  edge.max_raw_body_bytes =
      std::max(edge.max_raw_body_bytes,
               2 * std::max(options_.max_upload_bytes, options_.max_body_bytes) + (64 << 10));
  server_ = std::make_unique<EdgeServer>(edge, metrics_);
  const size_t upload = std::max(options_.max_upload_bytes, options_.max_body_bytes);
  server_->set_payload_max_length(upload);
  server_->set_keep_alive_max_count(edge.keep_alive_max);
  server_->set_keep_alive_timeout(std::max<time_t>(1, edge.keep_alive_timeout.count() / 1000));
  Routes();
}

HttpServer::~HttpServer() { Stop(); }

void HttpServer::Routes() {
  auto& latency = metrics_.Histogram("nunchi_http_request_duration_seconds",
                                     "HTTP request latency by route and status.",
                                     LatencyBuckets());
  // Exported at 0 from the start, so rate() and alerts see the series at once.
  for (const char* route : {kAnalysesPath, "/v1/extractions/taxi-fare", "/v1/extractions/receipt"})
    latency.Touch({{"route", route}, {"status", "200"}});
  auto& auth_failures = metrics_.Counter("nunchi_http_unauthorized_total",
                                         "Requests refused for a missing or wrong Bearer token.");
  server_->set_pre_routing_handler(
      [this, &auth_failures](const httplib::Request& req, httplib::Response& res) {
        t_request_start = std::chrono::steady_clock::now();
        std::string id = req.get_header_value("X-Request-Id");
        if (!AcceptableRequestId(id)) id = NewRequestId();
        res.set_header("X-Request-Id", id);
        BeginTrace(req, res);
        if (!options_.auth_key.empty() && req.path != "/livez" &&
            !(options_.metrics_open && req.path == "/metrics")) {
          // The token is compared and dropped, never logged.
          const std::string header = req.get_header_value("Authorization");
          constexpr std::string_view kBearer = "Bearer ";
          const bool bearer =
              header.size() > kBearer.size() &&
              std::equal(kBearer.begin(), kBearer.end(), header.begin(),
                         [](char a, char b) { return std::tolower(a) == std::tolower(b); });
          if (!bearer ||
              !SameSecret(std::string_view(header).substr(kBearer.size()), options_.auth_key)) {
            auth_failures.Add({});
            res.set_header("WWW-Authenticate", "Bearer");
            SendProblem(res, MakeProblem(401, "UNAUTHORIZED", "send Authorization: Bearer <key>"),
                        req.path);
            EdgeServer::CloseAfterThisRequest();  // the body, if any, is left unread
            return httplib::Server::HandlerResponse::Handled;
          }
        }
        return AnswerUnroutable(req, res) ? httplib::Server::HandlerResponse::Handled
                                          : httplib::Server::HandlerResponse::Unhandled;
      });
  // Every error status without a body (404, 405, 413 from the library) gets a problem body.
  server_->set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 413 || res.status == 400) EdgeServer::CloseAfterThisRequest();
    if (res.status == 404 && WriteRouteProblem(req, res))
      return httplib::Server::HandlerResponse::Handled;
    Problem p = ProblemForHttpStatus(res.status, req.method, req.path);
    SendProblem(res, p, req.path);
    return httplib::Server::HandlerResponse::Handled;
  }));
  server_->set_exception_handler(
      [](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unexpected error";
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        // The library's text stays in the log; the client gets a stable detail.
        std::fprintf(stderr, "{\"event\":\"handler_exception\",\"path\":%s,\"what\":%s}\n",
                     nlohmann::json(req.path)
                         .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)
                         .c_str(),
                     nlohmann::json(what)
                         .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)
                         .c_str());
        SendProblem(res, MakeProblem(500, "INTERNAL", "unexpected error"), req.path);
      });
  server_->set_logger([&latency](const httplib::Request& req, const httplib::Response& res) {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_request_start).count();
    latency.Observe({{"route", RouteLabel(req.path)}, {"status", std::to_string(res.status)}},
                    secs);
    LogAccess(req, res, secs);
  });

  auto& body_refusals = metrics_.Counter("nunchi_http_body_refused_total",
                                         "Analysis bodies refused while reading, by reason.");
  server_->Post(kAnalysesPath, [this, &body_refusals](const httplib::Request& req,
                                                      httplib::Response& res,
                                                      const httplib::ContentReader& reader) {
    const Deadline deadline = Clock::now() + options_.deadline;
    const std::string request_id = res.get_header_value("X-Request-Id");
    // The body is counted as it is decoded (chunked, gzip, br), so neither a
    // chunked stream nor a compression bomb is held whole before the 413.
    std::string text;
    const size_t wire = req.has_header("Content-Length")
                            ? static_cast<size_t>(std::strtoull(
                                  req.get_header_value("Content-Length").c_str(), nullptr, 10))
                            : 0;
    const bool encoded = req.has_header("Content-Encoding") &&
                         req.get_header_value("Content-Encoding") != "identity";
    const char* over = nullptr;
    const bool read = reader([&](const char* data, size_t len) {
      if (text.size() + len > options_.max_body_bytes) {
        over = "size";
        return false;
      }
      text.append(data, len);
      if (encoded && wire > 0 &&
          double(text.size()) > options_.max_decompression_ratio * double(wire) &&
          text.size() > 64 * 1024) {
        over = "ratio";
        return false;
      }
      return true;
    });
    if (!read && !over && res.status == 413) over = "size";  // Content-Length over the limit
    if (over || !read) {
      EdgeServer::CloseAfterThisRequest();
      if (!over) {
        body_refusals.Add({{"reason", "incomplete"}});
        SendProblem(res, MakeProblem(400, "INCOMPLETE_BODY", "the body could not be read whole"),
                    req.path);
        return;
      }
      body_refusals.Add({{"reason", over ? over : "size"}});
      SendProblem(res,
                  MakeProblem(413, "PAYLOAD_TOO_LARGE",
                              over && std::string(over) == "ratio"
                                  ? "the body decodes to more than " +
                                        std::to_string(int(options_.max_decompression_ratio)) +
                                        " times its encoded size"
                                  : "the request body is over the limit of " +
                                        std::to_string(options_.max_body_bytes) + " bytes"),
                  req.path);
      return;
    }
    if (!IsJson(req.get_header_value("Content-Type"))) {
      SendProblem(res,
                  MakeProblem(415, "UNSUPPORTED_MEDIA_TYPE",
                              "send the body as application/json, not '" +
                                  req.get_header_value("Content-Type") + "'"),
                  req.path);
      return;
    }
    nlohmann::json body;
    BodyParse bp = ParseJsonBody(text, &body);
    if (bp.kind == BodyParse::kMalformed) {
      SendProblem(res, MakeProblem(400, "MALFORMED_JSON", bp.detail), req.path);
      return;
    }
    if (bp.kind == BodyParse::kOutOfRange) {
      Problem p = MakeProblem(422, "INVALID_REQUEST", "the request breaks the contract");
      p.errors.push_back({bp.pointer, bp.detail});
      SendProblem(res, p, req.path);
      return;
    }
    std::vector<FieldError> errors;
    auto parsed = ParseAnalysisRequest(body, &errors);
    if (!parsed) {
      Problem p = MakeProblem(422, "INVALID_REQUEST", "the request breaks the contract");
      p.errors = std::move(errors);
      SendProblem(res, p, req.path);
      return;
    }
    auto result =
        service_.Analyze(*parsed, request_id, deadline, &errors, RequestTraceparent());
    if (!result.ok()) {
      Problem p = result.status().code() == ErrorCode::kUnavailable
                      ? MakeProblem(503, "OVERLOADED", result.status().message())
                      : ProblemFromStatus(result.status());
      p.errors = std::move(errors);
      SendProblem(res, p, req.path);
      return;
    }
    res.set_content(SerializeAnalysisResponse(*result), "application/json");
  });

  server_->Get("/livez", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"status\":\"live\"}", "application/json");
  });
  auto ready = [this](const httplib::Request& req, httplib::Response& res) {
    if (service_.Ready()) {
      res.set_content("{\"status\":\"ready\",\"state_epoch\":\"" + service_.Epoch() + "\"}",
                      "application/json");
    } else {
      SendProblem(res, MakeProblem(503, "NOT_READY", "the judge is not making progress"),
                  req.path);
    }
  };
  server_->Get("/readyz", ready);
  server_->Get("/health", ready);
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(metrics_.Render(), "text/plain; version=0.0.4");
  });
}

Result<int> HttpServer::Bind() {
  int port = options_.port;
  if (port == 0) {
    port = server_->bind_to_any_port(options_.host);
  } else if (!server_->bind_to_port(options_.host, port)) {
    port = -1;
  }
  if (port < 0)
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + options_.host + ":" + std::to_string(options_.port));
  server_->RaiseBacklog(1024);
  return port;
}

void HttpServer::Listen() {
  server_->listen_after_bind();
  server_->Shutdown();  // bounded drain of the requests being served
}

void HttpServer::Stop() {
  if (server_) server_->stop();
}

}  // namespace nunchi
