#include "domain/cascade_codec.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace nunchi {

std::string_view ToString(CascadeRecord::Outcome o) {
  switch (o) {
    case CascadeRecord::Outcome::kCheap: return "cheap";
    case CascadeRecord::Outcome::kLlm: return "llm";
    case CascadeRecord::Outcome::kKeptTime: return "kept_time";
    case CascadeRecord::Outcome::kKeptError: return "kept_error";
  }
  return "cheap";
}

std::string EncodeCascadeRecord(const std::optional<CascadeRecord>& r) {
  if (!r) return "";
  char num[64];
  std::snprintf(num, sizeof num, "%.6g|", r->threshold);
  std::string out = std::string(ToString(r->outcome)) + "|" + r->calibration_version + "|" + num +
                    r->cheap_judge + "|" + std::string(ToString(r->cheap_relevance)) + "|" +
                    std::string(ToString(r->cheap_level)) + "|" +
                    std::string(ToString(r->cheap_cause)) + "|";
  std::snprintf(num, sizeof num, "%.6g", r->cheap_confidence);
  return out + num;
}

std::optional<CascadeRecord> DecodeCascadeRecord(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::vector<std::string> f;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '|') {
      f.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  if (f.size() != 8) return std::nullopt;
  CascadeRecord r;
  bool found = false;
  for (auto o : {CascadeRecord::Outcome::kCheap, CascadeRecord::Outcome::kLlm,
                 CascadeRecord::Outcome::kKeptTime, CascadeRecord::Outcome::kKeptError})
    if (ToString(o) == f[0]) {
      r.outcome = o;
      found = true;
    }
  auto rel = ParseRelevance(f[4]);
  auto lvl = ParseLevel(f[5]);
  auto cause = ParseCause(f[6]);
  if (!found || !rel || !lvl || !cause) return std::nullopt;
  r.calibration_version = f[1];
  r.threshold = std::strtod(f[2].c_str(), nullptr);
  r.cheap_judge = f[3];
  r.cheap_relevance = *rel;
  r.cheap_level = *lvl;
  r.cheap_cause = *cause;
  r.cheap_confidence = std::strtod(f[7].c_str(), nullptr);
  return r;
}

}  // namespace nunchi
