// Semantic validation of an AnalysisRequest (the checks a JSON schema cannot
// express): every new signal is in a bundle with the right kind and post,
// signal and spot ids are unique, texts fit, counts stay under the limits.
// Pure function; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/contract.h"

namespace nunchi {

struct FieldError {
  std::string pointer;  // RFC 6901 JSON pointer into the request body
  std::string detail;
};

struct RequestLimits {
  size_t max_text_chars = 2000;   // per signal text, in code points
  size_t max_signals = 5000;      // signals in all bundles of one request
  size_t max_new_signals = 2000;  // entries of new_signals
  size_t max_spots = 1000;
  size_t max_id_bytes = 128;  // every identifier (spot, post, signal, author, epoch)
};

// Why an identifier is refused, or empty when it is acceptable: longer than
// max_bytes, not valid UTF-8, or holding a control character (C0, DEL, C1).
std::string IdentifierProblem(std::string_view id, size_t max_bytes);

// id quoted for an error message, cut to a few dozen bytes at a UTF-8 boundary.
std::string QuoteId(std::string_view id);

std::vector<FieldError> ValidateRequest(const AnalysisRequest& req, const RequestLimits& limits);

}  // namespace nunchi
