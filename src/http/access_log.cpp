#include "http/access_log.h"

#include <cmath>

#include "domain/trace_context.h"
#include "http/method_routing.h"
#include "ops/log.h"

namespace nunchi {
namespace {

thread_local std::string t_traceparent;

}  // namespace

void BeginTrace(const httplib::Request& req, httplib::Response& res) {
  const std::string tp = req.get_header_value("traceparent");
  if (!tp.empty() && ValidTraceparent(tp)) {
    res.set_header("traceparent", tp);
    t_traceparent = tp;
  } else {
    t_traceparent = NewTraceparent();
  }
}

const std::string& RequestTraceparent() { return t_traceparent; }

void LogAccess(const httplib::Request& req, const httplib::Response& res, double seconds) {
  // The thread's next request starts afresh, even one answered before the
  // pre-routing hook (then it logs no trace id).
  const std::string trace = std::move(t_traceparent);
  t_traceparent.clear();
  const LogLevel level = res.status >= 500 ? LogLevel::kWarn : LogLevel::kInfo;
  if (!LogEnabled(level)) return;
  const std::string route = AllowedMethods(req.path).empty() ? "other" : req.path;
  const std::string tp = res.get_header_value("traceparent");
  const std::string msg = req.method + " " + route + " " + std::to_string(res.status);
  LogEvent(level, "http_request", msg,
           {{"request_id", res.get_header_value("X-Request-Id")},
            {"method", req.method},
            {"route", route},
            {"status", res.status},
            {"latency_ms", std::round(seconds * 1e6) / 1000.0},
            {"bytes_in", req.body.size()},
            {"bytes_out", res.body.size()},
            {"remote_addr", req.remote_addr},
            {"traceparent", tp},
            {"trace_id", TraceIdOf(trace)}});
}

}  // namespace nunchi
