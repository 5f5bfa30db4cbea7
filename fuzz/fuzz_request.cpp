// libFuzzer target: the request path of POST /v1/congestion-analyses without
// the socket: raw body -> ParseJsonBody -> ParseAnalysisRequest ->
// ValidateRequest, then the error body. Any crash, sanitizer report or
// exception escaping is a bug; every input must end in a request or errors.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "http/contract_json.h"
#include "http/problem.h"
#include "service/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nunchi;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json body;
  BodyParse bp = ParseJsonBody(text, &body);
  if (bp.kind != BodyParse::kOk) {
    Problem p = MakeProblem(bp.kind == BodyParse::kMalformed ? 400 : 422, "X", bp.detail);
    if (!bp.pointer.empty()) p.errors.push_back({bp.pointer, bp.detail});
    (void)ProblemBody(p, "/v1/congestion-analyses");
    return 0;
  }
  std::vector<FieldError> errors;
  auto req = ParseAnalysisRequest(body, &errors);
  if (req) {
    RequestLimits limits;
    limits.max_id_bytes = 16;
    errors = ValidateRequest(*req, limits);
  }
  Problem p = MakeProblem(422, "INVALID_REQUEST", "x");
  p.errors = errors;
  (void)ProblemBody(p, "/v1/congestion-analyses");
  return 0;
}
