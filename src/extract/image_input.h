// Validation and decoding of uploaded images: sniffs PNG and JPEG by their
// signatures, walks their structure to find truncation and the pixel size
// before any decoding, enforces byte and pixel limits, applies the EXIF
// orientation of JPEGs, then decodes with Leptonica. Thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

#include "pix.h"
#include "types.h"

namespace nunchi::extract {

struct ImageLimits {
  size_t max_bytes = 10 << 20;
  long max_pixels = 40'000'000;
};

enum class ImageFormat { kUnknown, kPng, kJpeg };

struct ImageHeader {
  ImageFormat format = ImageFormat::kUnknown;
  int width = 0, height = 0;
  int exif_orientation = 1;  // 1..8 as in EXIF; 1 = upright
};

// Structural check only (no pixel decoding): the format, size and whether
// the file is complete. Errors: kNotAnImage, kTruncated, kUndecodable.
Expected<ImageHeader> InspectImage(std::string_view bytes);

// InspectImage, the limits, then decoding to a 32 bpp RGB image, upright.
Expected<PixPtr> DecodeImage(std::string_view bytes, const ImageLimits& limits);

}  // namespace nunchi::extract
