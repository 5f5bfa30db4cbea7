// nunchi-extract-eval: `nunchi eval-extract` without the rest of the server.
// Usage: nunchi-extract-eval --dir DIR [--json]
//        nunchi-extract-eval --show IMAGE [--taxi]   (one image: OCR text and fields)
//        nunchi-extract-eval --calibration DIR        (amount accuracy above and below
//                                                      the low-confidence level)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/cmd_eval_extract.h"
#include "extract/extractor.h"
#include "extract/sevenseg.h"
#include "truth.h"

namespace {

template <typename T>
void PrintField(const char* name, const nunchi::extract::Field<T>& f) {
  std::ostringstream v;
  if (f.value) v << *f.value;
  std::printf("%s: %s (confidence %.2f, from \"%s\")\n", name, f.value ? v.str().c_str() : "-",
              f.confidence, f.evidence.text.c_str());
}

// Debugging aid for development renders: what the pipeline read.
int Show(const std::string& path, bool taxi) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  nunchi::extract::Extractor extractor({});
  if (taxi) {
    auto r = extractor.TaxiFare(bytes);
    if (auto* e = std::get_if<nunchi::extract::ExtractError>(&r)) {
      std::printf("error: %s\n", e->message.c_str());
      return 1;
    }
    auto decoded = nunchi::extract::DecodeImage(bytes, {});
    if (auto* pix = std::get_if<nunchi::extract::PixPtr>(&decoded)) {
      for (const auto& row : nunchi::extract::ReadSevenSegment(pix->get())) {
        std::printf("seven-segment row \"%s\" height %.0f confidence %.2f%s%s\n",
                    row.digits.c_str(), row.digit_height, row.confidence, row.dark ? " dark" : "",
                    row.confirmed ? " confirmed" : "");
      }
    }
    auto& t = std::get<nunchi::extract::TaxiFareResult>(r);
    std::printf("%s--\nmethod %s\n", t.ocr_text.c_str(), t.method.c_str());
    PrintField("amount", t.amount);
    return 0;
  }
  auto r = extractor.Receipt(bytes);
  if (auto* e = std::get_if<nunchi::extract::ExtractError>(&r)) {
    std::printf("error: %s\n", e->message.c_str());
    return 1;
  }
  auto& t = std::get<nunchi::extract::ReceiptResult>(r);
  std::printf("%s--\n", t.ocr_text.c_str());
  PrintField("amount", t.amount);
  PrintField("paid_at", t.paid_at);
  PrintField("merchant", t.merchant);
  PrintField("issuer", t.issuer);
  PrintField("approval", t.approval_number);
  return 0;
}

// How meaningful the amount's confidence is: the share of exact amounts
// among the answers at or above kLowConfidence and among those below it.
int Calibration(const std::string& dir) {
  nunchi::extract::Extractor extractor({});
  int n[2][2] = {{0, 0}, {0, 0}};  // [sure][exact]
  int absent = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    auto ext = entry.path().extension();
    if (ext != ".png" && ext != ".jpg") continue;
    auto json = entry.path();
    json.replace_extension(".json");
    std::ifstream tj(json);
    std::string text((std::istreambuf_iterator<char>(tj)), std::istreambuf_iterator<char>());
    auto truth = nunchi::render::TruthFromJson(text);
    if (!truth) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nunchi::extract::Field<int64_t> amount;
    if (truth->kind == nunchi::render::DocKind::kTaxi) {
      auto r = extractor.TaxiFare(bytes);
      if (auto* t = std::get_if<nunchi::extract::TaxiFareResult>(&r)) amount = t->amount;
    } else {
      auto r = extractor.Receipt(bytes);
      if (auto* t = std::get_if<nunchi::extract::ReceiptResult>(&r)) amount = t->amount;
    }
    if (!amount.value) {
      ++absent;
      continue;
    }
    bool sure = amount.confidence >= nunchi::extract::kLowConfidence;
    ++n[sure][*amount.value == truth->amount];
  }
  auto line = [&](const char* name, int s) {
    int total = n[s][0] + n[s][1];
    std::printf("%-22s %4d answers, %5.1f %% exact\n", name, total,
                total ? 100.0 * n[s][1] / total : 0.0);
  };
  line("confidence >= 0.5", 1);
  line("confidence < 0.5", 0);
  std::printf("%-22s %4d\n", "no amount", absent);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir, show, calibration;
  bool json = false, taxi = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json")
      json = true;
    else if (a == "--taxi")
      taxi = true;
    else if (a == "--dir" && i + 1 < argc)
      dir = argv[++i];
    else if (a == "--show" && i + 1 < argc)
      show = argv[++i];
    else if (a == "--calibration" && i + 1 < argc)
      calibration = argv[++i];
  }
  if (!show.empty()) return Show(show, taxi);
  if (!calibration.empty()) return Calibration(calibration);
  if (dir.empty()) {
    std::fprintf(stderr,
                 "usage: nunchi-extract-eval --dir DIR [--json] | --show IMAGE [--taxi] | "
                 "--calibration DIR\n");
    return 2;
  }
  return nunchi::RunEvalExtract(dir, json);
}
