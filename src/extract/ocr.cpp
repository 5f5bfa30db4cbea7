#include "ocr.h"

#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <algorithm>

namespace nunchi::extract {

OcrEngine::OcrEngine(std::unique_ptr<tesseract::TessBaseAPI> api) : api_(std::move(api)) {}
OcrEngine::~OcrEngine() {
  if (api_) api_->End();
}

std::unique_ptr<OcrEngine> OcrEngine::Create(const std::string& language, std::string* error) {
  auto api = std::make_unique<tesseract::TessBaseAPI>();
  if (api->Init(nullptr, language.c_str(), tesseract::OEM_LSTM_ONLY) != 0) {
    *error = "cannot load Tesseract language data '" + language + "' (install tesseract-ocr-" +
             language + ")";
    return nullptr;
  }
  // We invert light-on-dark images ourselves; Tesseract's per-line inversion
  // test doubles the recognition time.
  api->SetVariable("tessedit_do_invert", "0");
  api->SetVariable("debug_file", "/dev/null");
  // Global Otsu: the page is already isolated and whitened around.
  api->SetVariable("thresholding_method", "0");
  // One uniform block: automatic layout analysis drops large app-screen
  // text ("empty page") and splits receipt label and value columns.
  api->SetPageSegMode(tesseract::PSM_SINGLE_BLOCK);
  return std::unique_ptr<OcrEngine>(new OcrEngine(std::move(api)));
}

std::vector<OcrWord> OcrEngine::Recognize(Pix* image) {
  std::vector<OcrWord> words;
  if (image == nullptr) return words;
  api_->SetImage(image);
  api_->SetSourceResolution(300);
  if (api_->Recognize(nullptr) != 0) return words;
  std::unique_ptr<tesseract::ResultIterator> it(api_->GetIterator());
  if (!it) return words;
  do {
    std::unique_ptr<char[]> text(it->GetUTF8Text(tesseract::RIL_WORD));
    if (!text || text[0] == '\0') continue;
    int x0, y0, x1, y1;
    if (!it->BoundingBox(tesseract::RIL_WORD, &x0, &y0, &x1, &y1)) continue;
    OcrWord w;
    w.text = text.get();
    w.box = Box{x0, y0, x1 - x0, y1 - y0};
    w.confidence = it->Confidence(tesseract::RIL_WORD) / 100.0f;
    words.push_back(std::move(w));
  } while (it->Next(tesseract::RIL_WORD));
  api_->Clear();
  return words;
}

OcrPool::OcrPool(std::string language, int max_engines)
    : language_(std::move(language)), max_engines_(std::max(1, max_engines)) {}
OcrPool::~OcrPool() = default;

OcrPool::Lease::Lease(OcrPool* pool, std::unique_ptr<OcrEngine> engine)
    : pool_(pool), engine_(std::move(engine)) {}
OcrPool::Lease::~Lease() {
  if (engine_) pool_->Return(std::move(engine_));
}

Expected<OcrPool::Lease> OcrPool::Acquire() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return !idle_.empty() || created_ < max_engines_; });
  if (!idle_.empty()) {
    auto engine = std::move(idle_.back());
    idle_.pop_back();
    return Lease(this, std::move(engine));
  }
  ++created_;
  lock.unlock();
  std::string error;
  auto engine = OcrEngine::Create(language_, &error);
  if (!engine) {
    lock.lock();
    --created_;
    cv_.notify_one();
    return ExtractError{InputError::kEngineFailure, error};
  }
  return Lease(this, std::move(engine));
}

std::optional<OcrPool::Lease> OcrPool::TryAcquire() {
  std::unique_lock lock(mu_);
  if (!idle_.empty()) {
    auto engine = std::move(idle_.back());
    idle_.pop_back();
    return Lease(this, std::move(engine));
  }
  if (created_ >= max_engines_) return std::nullopt;
  ++created_;
  lock.unlock();
  std::string error;
  auto engine = OcrEngine::Create(language_, &error);
  if (engine) return Lease(this, std::move(engine));
  lock.lock();
  --created_;
  cv_.notify_one();
  return std::nullopt;
}

void OcrPool::Return(std::unique_ptr<OcrEngine> engine) {
  std::lock_guard lock(mu_);
  idle_.push_back(std::move(engine));
  cv_.notify_one();
}

std::vector<OcrLine> GroupIntoLines(std::vector<OcrWord> words) {
  std::sort(words.begin(), words.end(), [](const OcrWord& a, const OcrWord& b) {
    return a.box.y + a.box.h / 2 < b.box.y + b.box.h / 2;
  });
  std::vector<OcrLine> lines;
  for (OcrWord& w : words) {
    int cy = w.box.y + w.box.h / 2;
    OcrLine* home = nullptr;
    // A word joins the last row whose vertical span covers its centre.
    for (auto it = lines.rbegin(); it != lines.rend() && it - lines.rbegin() < 3; ++it) {
      int top = it->box.y, bottom = it->box.bottom();
      int mid = (top + bottom) / 2, half = std::max(1, (bottom - top) / 2);
      if (std::abs(cy - mid) <= half * 0.7 + 1 && w.box.h < 2.2 * (bottom - top) &&
          (bottom - top) < 2.2 * w.box.h) {
        home = &*it;
        break;
      }
    }
    if (home == nullptr) {
      lines.push_back(OcrLine{});
      home = &lines.back();
      home->box = w.box;
    } else {
      int x0 = std::min(home->box.x, w.box.x), y0 = std::min(home->box.y, w.box.y);
      int x1 = std::max(home->box.right(), w.box.right());
      int y1 = std::max(home->box.bottom(), w.box.bottom());
      home->box = Box{x0, y0, x1 - x0, y1 - y0};
    }
    home->words.push_back(std::move(w));
  }
  for (OcrLine& line : lines) {
    std::sort(line.words.begin(), line.words.end(),
              [](const OcrWord& a, const OcrWord& b) { return a.box.x < b.box.x; });
    float sum = 0;
    const OcrWord* prev = nullptr;
    for (const OcrWord& w : line.words) {
      // Tesseract's Korean model splits syllables into words; a real space
      // is a gap of at least a third of the text height.
      if (prev != nullptr && w.box.x - prev->box.right() > 0.33 * line.box.h) line.text += ' ';
      line.text += w.text;
      sum += w.confidence;
      prev = &w;
    }
    line.confidence = sum / static_cast<float>(line.words.size());
  }
  std::sort(lines.begin(), lines.end(),
            [](const OcrLine& a, const OcrLine& b) { return a.box.y < b.box.y; });
  return lines;
}

}  // namespace nunchi::extract
