// Pipeline tests on rendered images: malformed uploads, the seven-segment
// reader and end-to-end accuracy with a fixed seed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "extract/extractor.h"
#include "extract/ocr.h"
#include "extract/preprocess.h"
#include "extract/sevenseg.h"
#include "extract/taxi_rules.h"
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

// PNG bytes of a 32 bpp image drawn by `paint` (x, y) -> 0xRRGGBB.
template <typename Paint>
std::string Png(int w, int h, Paint paint) {
  PixPtr pix(pixCreate(w, h, 32));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint32_t c = paint(x, y);
      pixSetRGBPixel(pix.get(), x, y, (c >> 16) & 255, (c >> 8) & 255, c & 255);
    }
  }
  l_uint8* data = nullptr;
  size_t size = 0;
  pixWriteMemPng(&data, &size, pix.get(), 0);
  std::string out(reinterpret_cast<char*>(data), size);
  lept_free(data);
  return out;
}

// Photos that are neither a meter nor a receipt answer with no amount, or
// with one marked low confidence: never an invented number taken as sure.
TEST(Pipeline, NonDocumentsGiveNoConfidentAmount) {
  Extractor extractor(ExtractorOptions{});
  std::map<std::string, std::string> photos;
  photos["blank page"] = Png(600, 800, [](int, int) { return 0xf4f4f0u; });
  // A street at dusk: sky gradient, buildings, lit windows (saturated amber
  // rectangles on dark, the closest thing to an LED panel), a red car.
  photos["street"] = Png(800, 600, [](int x, int y) -> uint32_t {
    if (y < 250 - (x / 97 % 3) * 40) return 0x203050u + static_cast<uint32_t>(y / 10);
    if (y > 480) return (x > 300 && x < 460 && y < 540) ? 0xc01818u : 0x303030u;
    int bx = x % 97, by = y % 53;
    bool window = bx > 20 && bx < 45 && by > 15 && by < 38 && (x / 97 + y / 53) % 2 == 0;
    return window ? 0xffb020u : 0x3a3530u;
  });
  // Sensor noise: every pixel a random grey (no text, no display).
  photos["noise"] = Png(640, 480, [rng = 7u](int, int) mutable -> uint32_t {
    rng = rng * 1664525u + 1013904223u;
    uint32_t v = rng >> 24;
    return v << 16 | v << 8 | v;
  });
  // A face: skin ellipse, two eyes, a mouth, on a grey wall.
  photos["face"] = Png(500, 600, [](int x, int y) -> uint32_t {
    auto in = [&](double cx, double cy, double rx, double ry) {
      double dx = (x - cx) / rx, dy = (y - cy) / ry;
      return dx * dx + dy * dy <= 1;
    };
    if (in(190, 250, 28, 16) || in(310, 250, 28, 16)) return 0x2a1a10u;
    if (in(250, 420, 70, 18)) return 0xa03030u;
    if (in(250, 300, 170, 220)) return 0xe0b090u;
    return 0x9a9a9au;
  });
  for (const auto& [name, bytes] : photos) {
    auto fare = extractor.TaxiFare(bytes);
    ASSERT_TRUE(std::holds_alternative<TaxiFareResult>(fare)) << name;
    const auto& f = std::get<TaxiFareResult>(fare).amount;
    EXPECT_TRUE(!f.value || f.confidence < kLowConfidence)
        << name << ": taxi fare " << *f.value << " at " << f.confidence;
    auto receipt = extractor.Receipt(bytes);
    ASSERT_TRUE(std::holds_alternative<ReceiptResult>(receipt)) << name;
    const auto& a = std::get<ReceiptResult>(receipt).amount;
    EXPECT_TRUE(!a.value || a.confidence < kLowConfidence)
        << name << ": receipt amount " << *a.value << " at " << a.confidence;
  }
}

