#include "extractor.h"

#include <chrono>

#include "ocr.h"
#include "receipt_rules.h"
#include "sevenseg.h"

namespace nunchi::extract {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string JoinLines(const std::vector<OcrLine>& lines) {
  std::string text;
  for (const OcrLine& l : lines) text += l.text + "\n";
  return text;
}

}  // namespace

Extractor::Extractor(ExtractorOptions options)
    : options_(std::move(options)),
      pool_(std::make_unique<OcrPool>(options_.language, options_.max_engines)) {}

Extractor::~Extractor() = default;

Expected<std::vector<OcrLine>> Extractor::Ocr(Pix* rgb) {
  PreparedImage prepared = PrepareForOcr(rgb, options_.prepare);
  if (!prepared.image) return std::vector<OcrLine>{};
  Expected<OcrPool::Lease> lease = pool_->Acquire();
  if (auto* e = std::get_if<ExtractError>(&lease)) return *e;
  std::vector<OcrWord> words = std::get<OcrPool::Lease>(lease)->Recognize(prepared);
  // Rows are found in the deskewed image, then boxes go back to the upload.
  std::vector<OcrLine> lines = GroupIntoLines(std::move(words));
  for (OcrLine& line : lines) {
    line.box = prepared.geometry.ToUpload(line.box);
    for (OcrWord& w : line.words) w.box = prepared.geometry.ToUpload(w.box);
  }
  return lines;
}

Expected<TaxiFareResult> Extractor::TaxiFare(std::string_view bytes) {
  auto t0 = std::chrono::steady_clock::now();
  Expected<PixPtr> decoded = DecodeImage(bytes, options_.limits);
  if (auto* e = std::get_if<ExtractError>(&decoded)) return *e;
  Pix* rgb = std::get<PixPtr>(decoded).get();
  TaxiFareResult result;
  Field<int64_t> seg = FareFromSevenSegment(ReadSevenSegment(rgb), options_.taxi);
  if (seg.value && seg.confidence >= options_.seven_segment_accept) {
    result.amount = seg;
    result.method = "seven_segment";
  } else {
    Expected<std::vector<OcrLine>> lines = Ocr(rgb);
    if (auto* e = std::get_if<ExtractError>(&lines)) return *e;
    const auto& ocr = std::get<std::vector<OcrLine>>(lines);
    Field<int64_t> fare = FareFromOcr(ocr, options_.taxi, options_.chooser);
    result.ocr_text = JoinLines(ocr);
    if (fare.value || !seg.value) {
      result.amount = fare;
      result.method = "ocr";
    } else {
      result.amount = seg;
      result.method = "seven_segment";
    }
  }
  result.elapsed_ms = MsSince(t0);
  return result;
}

Expected<ReceiptResult> Extractor::Receipt(std::string_view bytes) {
  auto t0 = std::chrono::steady_clock::now();
  Expected<PixPtr> decoded = DecodeImage(bytes, options_.limits);
  if (auto* e = std::get_if<ExtractError>(&decoded)) return *e;
  Expected<std::vector<OcrLine>> lines = Ocr(std::get<PixPtr>(decoded).get());
  if (auto* e = std::get_if<ExtractError>(&lines)) return *e;
  const auto& ocr = std::get<std::vector<OcrLine>>(lines);
  ReceiptResult result = ReadReceiptFields(ocr, options_.chooser);
  result.ocr_text = JoinLines(ocr);
  result.elapsed_ms = MsSince(t0);
  return result;
}

}  // namespace nunchi::extract
