#include "llm/schema.h"

#include <nlohmann/json.hpp>

#include "domain/labels.h"

namespace nunchi::llm {
namespace {

using ojson = nlohmann::ordered_json;

ojson StringEnum(std::initializer_list<std::string_view> values) {
  ojson e = ojson::array();
  for (auto v : values) e.push_back(std::string(v));
  return ojson{{"type", "string"}, {"enum", e}};
}

ojson LevelEnum() {
  ojson e = ojson::array();
  for (Level l : kAllLevels) e.push_back(std::string(ToString(l)));
  return ojson{{"type", "string"}, {"enum", e}};
}

ojson CauseEnum() {
  ojson e = ojson::array();
  for (Cause c : kAllCauses) e.push_back(std::string(ToString(c)));
  return ojson{{"type", "string"}, {"enum", e}};
}

bool HasText(const std::vector<bool>& with_text, size_t k) {
  return with_text.empty() || (k < with_text.size() && with_text[k]);
}

ojson ItemSchema(const SchemaOptions& options, bool text_field = true) {
  ojson irrelevant = {{"type", "object"},
                      {"properties", {{"r", StringEnum({"IRRELEVANT"})}}},
                      {"required", {"r"}},
                      {"additionalProperties", false}};
  ojson text = {{"type", "string"}};
  if (options.max_length) text["maxLength"] = kMaxCauseTextChars;
  ojson props = ojson::object();
  props["r"] = StringEnum({"RELEVANT"});
  props["l"] = LevelEnum();
  props["c"] = CauseEnum();
  if (text_field) props["t"] = text;
  ojson required = text_field ? ojson{"r", "l", "c", "t"} : ojson{"r", "l", "c"};
  ojson relevant = {{"type", "object"},
                    {"properties", props},
                    {"required", required},
                    {"additionalProperties", false}};
  return ojson{{"anyOf", {irrelevant, relevant}}};
}

// A GBNF alternation of quoted wire names: "\"LOW\"" | "\"MEDIUM\"" | ...
template <typename Range>
std::string QuotedAlternatives(const Range& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += " | ";
    out += "\"\\\"" + std::string(ToString(v)) + "\\\"\"";
  }
  return out;
}

}  // namespace

std::string JudgeJsonSchema(std::span<const std::string> ids, SchemaOptions options,
                            const std::vector<bool>& with_text) {
  ojson item = ItemSchema(options);
  ojson bare = ItemSchema(options, /*text_field=*/false);
  ojson props = ojson::object();
  ojson required = ojson::array();
  for (size_t k = 0; k < ids.size(); ++k) {
    const std::string& id = ids[k];
    props[id] = HasText(with_text, k) ? item : bare;
    required.push_back(id);
  }
  ojson schema = {{"type", "object"},
                  {"properties", props},
                  {"required", required},
                  {"additionalProperties", false}};
  return schema.dump();
}

std::string JudgeGbnf(std::span<const std::string> ids, const std::vector<bool>& with_text) {
  // Literal pieces are written as GBNF strings: a JSON quote is \" inside them.
  std::string g = "root ::= \"{\"";
  bool any_bare = false;
  for (size_t i = 0; i < ids.size(); ++i) {
    const bool text = HasText(with_text, i);
    any_bare = any_bare || !text;
    g += " \"" + std::string(i == 0 ? "" : ",") + "\\\"" + ids[i] + "\\\":\" " +
         (text ? "item" : "bare");
  }
  g += " \"}\"\n";
  g += "item ::= \"{\\\"r\\\":\" ( irr | rel ) \"}\"\n";
  if (any_bare) {
    g += "bare ::= \"{\\\"r\\\":\" ( irr | relbare ) \"}\"\n";
    g += "relbare ::= \"\\\"RELEVANT\\\",\\\"l\\\":\" level \",\\\"c\\\":\" cause\n";
  }
  g += "irr ::= \"\\\"IRRELEVANT\\\"\"\n";
  g += "rel ::= \"\\\"RELEVANT\\\",\\\"l\\\":\" level \",\\\"c\\\":\" cause "
       "\",\\\"t\\\":\\\"\" text \"\\\"\"\n";
  g += "level ::= " + QuotedAlternatives(kAllLevels) + "\n";
  g += "cause ::= " + QuotedAlternatives(kAllCauses) + "\n";
  g += "text ::= char{0," + std::to_string(kMaxCauseTextChars) + "}\n";
  g += "char ::= [^\"\\\\\\x00-\\x1F\\x7F]\n";
  return g;
}

std::string ShapeKey(std::span<const std::string> ids, const std::vector<bool>& with_text) {
  std::string key;
  for (size_t k = 0; k < ids.size(); ++k) {
    if (!key.empty()) key += ' ';
    key += ids[k];
    if (!HasText(with_text, k)) key += '-';
  }
  return key;
}

size_t MaxAnswerBytes(std::span<const std::string> ids, const std::vector<bool>& with_text) {
  // {"#N":{"r":"RELEVANT","l":"UNKNOWN","c":"CONSTRUCTION","t":"<40 x 4 bytes>"}},
  size_t per_item =
      std::string_view(R"(,"":{"r":"RELEVANT","l":"UNKNOWN","c":"CONSTRUCTION","t":""})").size() +
      4 * kMaxCauseTextChars;
  const size_t text_part = std::string_view(R"(,"t":"")").size() + 4 * kMaxCauseTextChars;
  size_t total = 2;
  for (size_t k = 0; k < ids.size(); ++k)
    total += per_item + ids[k].size() - (HasText(with_text, k) ? 0 : text_part);
  return total;
}

std::shared_ptr<const std::string> GrammarCache::Gbnf(std::span<const std::string> ids,
                                                      const std::vector<bool>& with_text) {
  std::string key = ShapeKey(ids, with_text);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ++hits_;
      return it->second->second;
    }
    ++misses_;
  }
  auto grammar =
      std::make_shared<const std::string>(JudgeGbnf(ids, with_text));  // built outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second->second;  // another thread won the race
  lru_.emplace_front(key, grammar);
  index_[key] = lru_.begin();
  if (lru_.size() > capacity_) {
    index_.erase(lru_.back().first);
    lru_.pop_back();
  }
  return grammar;
}

size_t GrammarCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lru_.size();
}
size_t GrammarCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}
size_t GrammarCache::misses() const {
  std::lock_guard<std::mutex> lock(mu_);
  return misses_;
}

}  // namespace nunchi::llm