// A page lit from one side and grainy (the photos whose global Otsu
// binarisation drowned in specks, read as garbage in seconds): Tesseract's
// local threshold, the second reading of an unsure receipt, still reads
// the total.
TEST(Ocr, ALocalThresholdReadsAnUnevenlyLitNoisyPage) {
  std::string error;
  auto engine = OcrEngine::Create("kor", &error);
  ASSERT_TRUE(engine) << error;
  int local_found = 0, global_found = 0, pages = 0;
  for (uint64_t seed = 11; pages < 3; ++seed) {
    render::RenderedImage img = render::RenderReceipt(seed);
    if (img.truth.layout != "card_slip") continue;
    ++pages;
    auto decoded = DecodeImage(Bytes(img), {});
    ASSERT_TRUE(std::holds_alternative<PixPtr>(decoded));
    PreparedImage prepared = PrepareForOcr(std::get<PixPtr>(decoded).get());
    ASSERT_TRUE(prepared.image);
    Pix* gray = prepared.image.get();
    int w = pixGetWidth(gray), h = pixGetHeight(gray), wpl = pixGetWpl(gray);
    l_uint32* data = pixGetData(gray);
    uint32_t rng = 12345;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        rng = rng * 1664525u + 1013904223u;
        double shade = 1.0 - 0.55 * x / w;  // the right edge gets under half the light
        int noise = static_cast<int>(rng >> 24) % 71 - 35;
        int v = static_cast<int>(GET_DATA_BYTE(data + y * wpl, x) * shade) + noise;
        SET_DATA_BYTE(data + y * wpl, x, std::clamp(v, 0, 255));
      }
    }
    auto digits_of = [](const std::vector<OcrWord>& words) {
      std::string d;
      for (const OcrWord& word : words) {
        for (char c : word.text) {
          if (c >= '0' && c <= '9') d += c;
        }
        d += ' ';
      }
      return d;
    };
    std::string amount = std::to_string(img.truth.amount);
    std::string local = digits_of(engine->Recognize(gray, /*local_threshold=*/true));
    std::string global = digits_of(engine->Recognize(gray, /*local_threshold=*/false));
    local_found += local.find(amount) != std::string::npos;
    global_found += global.find(amount) != std::string::npos;
  }
  EXPECT_GE(local_found, 2) << "the global threshold found " << global_found << " of 3";
  EXPECT_LT(global_found, local_found) << "local " << local_found << " global " << global_found;
}

// A page half in shadow (a hand or a phone over it): the shadow is no dark
// theme, so the page is not inverted, and the prepared page's ground is one
// level across the shadow's edge, so no global threshold drops its lines.
TEST(Preprocess, AShadowOverHalfThePageIsFlattenedNotInverted) {
  auto decoded = DecodeImage(Bytes(RenderLayout(false, "pos", 5)), {});
  ASSERT_TRUE(std::holds_alternative<PixPtr>(decoded));
  PixPtr gray(pixConvertRGBToLuminance(std::get<PixPtr>(decoded).get()));
  ASSERT_TRUE(gray);
  int w = pixGetWidth(gray.get()), h = pixGetHeight(gray.get()), wpl = pixGetWpl(gray.get());
  l_uint32* data = pixGetData(gray.get());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w / 2; ++x) {
      SET_DATA_BYTE(data + y * wpl, x, GET_DATA_BYTE(data + y * wpl, x) * 75 / 100);
    }
  }
  // The ground of a strip of the prepared page: a high percentile (ink is dark).
  auto ground = [](Pix* p, double x0, double x1) {
    int pw = pixGetWidth(p), ph = pixGetHeight(p), pwpl = pixGetWpl(p);
    std::vector<int> v;
    for (int y = ph / 5; y < ph * 4 / 5; ++y) {
      for (int x = static_cast<int>(pw * x0); x < static_cast<int>(pw * x1); ++x) {
        v.push_back(GET_DATA_BYTE(pixGetData(p) + y * pwpl, x));
      }
    }
    std::nth_element(v.begin(), v.begin() + v.size() * 7 / 10, v.end());
    return v[v.size() * 7 / 10];
  };
  PrepareOptions flat, raw;
  raw.normalize_background = false;
  PreparedImage a = PrepareForOcr(gray.get(), flat), b = PrepareForOcr(gray.get(), raw);
  ASSERT_TRUE(a.image && b.image);
  EXPECT_FALSE(a.inverted);
  EXPECT_FALSE(b.inverted);
  int a_dark = ground(a.image.get(), 0.15, 0.4), a_lit = ground(a.image.get(), 0.6, 0.85);
  int b_dark = ground(b.image.get(), 0.15, 0.4), b_lit = ground(b.image.get(), 0.6, 0.85);
  EXPECT_LT(std::abs(a_lit - a_dark), 25)
      << b_dark << " " << b_lit << " " << a_dark << " vs " << a_lit;
  EXPECT_GT(b_lit - b_dark, 50) << b_dark << " vs " << b_lit << " unflattened";
}

// A page tilted 8.5° in all, beyond pixFindSkew's ±7° sweep (rendered
// photos tilt up to 6°, plus perspective): the narrow sweep misses it, the
// wide one, asked only when the narrow one is unsure, straightens it.
TEST(Preprocess, AWideSweepFindsATiltBeyondTheNarrowSweep) {
  auto decoded = DecodeImage(Bytes(render::RenderReceipt(3)), {});
  ASSERT_TRUE(std::holds_alternative<PixPtr>(decoded));
  Pix* page = std::get<PixPtr>(decoded).get();
  const double deg = 3.14159265358979 / 180;
  PrepareOptions narrow, wide;
  wide.wide_skew_deg = 10;
  double own = PrepareForOcr(page, narrow).geometry.angle_rad;  // the photo's own tilt
  double extra = (own >= 0 ? 8.5 : -8.5) * deg - own;
  PixPtr tilted(
      pixRotate(page, static_cast<l_float32>(-extra), L_ROTATE_AREA_MAP, L_BRING_IN_WHITE, 0, 0));
  ASSERT_TRUE(tilted);
  double want = own + extra;
  double narrow_angle = PrepareForOcr(tilted.get(), narrow).geometry.angle_rad;
  double wide_angle = PrepareForOcr(tilted.get(), wide).geometry.angle_rad;
  EXPECT_NEAR(wide_angle, want, 1.0 * deg) << "own " << own / deg << " wide " << wide_angle / deg;
  EXPECT_GT(std::abs(narrow_angle - want), 1.0 * deg) << narrow_angle / deg;
}

