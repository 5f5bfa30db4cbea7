// The access log and the trace context at the HTTP edge: one `http_request`
// event per request in the server log (method, route, path, status, latency,
// bytes in and out, request id, traceparent), and a valid W3C `traceparent`
// echoed back on the response.
//
// Called on httplib's worker threads from the server's pre-routing hook and
// logger; pure apart from the log.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

namespace nunchi {

// True for a well-formed W3C traceparent (version-traceid-parentid-flags,
// lowercase hex, ids not all zero, version not ff).
bool ValidTraceparent(std::string_view value);

// Copies a valid request traceparent onto the response.
void EchoTraceparent(const httplib::Request& req, httplib::Response& res);

// Logs the request once it has been answered.
void LogAccess(const httplib::Request& req, const httplib::Response& res, double seconds);

}  // namespace nunchi
