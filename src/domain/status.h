// Status and Result<T>: how errors cross module boundaries in nunchi.
// A Status carries one ErrorCode from a closed set and a human message; the
// HTTP layer maps each code to one status and problem type in one place
// (src/http/problem.cpp). Plain values, safe to copy between threads.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace nunchi {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,   // semantic error in the caller's input
  kStateReset,        // stored judgments cannot be trusted (409 STATE_RESET)
  kDeadlineExceeded,  // work could not finish in time
  kUnavailable,       // a backend or engine is down or overloaded
  kInvalidOutput,     // a model answered something that breaks the schema
  kDegenerated,       // a generation looped and was cut
  kNotFound,
  kIo,                // storage or file system failure
  kInternal,
};

const char* ErrorCodeName(ErrorCode code);

class Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

// Result<T> holds either a value or a non-ok Status.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT
  Result(ErrorCode code, std::string message) : v_(Status(code, std::move(message))) {}

  bool ok() const { return std::holds_alternative<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace nunchi