// Polygon seven-segment meters (every segment a separate hexagon with a gap,
// LED and LCD): each digit is one cell, not two or three blobs.
TEST(SevenSegment, ReadsGappedPolygonSegmentsAndLcd) {
  int hit = 0, total = 0, lcd = 0, lcd_hit = 0;
  for (uint64_t seed = 300; seed < 316; ++seed) {
    render::RenderedImage img = render::RenderPolygonMeter(seed);
    Expected<PixPtr> pix = DecodeImage(Bytes(img), {});
    ASSERT_TRUE(std::holds_alternative<PixPtr>(pix));
    Field<int64_t> fare =
        FareFromSevenSegment(ReadSevenSegment(std::get<PixPtr>(pix).get()), TaxiRules{});
    bool ok = fare.value == img.truth.amount;
    ++total, hit += ok;
    if (img.truth.layout == "lcd_meter") ++lcd, lcd_hit += ok;
  }
  EXPECT_GE(hit, 12) << hit << "/" << total;
  EXPECT_GT(lcd, 0);
  EXPECT_GE(lcd_hit, 2) << lcd_hit << "/" << lcd;
}

// Combining an unconfirmed display reading with OCR: agreement is sure, a
// disagreement or a reading nothing confirmed is low confidence.
TEST(TaxiRules, CombinedReadingsNeedAgreementToBeSure) {
  auto F = [](int64_t v, double c) {
    Field<int64_t> f;
    f.value = v, f.confidence = c;
    return f;
  };
  std::string method;
  Field<int64_t> agree = CombineFareReadings(F(12300, 0.5), F(12300, 0.4), &method);
  EXPECT_EQ(agree.value, 12300);
  EXPECT_GE(agree.confidence, 0.85);
  EXPECT_EQ(method, "seven_segment");
  Field<int64_t> app = CombineFareReadings(F(8800, 0.5), F(12300, 0.8), &method);
  EXPECT_EQ(app.value, 12300);
  EXPECT_EQ(method, "ocr");
  EXPECT_LT(app.confidence, kLowConfidence);
  Field<int64_t> panel = CombineFareReadings(F(12300, 0.55), F(6000, 0.3), &method);
  EXPECT_EQ(panel.value, 12300);
  EXPECT_LT(panel.confidence, kLowConfidence);
  Field<int64_t> alone = CombineFareReadings(F(12300, 0.55), Field<int64_t>{}, &method);
  EXPECT_EQ(alone.value, 12300);
  EXPECT_EQ(method, "seven_segment");
  EXPECT_LT(alone.confidence, kLowConfidence);
  Field<int64_t> none = CombineFareReadings(Field<int64_t>{}, Field<int64_t>{}, &method);
  EXPECT_FALSE(none.value);
}

// A fare is sure only when a second binarisation read the same digits and
// it is plausible; otherwise it stays under the accept level.
TEST(TaxiRules, UnconfirmedOrImplausibleFaresAreUnsure) {
  SevenSegReading row;
  row.digits = "12300";
  row.digit_height = 50;
  row.confidence = 0.9;
  row.confirmed = true;
  EXPECT_GE(FareFromSevenSegment({row}, TaxiRules{}).confidence, 0.7);
  row.confirmed = false;
  Field<int64_t> unsure = FareFromSevenSegment({row}, TaxiRules{});
  EXPECT_EQ(unsure.value, 12300);
  EXPECT_LT(unsure.confidence, ExtractorOptions{}.seven_segment_accept);
  row.confirmed = true;
  row.digits = "12345";  // not a multiple of 100
  EXPECT_LT(FareFromSevenSegment({row}, TaxiRules{}).confidence, kLowConfidence);
}

// A 원 or ₩ sign read as a digit at either end is no digit of the fare; the
// trimmed fare is unsure until OCR agrees.
TEST(TaxiRules, ASignReadAsADigitIsTrimmed) {
  SevenSegReading row;
  row.digits = "330006";
  row.digit_height = 50;
  row.confidence = 0.9;
  row.confirmed = true;
  Field<int64_t> fare = FareFromSevenSegment({row}, TaxiRules{});
  EXPECT_EQ(fare.value, 33000);
  EXPECT_LT(fare.confidence, ExtractorOptions{}.seven_segment_accept);
  row.digits = "312300";
  EXPECT_EQ(FareFromSevenSegment({row}, TaxiRules{}).value, 312300);  // plausible as read
  row.digits = "812345";
  EXPECT_LT(FareFromSevenSegment({row}, TaxiRules{}).confidence, kLowConfidence);
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
