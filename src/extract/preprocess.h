// Preprocessing for OCR: grayscale, light-on-dark inversion, rescaling to a
// good text height, background flattening, deskew and adaptive (Sauvola) thresholding, with the
// mapping from the prepared image back to upload coordinates. Pure functions
// of their input; thread-safe.
#pragma once

#include "pix.h"
#include "types.h"

namespace nunchi::extract {

struct PrepareOptions {
  int target_glyph_px = 20;  // median connected-component height after scaling
  long max_output_pixels = 2'500'000;
  bool deskew = true;
  // A tilt the ±7° skew sweep cannot confirm is looked for up to this many
  // degrees (0: not at all); receipts only (app screens took bogus tilts).
  float wide_skew_deg = 0;
  // Flatten the ground's brightness before thresholding (on: +34 receipts and
  // +11 meters of 400 each on the spent blind seeds 4242001-4242004).
  bool normalize_background = true;
  bool sharpen = false;  // unsharp mask after scaling (off; the second reading of an unsure
                         // receipt used it before it took a local threshold instead)
};

// Maps boxes in the prepared image back to the uploaded image.
struct PreparedGeometry {
  double scale = 1;            // prepared = upload * scale - crop offset, then rotated
  int crop_x = 0, crop_y = 0;  // crop of the scaled image
  double angle_rad = 0;        // the prepared image was rotated by this about its centre
  int width = 0, height = 0;   // prepared size
  Box ToUpload(const Box& prepared) const;
};

struct PreparedImage {
  PixPtr image;  // 8 bpp gray, dark text on a light ground, frames whitened
  PreparedGeometry geometry;
  bool inverted = false;  // the upload was light text on a dark ground
};

// `rgb` is the decoded upload (any depth). Returns an empty image on failure.
PreparedImage PrepareForOcr(Pix* rgb, const PrepareOptions& options = {});

// Median height of the plausible glyph components of a 1 bpp image (0 if none).
int MedianGlyphHeight(Pix* binary);

}  // namespace nunchi::extract
