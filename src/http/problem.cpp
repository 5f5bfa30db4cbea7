#include "http/problem.h"

#include <cctype>
#include <nlohmann/json.hpp>

namespace nunchi {
namespace {

const char* TitleFor(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 401:
      return "Unauthorized";
    case 408:
      return "Request Timeout";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 431:
      return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return status >= 500 ? "Internal Server Error" : "Error";
  }
}

}  // namespace

Problem MakeProblem(int http_status, std::string code, std::string detail) {
  return Problem{http_status, std::move(code), TitleFor(http_status), std::move(detail), {}};
}

// clang-format off
Problem ProblemForHttpStatus(int http_status, const std::string& method, const std::string& path) {
  switch (http_status) {
    case 404: return MakeProblem(404, "NOT_FOUND", "no such route: " + path);
    case 405: return MakeProblem(405, "METHOD_NOT_ALLOWED", method + " " + path);
    case 413: return MakeProblem(413, "PAYLOAD_TOO_LARGE", "the request body is over the limit");
    default:
      if (http_status >= 500) return MakeProblem(http_status, "INTERNAL", "request failed");
      return MakeProblem(400, "BAD_REQUEST", "the request could not be parsed as HTTP/1.1");
  }
}
// clang-format on

Problem ProblemFromStatus(const Status& s) {
  switch (s.code()) {
    case ErrorCode::kInvalidArgument: return MakeProblem(422, "INVALID_REQUEST", s.message());
    case ErrorCode::kStateReset: return MakeProblem(409, "STATE_RESET", s.message());
    case ErrorCode::kDeadlineExceeded: return MakeProblem(504, "DEADLINE_EXCEEDED", s.message());
    case ErrorCode::kUnavailable: return MakeProblem(503, "UNAVAILABLE", s.message());
    case ErrorCode::kNotFound: return MakeProblem(404, "NOT_FOUND", s.message());
    case ErrorCode::kIo:
      return MakeProblem(503, "STORAGE_UNAVAILABLE", s.message());
    default: return MakeProblem(500, "INTERNAL", s.message());
  }
}

std::string ProblemBody(const Problem& p, const std::string& instance) {
  std::string slug;
  for (char c : p.code) slug += c == '_' ? '-' : static_cast<char>(std::tolower(c));
  nlohmann::json j = {{"type", "https://nunchi.dev/problems/" + slug},
                      {"title", p.title},
                      {"status", p.status},
                      {"detail", p.detail},
                      {"code", p.code}};
  if (!instance.empty()) j["instance"] = instance;
  if (!p.errors.empty()) {
    auto& arr = j["errors"] = nlohmann::json::array();
    for (const auto& e : p.errors) arr.push_back({{"pointer", e.pointer}, {"detail", e.detail}});
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace nunchi
