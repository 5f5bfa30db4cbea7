// PixPtr: RAII ownership of Leptonica images inside the extraction layer.
// Only src/extract includes Leptonica. A PixPtr is movable, not shared.
#pragma once

#include <leptonica/allheaders.h>

#include <memory>

namespace nunchi::extract {

struct PixDeleter {
  void operator()(Pix* p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<Pix, PixDeleter>;

// Silences Leptonica's stderr messages (once per process; thread-safe).
void QuietLeptonica();

}  // namespace nunchi::extract
