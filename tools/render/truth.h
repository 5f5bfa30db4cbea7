// GroundTruth: what a rendered image shows, stored as NAME.json next to
// NAME.png or NAME.jpg. Used by the renderer (writes) and by eval-extract and
// the tests (read). Plain values; the functions are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace nunchi::render {

enum class DocKind { kTaxi, kReceipt };

struct GroundTruth {
  DocKind kind = DocKind::kReceipt;
  std::string layout;  // e.g. "card_slip", "pos", "bank", "led_meter", "app_meter"
  int64_t amount = 0;  // won
  // Receipt fields; empty when the document does not show them.
  std::string paid_at;  // "YYYY-MM-DDTHH:MM:SS" (local time)
  std::string merchant;
  std::string issuer;
  std::string approval_number;
};

std::string TruthToJson(const GroundTruth& truth);
// Returns nullopt when the text is not a ground-truth document.
std::optional<GroundTruth> TruthFromJson(const std::string& text);

}  // namespace nunchi::render
