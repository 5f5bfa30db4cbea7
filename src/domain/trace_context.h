// W3C Trace Context (https://www.w3.org/TR/trace-context/) for the
// `traceparent` header: "00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>".
// The HTTP edge takes a caller's traceparent or starts a trace; every call
// nunchi makes to a remote model server sends a child of it: the same trace
// id and flags, a new parent id (span) per call.
//
// Pure functions apart from the random ids (a per-thread generator); safe
// from any thread.
#pragma once

#include <string>
#include <string_view>

namespace nunchi {

// True for a well-formed traceparent: lowercase hex, the ids not all zero,
// version not ff; version 00 has exactly 55 characters, a later version may
// carry more after a '-'.
bool ValidTraceparent(std::string_view value);

// "00-<new trace id>-<new span id>-01": the start of a trace.
std::string NewTraceparent();

// A child of parent for one outgoing call: version 00, parent's trace id and
// flags, a new span id. A new trace when parent is empty or not valid.
std::string ChildTraceparent(std::string_view parent);

// The 32 hex digits of the trace id; "" when value is not valid.
std::string TraceIdOf(std::string_view value);
// The 16 hex digits of the parent id (span); "" when value is not valid.
std::string SpanIdOf(std::string_view value);

}  // namespace nunchi
