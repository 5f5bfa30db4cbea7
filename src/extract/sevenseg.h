// Seven-segment reader for LED taxi meters: finds the lit segments (bright
// against the panel, ignoring the faint unlit "ghost" segments), groups them
// into digits and rows, corrects rotation and italic slant, and reads each
// digit from its seven segment zones. Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pix.h"
#include "types.h"

namespace nunchi::extract {

struct SevenSegReading {
  std::string digits;  // left to right, e.g. "12300"
  Box box;             // upload coordinates
  double digit_height = 0;
  double confidence = 0;  // mean per-digit decoding confidence, 0..1
};

// Every row of at least two seven-segment digits, tallest first. Returns
// nothing for images without a lit display (receipts, app screens).
std::vector<SevenSegReading> ReadSevenSegment(Pix* rgb);

// Decodes one digit from the lit fraction (0..1) of its segments a..g.
// Returns -1 when no digit fits; *confidence is the margin to the runner-up.
int DecodeSegments(const double lit[7], double* confidence);

}  // namespace nunchi::extract
