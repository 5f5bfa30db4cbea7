// Pipeline tests on rendered images: malformed uploads, the seven-segment
// reader and end-to-end accuracy with a fixed seed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "extract/extractor.h"
#include "extract/sevenseg.h"
#include "render.h"

namespace nunchi::extract {
namespace {

std::string Bytes(const render::RenderedImage& img) {
  return std::string(img.bytes.begin(), img.bytes.end());
}

// First rendered sample of the given layout at or after seed.
render::RenderedImage RenderLayout(bool taxi, const std::string& layout, uint64_t seed) {
  for (;; ++seed) {
    render::RenderedImage img = taxi ? render::RenderTaxiMeter(seed) : render::RenderReceipt(seed);
    if (img.truth.layout == layout) return img;
  }
}

InputError ErrorOf(const Expected<PixPtr>& r) {
  EXPECT_TRUE(std::holds_alternative<ExtractError>(r));
  return std::holds_alternative<ExtractError>(r) ? std::get<ExtractError>(r).code
                                                 : InputError::kEngineFailure;
}

TEST(ImageInput, RejectsNonImages) {
  EXPECT_EQ(ErrorOf(DecodeImage("hello, this is text", {})), InputError::kNotAnImage);
  EXPECT_EQ(ErrorOf(DecodeImage("", {})), InputError::kNotAnImage);
  EXPECT_EQ(ErrorOf(DecodeImage("GIF89a....", {})), InputError::kNotAnImage);
}

TEST(ImageInput, DetectsTruncatedPngAndJpeg) {
  for (uint64_t seed = 1; seed < 40; ++seed) {
    render::RenderedImage img = render::RenderReceipt(seed);
    std::string bytes = Bytes(img);
    ASSERT_TRUE(std::holds_alternative<PixPtr>(DecodeImage(bytes, {}))) << img.extension;
    for (double cut : {0.999, 0.6, 0.2, 0.01}) {
      std::string part = bytes.substr(0, static_cast<size_t>(bytes.size() * cut));
      EXPECT_EQ(ErrorOf(DecodeImage(part, {})), InputError::kTruncated)
          << img.extension << " cut at " << cut;
    }
    if (seed > 6) break;
  }
}

TEST(ImageInput, EnforcesByteAndPixelLimits) {
  std::string bytes = Bytes(render::RenderReceipt(3));
  ImageLimits small_bytes;
  small_bytes.max_bytes = bytes.size() - 1;
  EXPECT_EQ(ErrorOf(DecodeImage(bytes, small_bytes)), InputError::kTooLarge);
  ImageLimits few_pixels;
  few_pixels.max_pixels = 1000;
  EXPECT_EQ(ErrorOf(DecodeImage(bytes, few_pixels)), InputError::kTooLarge);
}

TEST(ImageInput, CorruptBodiesFailCleanly) {
  std::string bytes = Bytes(render::RenderReceipt(5));
  for (size_t i = bytes.size() / 3; i < bytes.size() - 16; i += 7) bytes[i] ^= 0x5A;
  Expected<PixPtr> r = DecodeImage(bytes, {});  // must not crash; either outcome is fine
  if (auto* e = std::get_if<ExtractError>(&r)) {
    EXPECT_FALSE(e->message.empty());
  }
}

TEST(SevenSegment, DecodesCanonicalPatterns) {
  const double eight[7] = {1, 1, 1, 1, 1, 1, 1}, one[7] = {0, 1, 1, 0, 0, 0, 0};
  const double seven[7] = {1, 1, 1, 0, 0, 0, 0}, blank[7] = {0, 0, 0, 0, 0, 0, 0};
  double conf = 0;
  EXPECT_EQ(DecodeSegments(eight, &conf), 8);
  EXPECT_EQ(DecodeSegments(one, &conf), 1);
  EXPECT_EQ(DecodeSegments(seven, &conf), 7);
  EXPECT_EQ(DecodeSegments(blank, &conf), -1);
}

TEST(SevenSegment, ReadsRenderedLedMeters) {
  int hit = 0, total = 0;
  uint64_t seed = 100;
  for (; total < 20; ++total) {
    render::RenderedImage img = RenderLayout(true, "led_meter", seed);
    seed += 1 + total;  // spread the seeds
    Expected<PixPtr> pix = DecodeImage(Bytes(img), {});
    ASSERT_TRUE(std::holds_alternative<PixPtr>(pix));
    auto rows = ReadSevenSegment(std::get<PixPtr>(pix).get());
    Field<int64_t> fare = FareFromSevenSegment(rows, TaxiRules{});
    hit += fare.value == img.truth.amount;
  }
  EXPECT_GE(hit, 16) << hit << "/" << total;
}

TEST(Pipeline, EndToEndOnRenderedImages) {
  Extractor extractor(ExtractorOptions{});
  std::map<int64_t, int> amounts;
  int hit = 0, total = 0;
  for (uint64_t seed = 7000; seed < 7024; ++seed) {
    render::RenderedImage img = render::RenderSample(seed);
    std::string bytes = Bytes(img);
    std::optional<int64_t> got;
    if (img.truth.kind == render::DocKind::kTaxi) {
      auto r = extractor.TaxiFare(bytes);
      ASSERT_TRUE(std::holds_alternative<TaxiFareResult>(r));
      got = std::get<TaxiFareResult>(r).amount.value;
    } else {
      auto r = extractor.Receipt(bytes);
      ASSERT_TRUE(std::holds_alternative<ReceiptResult>(r));
      got = std::get<ReceiptResult>(r).amount.value;
    }
    ++amounts[img.truth.amount];
    ++total;
    hit += got == img.truth.amount;
  }
  // A constant answer gets at most the most common amount right.
  int most_common = 0;
  for (const auto& [amount, n] : amounts) most_common = std::max(most_common, n);
  EXPECT_LT(most_common, total / 4);
  EXPECT_GE(hit, total * 3 / 4) << hit << "/" << total;
}

TEST(Pipeline, CommittedRenderedSet) {
  Extractor extractor(ExtractorOptions{});
  int hit = 0, total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(NUNCHI_EXTRACT_TESTDATA)) {
    if (entry.path().extension() != ".jpg") continue;
    auto read = [](const std::filesystem::path& p) {
      std::ifstream in(p, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      return s.str();
    };
    std::filesystem::path truth_path = entry.path();
    auto truth = render::TruthFromJson(read(truth_path.replace_extension(".json")));
    ASSERT_TRUE(truth) << entry.path();
    std::string bytes = read(entry.path());
    std::optional<int64_t> got;
    if (truth->kind == render::DocKind::kTaxi) {
      auto r = extractor.TaxiFare(bytes);
      if (auto* v = std::get_if<TaxiFareResult>(&r)) got = v->amount.value;
    } else {
      auto r = extractor.Receipt(bytes);
      if (auto* v = std::get_if<ReceiptResult>(&r)) got = v->amount.value;
    }
    ++total;
    hit += got == truth->amount;
  }
  ASSERT_GE(total, 20);
  EXPECT_GE(hit, total * 17 / 20) << hit << "/" << total;
}

}  // namespace
}  // namespace nunchi::extract
