// libFuzzer target: the image validation and decoders (extract/image_input.h)
// on arbitrary bytes. Nothing may crash or read out of bounds, and whatever
// decodes must have the size InspectImage read from the header (the decode
// budget of the server counts pixels from that header before decoding), be
// 32 bpp, and lie within the pixel limit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <variant>

#include "extract/image_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nunchi::extract;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Expected<ImageHeader> header = InspectImage(bytes);
  ImageLimits limits;
  limits.max_bytes = 1 << 20;
  limits.max_pixels = 1 << 18;  // 512 x 512: keeps each decode cheap
  Expected<PixPtr> pix = DecodeImage(bytes, limits);
  if (auto* p = std::get_if<PixPtr>(&pix)) {
    auto* h = std::get_if<ImageHeader>(&header);
    if (!h || !*p) std::abort();  // decoded what the inspection refused
    int w = pixGetWidth(p->get()), ht = pixGetHeight(p->get());
    if (h->exif_orientation >= 5) std::swap(w, ht);
    if (w != h->width || ht != h->height) std::abort();
    if (pixGetDepth(p->get()) != 32) std::abort();
    if (long{w} * ht > limits.max_pixels) std::abort();
  }
  return 0;
}
