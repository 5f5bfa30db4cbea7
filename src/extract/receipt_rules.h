// Receipt field rules over OCR lines: the total among the labelled amounts
// (결제금액, 승인금액, 받을금액, 합계, 총액 beat 공급가액, 부가세, 할인,
// 거스름돈), cross-checked with supply value + VAT, tendered - change and the
// tender line; the date and time, the merchant, the card company or bank, and
// the 8-digit approval number. Pure; thread-safe if the chooser is.
#pragma once

#include <vector>

#include "candidate_chooser.h"
#include "types.h"

namespace nunchi::extract {

// chooser may be null. Fills every field of ReceiptResult except elapsed_ms.
ReceiptResult ReadReceiptFields(const std::vector<OcrLine>& lines, CandidateChooser* chooser);

// VAT is about 10 % of the supply value (rounding to the won either way).
bool VatMatchesSupply(int64_t supply, int64_t vat);

}  // namespace nunchi::extract
