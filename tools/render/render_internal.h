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
// Draws a varied receipt (other fonts, spaced labels, currency signs before
// and after, next-line and dotted-leader amounts, more merchant and date
// forms, thermal fading): development sets only.
Pix* DrawVariedReceipt(Rng& rng, GroundTruth* truth);
// Draws a clean taxi meter: an LED seven-segment panel or an app screen.
Pix* DrawMeter(Rng& rng, GroundTruth* truth);
// Draws a seven-segment meter from polygons (gapped segments, LED or LCD);
// *lcd is true for an LCD glass without a dark bezel (photographed on a
// light scene). The layout in *truth says LED or LCD.
Pix* DrawPolygonMeter(Rng& rng, GroundTruth* truth, bool* lcd);

struct PhotoStyle {
  bool dark_scene = false;  // meters: a dark cabin around the panel
  double max_rotation_deg = 4;
  double max_perspective = 0.04;  // corner displacement, fraction of the size
  double max_blur = 1;            // box-blur half width in pixels
  double max_noise = 8;           // gray levels, standard deviation
  double warp = 0;                // crumpled paper: harmonic warp amplitude in pixels
  double max_cut = 0;             // crop up to this fraction off one edge of the document
};

// Places the document in a scene, then rotates, warps, blurs and adds noise.
// Takes ownership of content.
Pix* ApplyPhotoEffects(Pix* content, Rng& rng, const PhotoStyle& style);
// PNG or JPEG bytes of the image.
std::vector<uint8_t> EncodeImage(Pix* pix, bool jpeg, int quality);

// Money as printed: 12,300 with an optional won sign or suffix picked by style.
std::string FormatWon(int64_t amount, int style);
std::string WithCommas(int64_t amount);

// Card issuers and banks both receipt renderers print (the reader's issuer
// names must match them).
inline const std::vector<std::string> kCards = {"신한카드",   "삼성카드", "현대카드",
                                                "KB국민카드", "롯데카드", "하나카드",
                                                "우리카드",   "BC카드",   "NH농협카드"};
inline const std::vector<std::string> kBanks = {"국민은행", "신한은행", "우리은행",   "하나은행",
                                                "농협은행", "기업은행", "카카오뱅크", "토스뱅크"};

}  // namespace nunchi::render
