// Extractor: the image-to-fields pipeline behind the extraction routes and
// eval-extract. Decode and validate, then for taxi meters the seven-segment
// reader with OCR as the fallback (app meters), for receipts preprocessing,
// Tesseract (Korean) and the field rules. Thread-safe: any thread may call
// it; OCR engines come from a bounded pool (requests beyond max_engines
// wait). The chooser, if any, is borrowed and must outlive the Extractor.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "candidate_chooser.h"
#include "image_input.h"
#include "preprocess.h"
#include "taxi_rules.h"
#include "types.h"

namespace nunchi::extract {

class OcrPool;

struct ExtractorOptions {
  ImageLimits limits;                   // byte and pixel caps on uploads
  TaxiRules taxi;                       // base fare and cap
  PrepareOptions prepare;               // OCR preprocessing
  std::string language = "kor";         // Tesseract language data
  int max_engines = 2;                  // concurrent OCR engines (about one per core)
  bool split_ocr = true;                // read a tall page's halves on two engines at once
  double seven_segment_accept = 0.6;    // confidence above which OCR is skipped
  double receipt_reread_below = 2;      // amount confidence under which a receipt is read again,
                                        // unflattened, with Tesseract's local (Sauvola) threshold
                                        // (0: never; the default 2 > any confidence: always)
  float receipt_wide_skew_deg = 10;     // PrepareOptions::wide_skew_deg for receipts
  CandidateChooser* chooser = nullptr;  // optional LLM judge (not owned)
};

class Extractor {
 public:
  explicit Extractor(ExtractorOptions options);
  ~Extractor();
  Extractor(const Extractor&) = delete;
  Extractor& operator=(const Extractor&) = delete;

  Expected<TaxiFareResult> TaxiFare(std::string_view image_bytes);
  Expected<ReceiptResult> Receipt(std::string_view image_bytes);

  const ExtractorOptions& options() const { return options_; }

 private:
  // OCR lines of a decoded image, or an engine failure. allow_split: a tall
  // page may be read as two halves on two engines at once; local_threshold:
  // see OcrEngine::Recognize.
  Expected<std::vector<OcrLine>> Ocr(Pix* rgb, bool allow_split, const PrepareOptions& prepare,
                                     bool local_threshold = false);

  ExtractorOptions options_;
  std::unique_ptr<OcrPool> pool_;
};

}  // namespace nunchi::extract
