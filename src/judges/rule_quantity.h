// The quantity pass of the Korean rules: waiting times, queue sizes, ticket
// numbers and people ahead in every written form (대기 N팀, 번호표 N번 … 지금 M번,
// 앞에 N명, 한 시간 반, 삼십오 분, 10분컷, 1시간째, 20~30분, 대략/한/정도/쯤),
// and the figures that are not waits (clock times "3시에 도착", "2시 30분 입장",
// distances, intervals, "N분 뒤"). Works on the compact form of text_util.h.
// Internal to the judges module; pure functions, safe from any thread.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "judges/rules.h"

namespace nunchi::judges {

// How a figure was written: the quantity pass's confidence is measured per form.
enum class FigureForm : unsigned char {
  kDigits,  // "40분", "대기 12팀"
  kKorean,  // "삼십 분", "한 시간 반", "다섯 명"
  kRange,   // "20~30분", "두세 시간", "이삼십 분": the representative value is the middle
  kAhead,   // "번호표 87번 … 지금 52번": people ahead from two ticket numbers
};

struct Figure {
  size_t pos = 0;  // byte offset in the compact text
  size_t len = 0;  // bytes consumed
  WaitInfo info;   // level filled by WaitLevel
  FigureForm form = FigureForm::kDigits;
};

// Parses a waiting-time or queue figure starting at pos of the compact text t;
// returns bytes consumed (0 if none).
size_t ParseFigure(std::string_view t, size_t pos, Figure* out);

// Every figure of a compact text, left to right, non-overlapping; a ticket
// number followed by "지금/현재 M번" becomes the people ahead (kAhead).
std::vector<Figure> FindFigures(std::string_view t);

// Level of a waiting time / queue figure (the thresholds of the label guide).
Level WaitLevel(WaitInfo::Unit unit, double amount);

}  // namespace nunchi::judges
