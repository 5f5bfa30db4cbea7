#include "domain/trace_context.h"

#include <cstdint>
#include <random>

namespace nunchi {
namespace {

bool Hex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool AllZero(std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; }

// n random lowercase hex digits, not all zero.
std::string RandomHex(size_t n) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(n, '0');
  do {
    for (size_t i = 0; i < n; i += 16) {
      uint64_t bits = rng();
      for (size_t k = i; k < n && k < i + 16; ++k, bits >>= 4) out[k] = kDigits[bits & 15];
    }
  } while (AllZero(out));
  return out;
}

}  // namespace

bool ValidTraceparent(std::string_view v) {
  // 2 + 1 + 32 + 1 + 16 + 1 + 2 = 55 characters in version 00.
  if (v.size() < 55 || v[2] != '-' || v[35] != '-' || v[52] != '-') return false;
  const std::string_view version = v.substr(0, 2), trace = v.substr(3, 32),
                         parent = v.substr(36, 16), flags = v.substr(53, 2);
  if (!Hex(version) || !Hex(trace) || !Hex(parent) || !Hex(flags)) return false;
  if (version == "ff" || AllZero(trace) || AllZero(parent)) return false;
  return version == "00" ? v.size() == 55 : (v.size() == 55 || v[55] == '-');
}

std::string NewTraceparent() { return "00-" + RandomHex(32) + "-" + RandomHex(16) + "-01"; }

std::string ChildTraceparent(std::string_view parent) {
  if (!ValidTraceparent(parent)) return NewTraceparent();
  return "00-" + std::string(parent.substr(3, 32)) + "-" + RandomHex(16) + "-" +
         std::string(parent.substr(53, 2));
}

std::string TraceIdOf(std::string_view v) {
  return ValidTraceparent(v) ? std::string(v.substr(3, 32)) : std::string();
}

std::string SpanIdOf(std::string_view v) {
  return ValidTraceparent(v) ? std::string(v.substr(36, 16)) : std::string();
}

}  // namespace nunchi
