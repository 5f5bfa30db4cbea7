// Internals shared by the renderer's source files: the document drawers and
// the photo effects. Every function here is pure given its Rng; Pix results
// are owned by the caller (pixDestroy). Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rng.h"
#include "truth.h"

struct Pix;

namespace nunchi::render {

// Draws a clean receipt (card slip, POS receipt or bank transfer slip).
Pix* DrawReceipt(Rng& rng, GroundTruth* truth);
// Draws a clean taxi meter: an LED seven-segment panel or an app screen.
Pix* DrawMeter(Rng& rng, GroundTruth* truth);
// Draws a seven-segment meter from polygons (gapped segments, LED or LCD);
// *lcd says which.
Pix* DrawPolygonMeter(Rng& rng, GroundTruth* truth, bool* lcd);

struct PhotoStyle {
  bool dark_scene = false;  // meters: a dark cabin around the panel
  double max_rotation_deg = 4;
  double max_perspective = 0.04;  // corner displacement, fraction of the size
  double max_blur = 1;            // box-blur half width in pixels
  double max_noise = 8;           // gray levels, standard deviation
};

// Places the document in a scene, then rotates, warps, blurs and adds noise.
// Takes ownership of content.
Pix* ApplyPhotoEffects(Pix* content, Rng& rng, const PhotoStyle& style);
// PNG or JPEG bytes of the image.
std::vector<uint8_t> EncodeImage(Pix* pix, bool jpeg, int quality);

// Money as printed: 12,300 with an optional won sign or suffix picked by style.
std::string FormatWon(int64_t amount, int style);
std::string WithCommas(int64_t amount);

}  // namespace nunchi::render
