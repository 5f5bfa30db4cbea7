// Renderer of synthetic, labelled test images for the extraction pipeline:
// Korean card slips, POS receipts and bank transfer slips, and taxi meters
// (LED seven-segment panels drawn with fonts-dseg, and app meter screens),
// with varying fonts, layouts, sizes, noise, blur, rotation and perspective.
// Deterministic: the same seed gives the same bytes. Needs no network, only
// the Debian font packages listed in scripts/apt-packages/extract.txt.
// Thread-safe (each call owns its drawing state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "truth.h"

namespace nunchi::render {

struct RenderedImage {
  std::vector<uint8_t> bytes;  // encoded image
  std::string extension;       // "png" or "jpg"
  GroundTruth truth;
};

RenderedImage RenderReceipt(uint64_t seed);
RenderedImage RenderTaxiMeter(uint64_t seed);
// A polygon seven-segment meter (gapped segments, LED or LCD, 원 sign, a
// second counter): variation beyond RenderTaxiMeter, for development sets.
RenderedImage RenderPolygonMeter(uint64_t seed);

// A varied receipt (other fonts, spaced labels, currency signs before and
// after, next-line and dotted-leader amounts, more merchant and date forms,
// thermal fading, warping, a cut-off edge), for development sets.
RenderedImage RenderVariedReceipt(uint64_t seed);

// Receipt or meter, about half each, chosen by the seed.
RenderedImage RenderSample(uint64_t seed);

// Writes `count` samples as DIR/NNNN-<layout>.{png,jpg} plus .json truth,
// creating DIR. Returns false and sets *error on an I/O failure.
// With `varied`, every third sample is a polygon meter. `kind` keeps only
// receipts or only meters (with `varied`: every receipt a varied one, every
// second meter a polygon meter).
enum class SetKind { kAll, kReceipts, kMeters };
bool RenderSet(const std::string& dir, int count, uint64_t seed, std::string* error,
               bool varied = false, SetKind kind = SetKind::kAll);

}  // namespace nunchi::render
