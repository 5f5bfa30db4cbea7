#include "image_input.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

namespace nunchi::extract {
namespace {

uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
uint16_t Be16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }

ExtractError Err(InputError code, std::string msg) { return ExtractError{code, std::move(msg)}; }

Expected<ImageHeader> InspectPng(const uint8_t* d, size_t n) {
  ImageHeader h;
  h.format = ImageFormat::kPng;
  size_t pos = 8;
  bool ihdr = false, idat = false;
  while (true) {
    if (pos + 8 > n) return Err(InputError::kTruncated, "PNG ends before its IEND chunk");
    uint32_t len = Be32(d + pos);
    std::string type(reinterpret_cast<const char*>(d + pos + 4), 4);
    if (len > 0x7fffffff) return Err(InputError::kUndecodable, "PNG chunk length out of range");
    if (pos + 12 + len > n) return Err(InputError::kTruncated, "PNG chunk " + type + " is cut off");
    if (!ihdr && type != "IHDR") return Err(InputError::kUndecodable, "PNG without IHDR");
    if (type == "IHDR") {
      if (len < 8) return Err(InputError::kUndecodable, "PNG IHDR too short");
      h.width = static_cast<int>(std::min<uint32_t>(Be32(d + pos + 8), 1u << 30));
      h.height = static_cast<int>(std::min<uint32_t>(Be32(d + pos + 12), 1u << 30));
      ihdr = true;
    } else if (type == "IDAT") {
      idat = true;
    } else if (type == "IEND") {
      if (!idat) return Err(InputError::kUndecodable, "PNG without image data");
      return h;
    }
    pos += 12 + len;
  }
}

// Reads the orientation tag from an APP1 Exif payload (after "Exif\0\0").
int ExifOrientation(const uint8_t* t, size_t n) {
  if (n < 8) return 1;
  bool le = t[0] == 'I' && t[1] == 'I';
  auto u16 = [&](size_t o) -> uint32_t {
    return le ? uint32_t{t[o]} | (uint32_t{t[o + 1]} << 8) : Be16(t + o);
  };
  auto u32 = [&](size_t o) -> uint32_t { return le ? u16(o) | (u16(o + 2) << 16) : Be32(t + o); };
  size_t ifd = u32(4);
  if (ifd + 2 > n) return 1;
  uint32_t count = u16(ifd);
  for (uint32_t i = 0; i < count; ++i) {
    size_t e = ifd + 2 + 12 * i;
    if (e + 12 > n) break;
    if (u16(e) == 0x0112) {
      uint32_t v = u16(e + 8);
      return v >= 1 && v <= 8 ? static_cast<int>(v) : 1;
    }
  }
  return 1;
}

Expected<ImageHeader> InspectJpeg(const uint8_t* d, size_t n) {
  ImageHeader h;
  h.format = ImageFormat::kJpeg;
  size_t pos = 2;
  while (true) {
    while (pos < n && d[pos] == 0xFF && pos + 1 < n && d[pos + 1] == 0xFF) ++pos;  // fill bytes
    if (pos + 4 > n) return Err(InputError::kTruncated, "JPEG ends before its image data");
    if (d[pos] != 0xFF) return Err(InputError::kUndecodable, "JPEG marker expected");
    uint8_t marker = d[pos + 1];
    if (marker == 0xD9) return Err(InputError::kUndecodable, "JPEG without image data");
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
      pos += 2;
      continue;
    }
    size_t len = Be16(d + pos + 2);
    if (len < 2) return Err(InputError::kUndecodable, "JPEG segment length out of range");
    if (pos + 2 + len > n) return Err(InputError::kTruncated, "JPEG segment is cut off");
    const uint8_t* seg = d + pos + 4;
    bool sof =
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof && len >= 7) {
      h.height = Be16(seg + 1);
      h.width = Be16(seg + 3);
    } else if (marker == 0xE1 && len > 8 && std::memcmp(seg, "Exif\0\0", 6) == 0) {
      h.exif_orientation = ExifOrientation(seg + 6, len - 8);
    } else if (marker == 0xDA) {
      if (h.width == 0 || h.height == 0) return Err(InputError::kUndecodable, "JPEG without size");
      // Entropy-coded data cannot contain an unstuffed FF D9 before the end.
      for (size_t i = pos + 2 + len; i + 1 < n; ++i) {
        if (d[i] == 0xFF && d[i + 1] == 0xD9) return h;
      }
      return Err(InputError::kTruncated, "JPEG ends before its end-of-image marker");
    }
    pos += 2 + len;
  }
}

PixPtr Orient(PixPtr pix, int orientation) {
  Pix* p = pix.get();
  switch (orientation) {
    case 2:
      return PixPtr(pixFlipLR(nullptr, p));
    case 3:
      return PixPtr(pixRotate180(nullptr, p));
    case 4:
      return PixPtr(pixFlipTB(nullptr, p));
    case 5:
      return PixPtr(pixFlipLR(nullptr, PixPtr(pixRotate90(p, 1)).get()));
    case 6:
      return PixPtr(pixRotate90(p, 1));
    case 7:
      return PixPtr(pixFlipLR(nullptr, PixPtr(pixRotate90(p, -1)).get()));
    case 8:
      return PixPtr(pixRotate90(p, -1));
    default:
      return pix;
  }
}

}  // namespace

void QuietLeptonica() {
  static std::once_flag once;
  std::call_once(once, [] { setMsgSeverity(L_SEVERITY_NONE); });
}

Expected<ImageHeader> InspectImage(std::string_view bytes) {
  const auto* d = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t n = bytes.size();
  static const uint8_t kPngSig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (n >= 8 && std::memcmp(d, kPngSig, 8) == 0) return InspectPng(d, n);
  if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return InspectJpeg(d, n);
  return Err(InputError::kNotAnImage, "the body is not a PNG or JPEG image");
}

Expected<PixPtr> DecodeImage(std::string_view bytes, const ImageLimits& limits) {
  QuietLeptonica();
  if (bytes.size() > limits.max_bytes) {
    return Err(InputError::kTooLarge, "image of " + std::to_string(bytes.size()) +
                                          " bytes is over the limit of " +
                                          std::to_string(limits.max_bytes));
  }
  Expected<ImageHeader> header = InspectImage(bytes);
  if (auto* e = std::get_if<ExtractError>(&header)) return *e;
  const ImageHeader& h = std::get<ImageHeader>(header);
  long pixels = static_cast<long>(h.width) * h.height;
  if (h.width <= 0 || h.height <= 0) return Err(InputError::kUndecodable, "image has no pixels");
  if (pixels > limits.max_pixels) {
    return Err(InputError::kTooLarge, std::to_string(h.width) + "x" + std::to_string(h.height) +
                                          " pixels is over the limit of " +
                                          std::to_string(limits.max_pixels));
  }
  PixPtr pix(pixReadMem(reinterpret_cast<const l_uint8*>(bytes.data()), bytes.size()));
  if (!pix) return Err(InputError::kUndecodable, "the image data is corrupt");
  PixPtr rgb(pixConvertTo32(pix.get()));
  if (!rgb) return Err(InputError::kUndecodable, "unsupported pixel format");
  PixPtr upright = Orient(std::move(rgb), h.exif_orientation);
  if (!upright) return Err(InputError::kUndecodable, "cannot orient the image");
  return upright;
}

}  // namespace nunchi::extract
