#include "ocr.h"

#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

#include <algorithm>
#include <cmath>

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

std::vector<OcrWord> OcrEngine::Recognize(Pix* image, bool local_threshold) {
  std::vector<OcrWord> words;
  if (image == nullptr) return words;
  api_->SetVariable("thresholding_method", local_threshold ? "2" : "0");
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

namespace {

// Residual slope of the text rows (dy/dx) that makes the word centres fall
// into the sharpest horizontal bands: label and value of one receipt row sit
// far apart, so a small tilt is enough to put them on different rows.
double RowSlope(const std::vector<OcrWord>& words) {
  if (words.size() < 4) return 0;
  std::vector<int> heights;
  int x0 = words.front().box.x, x1 = x0;
  for (const OcrWord& w : words) {
    heights.push_back(w.box.h);
    x0 = std::min(x0, w.box.x), x1 = std::max(x1, w.box.right());
  }
  std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
  double bin = std::max(2.0, heights[heights.size() / 2] / 3.0), xmid = (x0 + x1) / 2.0;
  double best = 0, best_score = -1;
  std::vector<long> bins;
  for (double slope = -0.12; slope <= 0.1201; slope += 0.004) {
    bins.clear();
    for (const OcrWord& w : words) {
      double y = w.box.y + w.box.h / 2.0 - slope * (w.box.x + w.box.w / 2.0 - xmid);
      bins.push_back(std::lround(y / bin));
    }
    std::sort(bins.begin(), bins.end());
    double score = 0, run = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
      run = (i > 0 && bins[i] == bins[i - 1]) ? run + 1 : 1;
      score += 2 * run - 1;  // sum of squared bin counts, built incrementally
    }
    // Prefer no tilt among equals.
    if (score > best_score + 1e-9 || (score == best_score && std::abs(slope) < std::abs(best))) {
      best_score = score, best = slope;
    }
  }
  return best;
}

}  // namespace

std::vector<OcrLine> GroupIntoLines(std::vector<OcrWord> words) {
  double slope = RowSlope(words);
  int x0 = words.empty() ? 0 : words.front().box.x, x1 = x0;
  for (const OcrWord& w : words) x0 = std::min(x0, w.box.x), x1 = std::max(x1, w.box.right());
  double xmid = (x0 + x1) / 2.0;
  // Centre height with the row tilt taken out.
  auto level = [&](const OcrWord& w) {
    return w.box.y + w.box.h / 2.0 - slope * (w.box.x + w.box.w / 2.0 - xmid);
  };
  std::sort(words.begin(), words.end(),
            [&](const OcrWord& a, const OcrWord& b) { return level(a) < level(b); });
  std::vector<OcrLine> lines;
  for (OcrWord& w : words) {
    double cy = level(w);
    OcrLine* home = nullptr;
    // A word joins a recent row if it sits level with the row's word that is
    // nearest to it horizontally (so rows may bend a little, as on a photo).
    for (size_t k = lines.size(); k-- > 0 && lines.size() - k <= 3;) {
      const OcrWord* near = nullptr;
      double best_dx = 1e18;
      for (const OcrWord& o : lines[k].words) {
        double dx = std::abs((o.box.x + o.box.w / 2.0) - (w.box.x + w.box.w / 2.0));
        if (dx < best_dx) best_dx = dx, near = &o;
      }
      double hgt = std::max(near->box.h, w.box.h);
      bool similar = w.box.h < 2.2 * near->box.h && near->box.h < 2.2 * w.box.h;
      if (similar && std::abs(cy - level(*near)) <= 0.5 * hgt + 1) {
        home = &lines[k];
        break;
      }
    }
    if (home == nullptr) {
      lines.push_back(OcrLine{});
      home = &lines.back();
      home->box = w.box;
    } else {
      int bx0 = std::min(home->box.x, w.box.x), by0 = std::min(home->box.y, w.box.y);
      int bx1 = std::max(home->box.right(), w.box.right());
      int by1 = std::max(home->box.bottom(), w.box.bottom());
      home->box = Box{bx0, by0, bx1 - bx0, by1 - by0};
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
      int h = std::max(prev ? prev->box.h : w.box.h, w.box.h);
      if (prev != nullptr && w.box.x - prev->box.right() > 0.33 * h) line.text += ' ';
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
