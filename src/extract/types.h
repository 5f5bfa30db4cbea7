// Value types of the extraction layer: boxes, OCR text, extracted fields with
// confidence and evidence, and the typed errors for unreadable input. Plain
// values, safe to copy between threads. No third-party headers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace nunchi::extract {

// A rectangle in the coordinates of the image as uploaded (pixels).
struct Box {
  int x = 0, y = 0, w = 0, h = 0;
  int right() const { return x + w; }
  int bottom() const { return y + h; }
};

// One recognised word or number, or a whole text line.
struct OcrWord {
  std::string text;  // UTF-8
  Box box;
  float confidence = 0;  // 0..1
};
struct OcrLine {
  std::string text;  // words joined by single spaces
  Box box;
  float confidence = 0;  // mean of the words
  std::vector<OcrWord> words;
};

// Where a value was read: the OCR text of its line (or the digits read by the
// seven-segment reader) and their box.
struct Evidence {
  std::string source;  // "ocr" or "seven_segment"
  std::string text;
  Box box;
};

// Below this a field is reported as low confidence (the response lists it
// under low_confidence and /metrics counts it).
inline constexpr double kLowConfidence = 0.5;

template <typename T>
struct Field {
  std::optional<T> value;  // absent when nothing plausible was found
  double confidence = 0;   // 0..1
  Evidence evidence;
};

struct TaxiFareResult {
  Field<int64_t> amount;  // won, a multiple of 100, at least the base fare
  std::string method;     // "seven_segment" or "ocr"
  std::string ocr_text;   // every OCR line, one per row (empty for seven_segment)
  double elapsed_ms = 0;
};

struct ReceiptResult {
  Field<int64_t> amount;               // won, the total paid
  Field<std::string> paid_at;          // "YYYY-MM-DDTHH:MM:SS", local time
  Field<std::string> merchant;         // store, or the recipient of a transfer
  Field<std::string> issuer;           // canonical card company or bank name
  Field<std::string> approval_number;  // 8 digits
  bool vat_consistent = false;         // supply value + VAT == amount was seen
  std::string ocr_text;                // every OCR line, one per row
  double elapsed_ms = 0;
};

// Why an upload could not be read. Each maps to one HTTP status and problem
// code in src/http/extract_routes.cpp.
enum class InputError {
  kNotAnImage,     // not a PNG or JPEG (NOT_AN_IMAGE, 415)
  kTruncated,      // a PNG or JPEG that ends early (IMAGE_TRUNCATED, 422)
  kTooLarge,       // over the byte or pixel limit (IMAGE_TOO_LARGE, 413)
  kUndecodable,    // a corrupt image body (IMAGE_UNREADABLE, 422)
  kEngineFailure,  // OCR could not start (EXTRACTION_UNAVAILABLE, 503)
};

struct ExtractError {
  InputError code;
  std::string message;
};

// A value or the reason there is none.
template <typename T>
using Expected = std::variant<T, ExtractError>;

}  // namespace nunchi::extract
