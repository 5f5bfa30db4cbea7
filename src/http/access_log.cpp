#include "http/access_log.h"

#include <cmath>

#include "http/method_routing.h"
#include "ops/log.h"

namespace nunchi {
namespace {

bool Hex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool AllZero(std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; }

}  // namespace

bool ValidTraceparent(std::string_view v) {
  // 2 + 1 + 32 + 1 + 16 + 1 + 2 = 55 characters in version 00.
  if (v.size() < 55 || v[2] != '-' || v[35] != '-' || v[52] != '-') return false;
  const std::string_view version = v.substr(0, 2), trace = v.substr(3, 32),
                         parent = v.substr(36, 16), flags = v.substr(53, 2);
  if (!Hex(version) || !Hex(trace) || !Hex(parent) || !Hex(flags)) return false;
  if (version == "ff" || AllZero(trace) || AllZero(parent)) return false;
  return version == "00" ? v.size() == 55 : (v.size() == 55 || v[55] == '-');
}

void EchoTraceparent(const httplib::Request& req, httplib::Response& res) {
  const std::string tp = req.get_header_value("traceparent");
  if (!tp.empty() && ValidTraceparent(tp)) res.set_header("traceparent", tp);
}

void LogAccess(const httplib::Request& req, const httplib::Response& res, double seconds) {
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
            {"traceparent", tp}});
}

}  // namespace nunchi
