// Taxi fare rules: a fare is a multiple of 100 won, at least the regional
// base fare (4,800 won in Seoul) and below a sanity cap, and it is the
// display's main (tallest) number rather than a distance or time counter or
// a printed base fare. Pure; thread-safe if the chooser is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "candidate_chooser.h"
#include "sevenseg.h"
#include "types.h"

namespace nunchi::extract {

struct TaxiRules {
  int64_t base_fare = 4800;  // Seoul, 2023 onwards
  int64_t max_fare = 500'000;
};

bool PlausibleFare(int64_t won, const TaxiRules& rules);

// The fare from seven-segment rows (tallest first). Empty value if none fits.
Field<int64_t> FareFromSevenSegment(const std::vector<SevenSegReading>& rows,
                                    const TaxiRules& rules);
// The fare from an unconfirmed display reading (seg, below the accept level;
// may be empty) and an independent OCR reading (ocr; may be empty). Agreeing
// readings are sure (>= 0.85); disagreeing ones give the OCR value where OCR
// is sure of itself (>= 0.6, an app screen), else the display's, at <= 0.4;
// a display reading that nothing confirmed is under kLowConfidence. *method
// is "seven_segment" or "ocr".
Field<int64_t> CombineFareReadings(const Field<int64_t>& seg, const Field<int64_t>& ocr,
                                   std::string* method);

// The fare from OCR lines of an app meter or a photographed screen.
Field<int64_t> FareFromOcr(const std::vector<OcrLine>& lines, const TaxiRules& rules,
                           CandidateChooser* chooser);

}  // namespace nunchi::extract
