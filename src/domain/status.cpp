#include "domain/status.h"

namespace nunchi {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case ErrorCode::kStateReset: return "STATE_RESET";
    case ErrorCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case ErrorCode::kUnavailable: return "UNAVAILABLE";
    case ErrorCode::kInvalidOutput: return "INVALID_OUTPUT";
    case ErrorCode::kDegenerated: return "DEGENERATED";
    case ErrorCode::kNotFound: return "NOT_FOUND";
    case ErrorCode::kIo: return "IO_ERROR";
    case ErrorCode::kInternal: return "INTERNAL";
  }
  return "INTERNAL";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(ErrorCodeName(code_)) + ": " + message_;
}

}  // namespace nunchi
