// Numerals in the compact text of text_util.h, for the quantity pass: Arabic digits
// with ranges ("20~30"), Sino-Korean ("삼십오", "이삼십") and native Korean ("다섯",
// "스무", "두세") numbers, "몇" (a few) and "반" (a half); and the two lookups the pass
// reads them with. Internal to the judges module; pure functions, safe from any thread.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace nunchi::judges::numerals {

// Whether w starts at pos of s.
bool At(std::string_view s, size_t pos, std::string_view w);
// Whether any of ws occurs in s[from, to).
bool Near(std::string_view s, size_t from, size_t to, std::initializer_list<std::string_view> ws);
inline bool IsDigit(char ch) { return ch >= '0' && ch <= '9'; }

struct Number {
  double value = 0;
  size_t len = 0;
  bool digits = false;  // written in Arabic digits
  bool range = false;   // "20~30", "두세", "이삼십": value is the middle
  bool few = false;     // "몇": an unknown small number
};

// The number that starts at pos of the compact text t (len 0: none; also 0 inside a number).
Number ParseNumber(std::string_view t, size_t pos);

// Whether a clause of the compact text is a head count with a hedge and digits: "15명쯤",
// "20팀정도", "maybe 50 people" (the question pass: such a clause with "?" asks nothing).
bool IsHedgedCount(std::string_view clause);

}  // namespace nunchi::judges::numerals
