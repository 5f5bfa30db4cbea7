#include "http/method_routing.h"

#include "http/problem.h"

namespace nunchi {
namespace {

struct Route {
  std::string_view path;
  std::string_view allow;
};

// Every route nunchi serves (src/http/server.cpp, src/http/extract_routes.cpp).
constexpr Route kRoutes[] = {
    {"/v1/congestion-analyses", "POST"},
    {"/v1/extractions/taxi-fare", "POST"},
    {"/v1/extractions/receipt", "POST"},
    {"/livez", "GET, HEAD"},
    {"/readyz", "GET, HEAD"},
    {"/health", "GET, HEAD"},
    {"/metrics", "GET, HEAD"},
};

bool Allows(std::string_view allow, std::string_view method) {
  size_t pos = 0;
  while (pos <= allow.size()) {
    size_t end = allow.find(", ", pos);
    if (end == std::string_view::npos) end = allow.size();
    if (allow.substr(pos, end - pos) == method) return true;
    pos = end + 2;
  }
  return false;
}

// cpp-httplib reads the body of these methods before it looks for a handler
// (to the end of the stream when there is no Content-Length: the stall).
bool LibraryReadsBody(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE" ||
         method == "PRI";
}

bool AnnouncesBody(const httplib::Request& req) {
  if (req.has_header("Transfer-Encoding")) return true;
  const std::string len = req.get_header_value("Content-Length");
  return !len.empty() && len != "0";
}

void Reject(const httplib::Request& req, httplib::Response& res, const Problem& p) {
  res.status = p.status;
  res.set_content(ProblemBody(p, req.path), kProblemContentType);
}

}  // namespace

std::string AllowedMethods(std::string_view path) {
  for (const Route& r : kRoutes)
    if (r.path == path) return std::string(r.allow);
  return {};
}

bool WriteRouteProblem(const httplib::Request& req, httplib::Response& res) {
  const std::string allow = AllowedMethods(req.path);
  if (allow.empty()) {
    Reject(req, res, ProblemForHttpStatus(404, req.method, req.path));
    return true;
  }
  if (Allows(allow, req.method)) return false;
  res.set_header("Allow", allow);
  if (req.method == "OPTIONS") {
    res.status = 204;
    return true;
  }
  Reject(req, res, ProblemForHttpStatus(405, req.method, req.path));
  return true;
}

bool AnswerUnroutable(const httplib::Request& req, httplib::Response& res) {
  // A body the library is about to read must be read (else its bytes would be
  // parsed as the next request on the connection); the error handler answers
  // that request after the read, through WriteRouteProblem.
  if (LibraryReadsBody(req.method) && AnnouncesBody(req)) return false;
  return WriteRouteProblem(req, res);
}

}  // namespace nunchi
