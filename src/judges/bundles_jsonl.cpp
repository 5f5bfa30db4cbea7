#include "judges/bundles_jsonl.h"

#include <nlohmann/json.hpp>

namespace nunchi::judges {
namespace {

using nlohmann::json;

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Result<Signal> ReadSignal(const json& j, TimeMs analyzed_at, int* minutes,
                          std::optional<SignalLabel>* label) {
  if (!j.is_object()) return Status(ErrorCode::kInvalidArgument, "signal is not an object");
  Signal s;
  s.signal_id = Str(j, "signal_id");
  s.author_id = Str(j, "author_id");
  if (!j.contains("text") || !j["text"].is_string())
    return Status(ErrorCode::kInvalidArgument, "signal " + s.signal_id + " has no text");
  s.text = j["text"].get<std::string>();
  *minutes =
      j.contains("minutes_ago") && j["minutes_ago"].is_number() ? j["minutes_ago"].get<int>() : 0;
  s.created_at.ms = analyzed_at - static_cast<TimeMs>(*minutes) * kMinuteMs;
  s.created_at.text = FormatUtc(s.created_at.ms);
  label->reset();
  if (j.contains("label") && j["label"].is_object()) {
    const json& l = j["label"];
    auto rel = ParseRelevance(Str(l, "relevance"));
    auto lev = ParseLevel(Str(l, "level"));
    auto cau = ParseCause(Str(l, "cause"));
    if (!rel || !lev || !cau)
      return Status(ErrorCode::kInvalidArgument, "signal " + s.signal_id + " has a bad label");
    *label = SignalLabel{*rel, *lev, *cau};
  }
  return s;
}

}  // namespace

Result<std::vector<LabeledBundle>> ReadBundlesJsonl(std::istream& in, TimeMs analyzed_at) {
  std::vector<LabeledBundle> out;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto fail = [&](const std::string& why) {
      return Status(ErrorCode::kInvalidArgument, "line " + std::to_string(n) + ": " + why);
    };
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
    LabeledBundle b;
    b.bundle_id = Str(j, "bundle_id");
    if (j.contains("spot") && j["spot"].is_object()) {
      b.spot.spot_id = Str(j["spot"], "spot_id");
      b.spot.name = Str(j["spot"], "name");
      b.spot.description = Str(j["spot"], "description");
    }
    if (!j.contains("post")) return fail("no post");
    int minutes = 0;
    std::optional<SignalLabel> label;
    auto post = ReadSignal(j["post"], analyzed_at, &minutes, &label);
    if (!post.ok()) return fail(post.status().message());
    b.bundle.post = std::move(post).value();
    b.bundle.post_id = b.bundle.post.signal_id;
    b.minutes_ago.push_back(minutes);
    b.labels.push_back(label);
    if (j.contains("comments") && j["comments"].is_array()) {
      for (const auto& c : j["comments"]) {
        auto sig = ReadSignal(c, analyzed_at, &minutes, &label);
        if (!sig.ok()) return fail(sig.status().message());
        b.bundle.comments.push_back(std::move(sig).value());
        b.minutes_ago.push_back(minutes);
        b.labels.push_back(label);
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

Result<std::set<std::string>> ReadInjectionIds(std::istream& in,
                                               const std::vector<LabeledBundle>& bundles) {
  std::set<std::string> known;
  for (const auto& b : bundles)
    for (size_t i = 0; i < b.bundle.size(); ++i) known.insert(b.bundle.at(i).signal_id);
  std::set<std::string> ids;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (!known.count(line))
      return Status(ErrorCode::kInvalidArgument,
                    "line " + std::to_string(n) + ": no signal " + line + " in the data file");
    ids.insert(line);
  }
  return ids;
}

std::string InjectionAnnotationPath(const std::string& data_path) {
  const std::string ext = ".jsonl";
  const bool has_ext = data_path.size() > ext.size() &&
                       data_path.compare(data_path.size() - ext.size(), ext.size(), ext) == 0;
  return (has_ext ? data_path.substr(0, data_path.size() - ext.size()) : data_path) +
         ".injections.txt";
}

}  // namespace nunchi::judges
