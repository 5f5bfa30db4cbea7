#include "truth.h"

#include <nlohmann/json.hpp>

namespace nunchi::render {

std::string TruthToJson(const GroundTruth& t) {
  nlohmann::json j = {{"kind", t.kind == DocKind::kTaxi ? "taxi" : "receipt"},
                      {"layout", t.layout},
                      {"amount", t.amount}};
  if (t.kind == DocKind::kReceipt) {
    j["paid_at"] = t.paid_at;
    j["merchant"] = t.merchant;
    j["issuer"] = t.issuer;
    j["approval_number"] = t.approval_number;
  }
  return j.dump(2) + "\n";
}

std::optional<GroundTruth> TruthFromJson(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("kind") || !j.contains("amount")) return std::nullopt;
  GroundTruth t;
  t.kind = j.value("kind", "") == "taxi" ? DocKind::kTaxi : DocKind::kReceipt;
  t.layout = j.value("layout", "");
  t.amount = j.value("amount", int64_t{0});
  t.paid_at = j.value("paid_at", "");
  t.merchant = j.value("merchant", "");
  t.issuer = j.value("issuer", "");
  t.approval_number = j.value("approval_number", "");
  return t;
}

}  // namespace nunchi::render
