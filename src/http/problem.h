// Problem details (RFC 9457): the one place where an error becomes an HTTP
// status, a stable `code` and an `application/problem+json` body. Pure
// functions; safe from any thread.
#pragma once

#include <string>
#include <vector>

#include "domain/status.h"
#include "service/validate.h"

namespace nunchi {

struct Problem {
  int status = 500;
  std::string code;  // stable, e.g. "STATE_RESET", "MALFORMED_JSON"
  std::string title;
  std::string detail;
  std::vector<FieldError> errors;  // for 422
};

inline constexpr const char* kProblemContentType = "application/problem+json";

// Maps a service Status to its problem (status, code, title).
Problem ProblemFromStatus(const Status& status);
Problem MakeProblem(int http_status, std::string code, std::string detail);
// The problem for an error status the HTTP library set without a body (a
// request it could not parse, a body over its limit, no route).
Problem ProblemForHttpStatus(int http_status, const std::string& method, const std::string& path);
std::string ProblemBody(const Problem& p, const std::string& instance);

}  // namespace nunchi
