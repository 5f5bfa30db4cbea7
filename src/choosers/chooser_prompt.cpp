#include "choosers/chooser_prompt.h"

#include <algorithm>
#include <utility>

#include "llm/prompt.h"

namespace nunchi::choosers {
namespace {

// Fills {{key}} placeholders in one pass: inserted text is never scanned, so
// OCR text that holds "{{candidates}}" stays text.
std::string Fill(std::string_view tmpl,
                 const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string out;
  size_t at = 0;
  while (at < tmpl.size()) {
    size_t open = tmpl.find("{{", at);
    if (open == std::string_view::npos) break;
    size_t close = tmpl.find("}}", open);
    if (close == std::string_view::npos) break;
    out.append(tmpl.substr(at, open - at));
    std::string_view key = tmpl.substr(open + 2, close - open - 2);
    auto v =
        std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
    if (v != values.end())
      out += v->second;
    else
      out.append(tmpl.substr(open, close + 2 - open));
    at = close + 2;
  }
  out.append(tmpl.substr(std::min(at, tmpl.size())));
  return out;
}

std::string OcrLines(std::string_view ocr_text, size_t max_bytes) {
  std::string out;
  size_t begin = 0;
  while (begin < ocr_text.size()) {
    size_t end = std::min(ocr_text.find('\n', begin), ocr_text.size());
    std::string line = llm::SanitizeForPrompt(ocr_text.substr(begin, end - begin), 160);
    begin = end + 1;
    if (line.empty()) continue;
    if (out.size() + line.size() + 1 > max_bytes) break;
    out += line + "\n";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

}  // namespace

std::vector<size_t> ShownCandidates(const std::vector<extract::Candidate>& candidates,
                                    size_t max_shown) {
  // The best-scored candidate of each distinct value.
  std::vector<size_t> distinct;
  for (size_t i = 0; i < candidates.size(); ++i) {
    auto same = std::find_if(distinct.begin(), distinct.end(),
                             [&](size_t j) { return candidates[j].value == candidates[i].value; });
    if (same == distinct.end())
      distinct.push_back(i);
    else if (candidates[i].score > candidates[*same].score)
      *same = i;
  }
  if (distinct.size() > max_shown) {
    std::stable_sort(distinct.begin(), distinct.end(),
                     [&](size_t a, size_t b) { return candidates[a].score > candidates[b].score; });
    distinct.resize(max_shown);
  }
  std::sort(distinct.begin(), distinct.end());
  return distinct;
}

std::string RenderChooserRequest(const std::string& field,
                                 const std::vector<extract::Candidate>& candidates,
                                 const std::vector<size_t>& shown, std::string_view ocr_text,
                                 size_t max_ocr_bytes) {
  std::string list;
  for (size_t i = 0; i < shown.size(); ++i) {
    const extract::Candidate& c = candidates[shown[i]];
    list += std::to_string(i) + ": " + llm::SanitizeForPrompt(c.value, 80) +
            " (from: " + llm::SanitizeForPrompt(c.evidence.text, 120) + ")\n";
  }
  if (!list.empty()) list.pop_back();
  return Fill(kChooserPrompt.request, {{"field", llm::SanitizeForPrompt(field, 40)},
                                       {"ocr_text", OcrLines(ocr_text, max_ocr_bytes)},
                                       {"candidates", list}});
}

}  // namespace nunchi::choosers
