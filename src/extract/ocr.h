// OCR with Tesseract 5 (LSTM, Korean model, which also reads Latin digits).
// OcrEngine owns one TessBaseAPI and is NOT thread-safe; OcrPool lends a
// bounded number of engines to any thread (thread-safe) and creates them
// lazily. Only this file pair includes Tesseract headers.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pix.h"
#include "preprocess.h"
#include "types.h"

namespace tesseract {
class TessBaseAPI;
}

namespace nunchi::extract {

class OcrEngine {
 public:
  // Returns nullptr and sets *error when the language data cannot be loaded.
  static std::unique_ptr<OcrEngine> Create(const std::string& language, std::string* error);
  ~OcrEngine();

  // Words of an 8 bpp image, with boxes in its coordinates. Tesseract
  // binarises it with a global Otsu threshold, or with Sauvola's local one
  // (another reading, and fast on noisy pages whose Otsu binarisation
  // drowns in specks).
  std::vector<OcrWord> Recognize(Pix* image, bool local_threshold = false);

 private:
  explicit OcrEngine(std::unique_ptr<tesseract::TessBaseAPI> api);
  std::unique_ptr<tesseract::TessBaseAPI> api_;
};

class OcrPool {
 public:
  OcrPool(std::string language, int max_engines);
  ~OcrPool();

  // A borrowed engine, returned to the pool on destruction.
  class Lease {
   public:
    Lease(OcrPool* pool, std::unique_ptr<OcrEngine> engine);
    Lease(Lease&&) = default;
    ~Lease();
    OcrEngine* operator->() { return engine_.get(); }

   private:
    OcrPool* pool_;
    std::unique_ptr<OcrEngine> engine_;
  };

  // Blocks while all engines are lent. Fails with kEngineFailure when the
  // language data is missing.
  Expected<Lease> Acquire();
  // An engine only if one is idle or may still be created; never blocks on
  // other callers (it may load the language data).
  std::optional<Lease> TryAcquire();

 private:
  void Return(std::unique_ptr<OcrEngine> engine);

  const std::string language_;
  const int max_engines_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<OcrEngine>> idle_;  // guarded by mu_
  int created_ = 0;                               // guarded by mu_
};

// Groups words into text rows by vertical overlap, left to right.
std::vector<OcrLine> GroupIntoLines(std::vector<OcrWord> words);

}  // namespace nunchi::extract
