// The contract's JSON shape (../shared/DESIGN.md section 1): parsing a request
// body into AnalysisRequest (collecting every field error with its JSON
// pointer) and writing an AnalysisResponse. The only place the contract meets
// nlohmann::json. Pure functions; safe from any thread.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract.h"
#include "service/validate.h"

namespace nunchi {

// Returns the request, or nullopt with *errors filled (type errors, missing
// fields, unknown kinds, unparsable timestamps).
std::optional<AnalysisRequest> ParseAnalysisRequest(const nlohmann::json& body,
                                                    std::vector<FieldError>* errors);

// Parsing the raw body text: malformed JSON (including a NUL byte or any
// bytes after the value) is a 400; a number outside double range anywhere is
// a 422 with the JSON pointer of that number.
struct BodyParse {
  enum Kind { kOk, kMalformed, kOutOfRange } kind = kOk;
  std::string detail;   // for kMalformed / kOutOfRange
  std::string pointer;  // for kOutOfRange
};
BodyParse ParseJsonBody(std::string_view text, nlohmann::json* out);

std::string SerializeAnalysisResponse(const AnalysisResponse& resp);

}  // namespace nunchi
