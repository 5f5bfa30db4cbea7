// Method routing at the HTTP edge: a known route asked with a method it does
// not answer gets 405 with `Allow`, an unknown route gets 404, OPTIONS gets
// 204 with `Allow`. A request that announces no body is answered before
// cpp-httplib tries to read one, so a PUT or PATCH without Content-Length no
// longer waits out the 5 s read timeout; one that announces a body is
// answered after the library has read it (bounded by the body limit), so the
// body is never parsed as a next request on the connection.
//
// Pure functions over one request; called on httplib's worker threads.
#pragma once

#include <httplib.h>

#include <string>
#include <string_view>

namespace nunchi {

// The methods a known route answers ("POST", "GET, HEAD"); empty for an unknown path.
std::string AllowedMethods(std::string_view path);

// For the pre-routing hook: writes a 404/405 problem or the OPTIONS answer into
// res and returns true when the request must not reach a handler and has no
// body left to read; false lets routing go on.
bool AnswerUnroutable(const httplib::Request& req, httplib::Response& res);

// For the error hook, when no handler matched: writes the 404 or 405 (with
// Allow) problem, or the OPTIONS answer. Returns false when the route and
// method exist (the status came from elsewhere).
bool WriteRouteProblem(const httplib::Request& req, httplib::Response& res);

}  // namespace nunchi
