// The access log and the trace context at the HTTP edge: one `http_request`
// event per request in the server log (method, route, path, status, latency,
// bytes in and out, request id, traceparent, trace id), a valid W3C
// `traceparent` echoed back on the response, and the trace context the
// request's remote model calls join (domain/trace_context.h).
//
// Called on httplib's worker threads: BeginTrace from the pre-routing hook,
// RequestTraceparent from the route handler, LogAccess from the logger. The
// trace context is per worker thread, which serves one request from its
// pre-routing hook to its logger.
#pragma once

#include <httplib.h>

#include <string>

namespace nunchi {

// Takes the request's traceparent when it is valid (and echoes it on the
// response) or starts a new trace (not echoed: the caller sent none), as
// this thread's request's trace context.
void BeginTrace(const httplib::Request& req, httplib::Response& res);

// The trace context of the request this thread serves (set by BeginTrace).
const std::string& RequestTraceparent();

// Logs the request once it has been answered.
void LogAccess(const httplib::Request& req, const httplib::Response& res, double seconds);

}  // namespace nunchi
