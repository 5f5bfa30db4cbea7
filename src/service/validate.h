// Semantic validation of an AnalysisRequest (the checks a JSON schema cannot
// express): every new signal is in a bundle with the right kind and post,
// signal and spot ids are unique, texts fit, counts stay under the limits.
// Pure function; safe from any thread.
#pragma once

#include <string>
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
};

std::vector<FieldError> ValidateRequest(const AnalysisRequest& req, const RequestLimits& limits);

}  // namespace nunchi
