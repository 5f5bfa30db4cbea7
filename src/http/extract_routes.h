// HTTP routes of the image extraction layer (design section 5):
//   POST /v1/extractions/taxi-fare
//   POST /v1/extractions/receipt
// The image comes as multipart/form-data field `image`, or as the raw body
// (image/jpeg or image/png). Answers JSON with the amount in won, the receipt
// fields, a confidence and the evidence per field; unreadable uploads get an
// RFC 9457 problem (application/problem+json) with a stable `code`:
//   400 MISSING_IMAGE, 413 IMAGE_TOO_LARGE, 415 NOT_AN_IMAGE,
//   422 IMAGE_TRUNCATED, 422 IMAGE_UNREADABLE, 503 EXTRACTION_UNAVAILABLE.
// Thread-safety: the handlers run on httplib's worker threads; they share one
// extract::Extractor (thread-safe, at most two OCR engines at a time) owned by
// the registered handlers, so it lives as long as the server. With a chooser
// (an LLM judge, see extract/candidate_chooser.h) the field rules consult it
// when they are unsure; it must outlive the server.
#pragma once

#include <httplib.h>

#include <cstddef>
#include <mutex>

namespace nunchi {

namespace extract {
class CandidateChooser;
}

struct ExtractLimits {
  size_t max_bytes = 10 << 20;  // upload size cap
  int max_pixels = 40'000'000;  // width x height cap, checked before decoding
  // Admission: images decoded at once, and the memory their decoding may
  // hold together, charged at kWorkingBytesPerPixel; over either, 503
  // EXTRACTION_BUSY with Retry-After. One image alone is always admitted
  // (max_pixels bounds it).
  size_t max_concurrent_decodes = 4;
  size_t max_decoded_bytes = 512u << 20;
  // What decoding one pixel holds at its peak: the 32-bit decoded image plus
  // the grayscale and scaled working copies of the pipeline. Measured 7.7
  // bytes (eight 6000 x 6000 PNGs, three at once: +830 MiB of RSS,
  // Hostile.EightPngBombsAtOnceStayWithinTheDecodeBudget), so 8.
  static constexpr size_t kWorkingBytesPerPixel = 8;
};

// The admission bound above. Thread-safe.
class DecodeAdmission {
 public:
  DecodeAdmission(size_t max_concurrent, size_t max_bytes)
      : max_concurrent_(max_concurrent), max_bytes_(max_bytes) {}
  // True and reserved, or false when over a bound; Release what was acquired.
  bool TryAcquire(size_t bytes);
  void Release(size_t bytes);
  size_t in_use_bytes() const;

 private:
  const size_t max_concurrent_, max_bytes_;
  mutable std::mutex mu_;
  size_t running_ = 0, bytes_ = 0;
};

class MetricsRegistry;

// metrics, if given, counts low-confidence fields
// (nunchi_extract_low_confidence_total{kind,field}); it must outlive the server.
void RegisterExtractRoutes(httplib::Server& server, const ExtractLimits& limits,
                           extract::CandidateChooser* chooser = nullptr,
                           MetricsRegistry* metrics = nullptr);

}  // namespace nunchi
