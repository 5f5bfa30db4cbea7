#include "extractor.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>

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

struct BoxDeleter {
  void operator()(::Box* b) const { boxDestroy(&b); }
};
std::unique_ptr<::Box, BoxDeleter> PixBox(int x, int y, int w, int h) {
  return std::unique_ptr<::Box, BoxDeleter>(boxCreate(x, y, w, h));
}

// The row within `range` of `mid` with the least ink (none for a clean cut),
// or -1 if every row there crosses text.
int BlankRowNear(Pix* gray, int mid, int range) {
  int w = pixGetWidth(gray), h = pixGetHeight(gray), wpl = pixGetWpl(gray);
  l_uint32* data = pixGetData(gray);
  int best = -1, best_ink = w;
  for (int d = 0; d <= range; ++d) {
    for (int y : {mid - d, mid + d}) {
      if (y <= 0 || y >= h) continue;
      int ink = 0;
      for (int x = 0; x < w; ++x) ink += GET_DATA_BYTE(data + y * wpl, x) < 128;
      if (ink < best_ink) best_ink = ink, best = y;
      if (ink == 0) return y;
    }
  }
  return best_ink <= 2 ? best : -1;
}

}  // namespace

Extractor::Extractor(ExtractorOptions options)
    : options_(std::move(options)),
      pool_(std::make_unique<OcrPool>(options_.language, options_.max_engines)) {}

Extractor::~Extractor() = default;

Expected<std::vector<OcrLine>> Extractor::Ocr(Pix* rgb, bool allow_split,
                                              const PrepareOptions& prepare, bool local_threshold) {
  PreparedImage prepared = PrepareForOcr(rgb, prepare);
  if (!prepared.image) return std::vector<OcrLine>{};
  Expected<OcrPool::Lease> lease = pool_->Acquire();
  if (auto* e = std::get_if<ExtractError>(&lease)) return *e;
  OcrPool::Lease& first = std::get<OcrPool::Lease>(lease);
  Pix* image = prepared.image.get();
  std::vector<OcrLine> lines;
  // Tall pages: read the two halves at once on two engines (one per core),
  // cut at a blank row so that no text line is split. Rows are grouped per
  // half, which also follows a tilt that varies down the page (perspective).
  int w = pixGetWidth(image), h = pixGetHeight(image);
  int cut = allow_split && options_.split_ocr && h > 500 ? BlankRowNear(image, h / 2, h / 6) : -1;
  std::optional<OcrPool::Lease> second = cut > 0 ? pool_->TryAcquire() : std::nullopt;
  if (second) {
    PixPtr top(pixClipRectangle(image, PixBox(0, 0, w, cut).get(), nullptr));
    PixPtr bottom(pixClipRectangle(image, PixBox(0, cut, w, h - cut).get(), nullptr));
    auto lower = std::async(std::launch::async,
                            [&] { return (*second)->Recognize(bottom.get(), local_threshold); });
    lines = GroupIntoLines(first->Recognize(top.get(), local_threshold));
    std::vector<OcrWord> lower_words = lower.get();
    for (OcrWord& word : lower_words) word.box.y += cut;
    for (OcrLine& line : GroupIntoLines(std::move(lower_words))) lines.push_back(std::move(line));
  } else {
    lines = GroupIntoLines(first->Recognize(image, local_threshold));
  }
  // Boxes go back to upload coordinates.
  for (OcrLine& line : lines) {
    line.box = prepared.geometry.ToUpload(line.box);
    for (OcrWord& word : line.words) word.box = prepared.geometry.ToUpload(word.box);
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
    Expected<std::vector<OcrLine>> lines = Ocr(rgb, /*allow_split=*/true, options_.prepare);
    if (auto* e = std::get_if<ExtractError>(&lines)) return *e;
    const auto& ocr = std::get<std::vector<OcrLine>>(lines);
    Field<int64_t> fare = FareFromOcr(ocr, options_.taxi, options_.chooser);
    result.ocr_text = JoinLines(ocr);
    result.amount = CombineFareReadings(seg, fare, &result.method);
  }
  result.elapsed_ms = MsSince(t0);
  return result;
}

Expected<ReceiptResult> Extractor::Receipt(std::string_view bytes) {
  auto t0 = std::chrono::steady_clock::now();
  Expected<PixPtr> decoded = DecodeImage(bytes, options_.limits);
  if (auto* e = std::get_if<ExtractError>(&decoded)) return *e;
  Pix* rgb = std::get<PixPtr>(decoded).get();
  PrepareOptions prepare = options_.prepare;
  prepare.wide_skew_deg = options_.receipt_wide_skew_deg;
  Expected<std::vector<OcrLine>> lines = Ocr(rgb, true, prepare);
  if (auto* e = std::get_if<ExtractError>(&lines)) return *e;
  const auto& ocr = std::get<std::vector<OcrLine>>(lines);
  ReceiptResult result = ReadReceiptFields(ocr, options_.chooser);
  result.ocr_text = JoinLines(ocr);
  if (result.amount.confidence < options_.receipt_reread_below) {
    // A second, independent reading: the image as photographed (ground not
    // flattened) with a local threshold. The two readings slip on different
    // pages (flattening saves shadowed and faded lines and breaks some bold
    // or coloured headings); each field comes from the reading that is surer
    // of it.
    PrepareOptions raw = prepare;
    raw.normalize_background = false;
    Expected<std::vector<OcrLine>> again = Ocr(rgb, true, raw, true);
    if (auto* lines2 = std::get_if<std::vector<OcrLine>>(&again)) {
      ReceiptResult second = ReadReceiptFields(*lines2, options_.chooser);
      auto surer = [](auto& mine, const auto& other) {
        if (other.value && (!mine.value || other.confidence > mine.confidence)) mine = other;
      };
      if (second.amount.value &&
          (!result.amount.value || second.amount.confidence > result.amount.confidence)) {
        result.amount = second.amount;
        result.vat_consistent = second.vat_consistent;
      }
      surer(result.paid_at, second.paid_at);
      surer(result.merchant, second.merchant);
      surer(result.issuer, second.issuer);
      surer(result.approval_number, second.approval_number);
    }
  }
  result.elapsed_ms = MsSince(t0);
  return result;
}

}  // namespace nunchi::extract
