#include "app/cmd_eval_extract.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "extract/extractor.h"
#include "render.h"
#include "truth.h"

namespace nunchi {
namespace {

namespace fs = std::filesystem;
using extract::ExtractError;
using render::DocKind;
using render::GroundTruth;

struct Tally {
  int hit = 0, total = 0;
  void Add(bool ok) { hit += ok, ++total; }
  double Rate() const { return total ? static_cast<double>(hit) / total : 0; }
};

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string NoSpaces(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c != ' ') out += c;
  }
  return out;
}

bool SameText(const std::optional<std::string>& got, const std::string& want) {
  if (want.empty()) return !got.has_value();
  return got.has_value() && NoSpaces(*got) == NoSpaces(want);
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1;
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int RunEvalExtract(const std::string& dir, bool json, extract::CandidateChooser* chooser) {
  std::vector<std::pair<fs::path, GroundTruth>> cases;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string ext = entry.path().extension().string();
    if (ext != ".png" && ext != ".jpg" && ext != ".jpeg") continue;
    fs::path truth_path = entry.path();
    truth_path.replace_extension(".json");
    auto truth = render::TruthFromJson(ReadAll(truth_path));
    if (truth) cases.emplace_back(entry.path(), *truth);
  }
  if (ec || cases.empty()) {
    std::fprintf(stderr, "eval-extract: no labelled images in %s\n", dir.c_str());
    return 1;
  }
  std::sort(cases.begin(), cases.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  extract::ExtractorOptions options;
  options.max_engines = 2;  // one request at a time, two engines for split pages
  options.chooser = chooser;
  extract::Extractor extractor(options);
  // Warm-up (engine start-up is not per-image latency).
  (void)extractor.Receipt(ReadAll(cases.front().first));

  std::map<std::string, Tally> amount_by;  // "all", "taxi", "receipt", layouts
  std::map<std::string, Tally> fields;
  std::vector<double> latency, cpu;  // wall and process CPU ms per image
  nlohmann::json failures = nlohmann::json::array();
  nlohmann::json per_image = nlohmann::json::array();  // where the time goes, image by image
  for (const auto& [path, truth] : cases) {
    std::string bytes = ReadAll(path);
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    std::optional<int64_t> amount;
    std::string error;
    if (truth.kind == DocKind::kTaxi) {
      auto r = extractor.TaxiFare(bytes);
      if (auto* e = std::get_if<ExtractError>(&r))
        error = e->message;
      else
        amount = std::get<extract::TaxiFareResult>(r).amount.value;
    } else {
      auto r = extractor.Receipt(bytes);
      if (auto* e = std::get_if<ExtractError>(&r)) {
        error = e->message;
      } else {
        const auto& rr = std::get<extract::ReceiptResult>(r);
        amount = rr.amount.value;
        const std::pair<const char*,
                        std::pair<const std::optional<std::string>*, const std::string*>>
            checks[] = {{"paid_at", {&rr.paid_at.value, &truth.paid_at}},
                        {"merchant", {&rr.merchant.value, &truth.merchant}},
                        {"issuer", {&rr.issuer.value, &truth.issuer}},
                        {"approval_number", {&rr.approval_number.value, &truth.approval_number}}};
        for (const auto& [name, pair] : checks) {
          bool same = SameText(*pair.first, *pair.second);
          fields[name].Add(same);
          if (!same) {
            failures.push_back({{"file", path.filename().string()},
                                {"field", name},
                                {"want", *pair.second},
                                {"got", pair.first->value_or("(none)")}});
          }
        }
      }
    }
    latency.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    per_image.push_back(
        {{"file", path.filename().string()}, {"wall_ms", latency.back()}, {"cpu_ms", cpu.back()}});
    bool ok = amount && *amount == truth.amount;
    std::string kind = truth.kind == DocKind::kTaxi ? "taxi" : "receipt";
    amount_by["all"].Add(ok);
    amount_by[kind].Add(ok);
    amount_by[truth.layout].Add(ok);
    if (!ok) {
      failures.push_back({{"file", path.filename().string()},
                          {"field", "amount"},
                          {"want", truth.amount},
                          {"got", amount ? nlohmann::json(*amount) : nlohmann::json()},
                          {"error", error}});
    }
  }
  double p50 = Percentile(latency, 0.5), p95 = Percentile(latency, 0.95);
  double pmax = Percentile(latency, 1.0);
  double cpu_p50 = Percentile(cpu, 0.5), cpu_p95 = Percentile(cpu, 0.95);
  if (json) {
    nlohmann::json out = {{"images", cases.size()},
                          {"latency_ms", {{"p50", p50}, {"p95", p95}, {"max", pmax}}},
                          {"cpu_ms", {{"p50", cpu_p50}, {"p95", cpu_p95}}},
                          {"failures", failures},
                          {"per_image", per_image}};
    for (const auto& [k, t] : amount_by) {
      out["amount_exact"][k] = {{"hit", t.hit}, {"total", t.total}, {"rate", t.Rate()}};
    }
    for (const auto& [k, t] : fields) {
      out["fields"][k] = {{"hit", t.hit}, {"total", t.total}, {"rate", t.Rate()}};
    }
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  std::printf("eval-extract: %zu images from %s\n", cases.size(), dir.c_str());
  std::printf("amount exact match:\n");
  for (const auto& [k, t] : amount_by) {
    std::printf("  %-12s %5.1f %%  (%d/%d)\n", k.c_str(), 100 * t.Rate(), t.hit, t.total);
  }
  std::printf("receipt fields (exact; merchant ignoring spaces; absent == absent):\n");
  for (const auto& [k, t] : fields) {
    std::printf("  %-16s %5.1f %%  (%d/%d)\n", k.c_str(), 100 * t.Rate(), t.hit, t.total);
  }
  std::printf("latency per image: p50 %.0f ms, p95 %.0f ms, max %.0f ms\n", p50, p95, pmax);
  std::printf("CPU time per image (all threads): p50 %.0f ms, p95 %.0f ms\n", cpu_p50, cpu_p95);
  for (const auto& f : failures) std::printf("  miss: %s\n", f.dump().c_str());
  return 0;
}

int RunRenderExtract(const std::string& out_dir, int count, uint64_t seed) {
  std::string error;
  if (count <= 0) {
    std::fprintf(stderr, "render-extract: --count must be positive\n");
    return 2;
  }
  if (!render::RenderSet(out_dir, count, seed, &error)) {
    std::fprintf(stderr, "render-extract: %s\n", error.c_str());
    return 1;
  }
  std::printf("render-extract: wrote %d labelled images to %s\n", count, out_dir.c_str());
  return 0;
}

}  // namespace nunchi
