#include "http/server.h"

#include <httplib.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <random>

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
  res.set_content(ProblemBody(p, instance), kProblemContentType);
}

std::string RouteLabel(const std::string& path) {
  for (const char* r : {kAnalysesPath, "/livez", "/readyz", "/health", "/metrics",
                        "/v1/extractions/taxi-fare", "/v1/extractions/receipt"})
    if (path == r) return r;
  return "other";
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
      server_(std::make_unique<httplib::Server>()),
      started_(std::chrono::steady_clock::now()) {
  const size_t threads = options_.threads;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_->set_payload_max_length(options_.max_body_bytes);
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
  server_->set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    t_request_start = std::chrono::steady_clock::now();
    std::string id = req.get_header_value("X-Request-Id");
    if (id.empty() || id.size() > 128) id = NewRequestId();
    res.set_header("X-Request-Id", id);
    EchoTraceparent(req, res);
    return AnswerUnroutable(req, res) ? httplib::Server::HandlerResponse::Handled
                                      : httplib::Server::HandlerResponse::Unhandled;
  });
  // Every error status without a body (404, 405, 413 from the library) gets a problem body.
  server_->set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
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
        SendProblem(res, MakeProblem(500, "INTERNAL", what), req.path);
      });
  server_->set_logger([&latency, this](const httplib::Request& req, const httplib::Response& res) {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_request_start).count();
    latency.Observe({{"route", RouteLabel(req.path)}, {"status", std::to_string(res.status)}},
                    secs);
    LogAccess(req, res, secs);
  });

  server_->Post(kAnalysesPath, [this](const httplib::Request& req, httplib::Response& res) {
    const Deadline deadline = Clock::now() + options_.deadline;
    const std::string request_id = res.get_header_value("X-Request-Id");
    if (!IsJson(req.get_header_value("Content-Type"))) {
      SendProblem(res,
                  MakeProblem(415, "UNSUPPORTED_MEDIA_TYPE",
                              "send the body as application/json, not '" +
                                  req.get_header_value("Content-Type") + "'"),
                  req.path);
      return;
    }
    if (req.body.size() > options_.max_body_bytes) {
      SendProblem(res, MakeProblem(413, "PAYLOAD_TOO_LARGE", "the request body is over the limit"),
                  req.path);
      return;
    }
    nlohmann::json body;
    try {
      body = nlohmann::json::parse(req.body);
    } catch (const nlohmann::json::parse_error& e) {
      SendProblem(res, MakeProblem(400, "MALFORMED_JSON", e.what()), req.path);
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
    auto result = service_.Analyze(*parsed, request_id, deadline, &errors);
    if (!result.ok()) {
      Problem p = ProblemFromStatus(result.status());
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
  return port;
}

void HttpServer::Listen() { server_->listen_after_bind(); }

void HttpServer::Stop() {
  if (server_) server_->stop();
}

}  // namespace nunchi
