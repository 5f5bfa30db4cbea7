// The one-line text form of a CascadeRecord (domain/contract.h) that stores
// keep in a column: "outcome|calibration|threshold|cheap_judge|relevance|level|cause|confidence".
// Empty text is no record. Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "domain/contract.h"

namespace nunchi {

std::string_view ToString(CascadeRecord::Outcome o);  // "cheap", "llm", "kept_time", "kept_error"
std::string EncodeCascadeRecord(const std::optional<CascadeRecord>& r);
// nullopt for empty or malformed text.
std::optional<CascadeRecord> DecodeCascadeRecord(std::string_view text);

}  // namespace nunchi
