#include "render.h"

#include <leptonica/allheaders.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "render_internal.h"

namespace nunchi::render {
namespace {

RenderedImage Finish(Pix* pix, Rng& rng, const GroundTruth& truth) {
  RenderedImage out;
  out.truth = truth;
  bool jpeg = rng.Chance(0.6);
  out.extension = jpeg ? "jpg" : "png";
  out.bytes = EncodeImage(pix, jpeg, rng.Int(60, 92));
  pixDestroy(&pix);
  return out;
}

}  // namespace

RenderedImage RenderReceipt(uint64_t seed) {
  Rng rng(seed * 2 + 1);
  GroundTruth truth;
  Pix* pix = DrawReceipt(rng, &truth);
  PhotoStyle style;
  style.max_rotation_deg = 4;
  style.max_perspective = 0.03;
  style.max_blur = 1;
  style.max_noise = 10;
  return Finish(ApplyPhotoEffects(pix, rng, style), rng, truth);
}

RenderedImage RenderVariedReceipt(uint64_t seed) {
  Rng rng(seed * 2 + 5);
  GroundTruth truth;
  Pix* pix = DrawVariedReceipt(rng, &truth);
  PhotoStyle style;
  style.max_rotation_deg = 6;
  style.max_perspective = 0.05;
  style.max_blur = 1.5;
  style.max_noise = 12;
  style.warp = 3;
  style.max_cut = 0.04;
  return Finish(ApplyPhotoEffects(pix, rng, style), rng, truth);
}

RenderedImage RenderTaxiMeter(uint64_t seed) {
  Rng rng(seed * 2 + 2);
  GroundTruth truth;
  Pix* pix = DrawMeter(rng, &truth);
  PhotoStyle style;
  style.dark_scene = truth.layout == "led_meter";
  style.max_rotation_deg = 6;
  style.max_perspective = 0.05;
  style.max_blur = 2;
  style.max_noise = 12;
  return Finish(ApplyPhotoEffects(pix, rng, style), rng, truth);
}

RenderedImage RenderPolygonMeter(uint64_t seed) {
  Rng rng(seed * 2 + 3);
  GroundTruth truth;
  bool lcd = false;
  Pix* pix = DrawPolygonMeter(rng, &truth, &lcd);
  PhotoStyle style;
  style.dark_scene = !lcd;
  style.max_rotation_deg = 6;
  style.max_perspective = 0.09;
  style.max_blur = 2;
  style.max_noise = 12;
  return Finish(ApplyPhotoEffects(pix, rng, style), rng, truth);
}

RenderedImage RenderSample(uint64_t seed) {
  Rng pick(seed ^ 0x5eed);
  return pick.Chance(0.5) ? RenderReceipt(seed) : RenderTaxiMeter(seed);
}

bool RenderSet(const std::string& dir, int count, uint64_t seed, std::string* error, bool varied,
               SetKind kind) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    *error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  for (int i = 0; i < count; ++i) {
    uint64_t s = seed + static_cast<uint64_t>(i);
    RenderedImage img;
    if (kind == SetKind::kReceipts) {
      img = varied ? RenderVariedReceipt(s) : RenderReceipt(s);
    } else if (kind == SetKind::kMeters) {
      img = varied && i % 2 == 1 ? RenderPolygonMeter(s) : RenderTaxiMeter(s);
    } else if (varied && i % 3 == 2) {
      img = RenderPolygonMeter(s);
    } else {
      img = RenderSample(s);
    }
    char stem[64];
    std::snprintf(stem, sizeof stem, "%04d-%s", i, img.truth.layout.c_str());
    std::string base = (std::filesystem::path(dir) / stem).string();
    std::ofstream image(base + "." + img.extension, std::ios::binary);
    image.write(reinterpret_cast<const char*>(img.bytes.data()),
                static_cast<std::streamsize>(img.bytes.size()));
    std::ofstream json(base + ".json");
    json << TruthToJson(img.truth);
    if (!image || !json) {
      *error = "cannot write " + base;
      return false;
    }
  }
  return true;
}

}  // namespace nunchi::render
