// Seven-segment reader for LED and LCD taxi meters: finds the lit segments
// (bright against a dark panel, or dark on a light LCD glass, ignoring the
// faint unlit "ghost" segments), groups them into rows, corrects rotation and
// italic slant, cuts each row into digit cells where the strokes' x-ranges
// leave a gap (so a digit drawn as separate segments is one digit), reads
// each cell from its seven segment zones and re-reads the row from a second
// binarisation to confirm it. Pure function; thread-safe.
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
  double confidence = 0;   // mean per-digit decoding confidence, 0..1
  bool dark = false;       // dark digits on a light glass (LCD), not lit ones (LED)
  bool confirmed = false;  // a second binarisation read the same digits
};

// Every row of at least two seven-segment digits, tallest first. Returns
// nothing for images without a lit display (receipts, app screens).
std::vector<SevenSegReading> ReadSevenSegment(Pix* rgb);

// Decodes one digit from the lit fraction (0..1) of its segments a..g.
// Returns -1 when no digit fits; *confidence is the margin to the runner-up.
int DecodeSegments(const double lit[7], double* confidence);

}  // namespace nunchi::extract
