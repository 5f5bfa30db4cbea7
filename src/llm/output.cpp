#include "llm/output.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "domain/labels.h"

namespace nunchi::llm {
namespace {

using ojson = nlohmann::ordered_json;

constexpr std::array<std::string_view, static_cast<size_t>(Violation::kCount)> kNames = {
    "not_json",       "not_object",          "missing_id",    "unexpected_id",       "duplicate_id",
    "out_of_order",   "item_not_object",     "bad_relevance", "bad_level",           "bad_cause",
    "bad_cause_text", "cause_text_too_long", "extra_field",   "irrelevant_with_data"};

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidOutput, std::move(message));
}

// Checks one item; on success fills j.
Result<Judgment> ParseItem(const ojson& item, const std::string& id, const JudgmentStamp& stamp,
                           OutputCounters* counters, const ParseOptions& options, bool text_asked) {
  auto count = [&](Violation v) {
    if (counters) counters->Add(v);
  };
  if (!item.is_object()) {
    count(Violation::kItemNotObject);
    return Invalid(id + ": item is not an object");
  }
  for (const auto& [key, value] : item.items()) {
    if (key != "r" && key != "l" && key != "c" && key != "t") count(Violation::kExtraField);
  }
  Judgment j;
  j.judge = stamp.judge;
  j.model = stamp.model;
  j.prompt_version = stamp.prompt_version;
  auto r = item.find("r");
  std::optional<Relevance> relevance;
  if (r != item.end() && r->is_string())
    relevance = ParseRelevance(r->get_ref<const std::string&>());
  if (!relevance) {
    count(Violation::kBadRelevance);
    return Invalid(id + ": bad relevance");
  }
  j.relevance = *relevance;
  if (j.relevance == Relevance::kIrrelevant) {
    if (item.contains("l") || item.contains("c") || item.contains("t")) {
      count(Violation::kIrrelevantWithData);
    }
    return j;  // level UNKNOWN, cause NONE, empty text by construction
  }
  auto l = item.find("l");
  std::optional<Level> level;
  if (l != item.end() && l->is_string()) level = ParseLevel(l->get_ref<const std::string&>());
  if (!level) {
    count(Violation::kBadLevel);
    return Invalid(id + ": bad level");
  }
  auto c = item.find("c");
  std::optional<Cause> cause;
  if (c != item.end() && c->is_string()) cause = ParseCause(c->get_ref<const std::string&>());
  if (!cause) {
    count(Violation::kBadCause);
    return Invalid(id + ": bad cause");
  }
  auto t = item.find("t");
  if (t == item.end() && !text_asked) {  // the cause code only: the caller writes the text
    j.level = *level;
    j.cause = *cause;
    return j;
  }
  if (t == item.end() || !t->is_string() || !IsValidUtf8(t->get_ref<const std::string&>())) {
    count(Violation::kBadCauseText);
    return Invalid(id + ": bad cause text");
  }
  std::string text = t->get<std::string>();
  if (Utf8Length(text) > kMaxCauseTextChars) {
    count(Violation::kCauseTextTooLong);
    if (!options.truncate_long_cause_text) return Invalid(id + ": cause text too long");
    text = Utf8Truncate(text, kMaxCauseTextChars);
  }
  j.level = *level;
  j.cause = *cause;
  j.cause_text = std::move(text);
  return j;
}

}  // namespace

std::string_view ViolationName(Violation v) {
  size_t i = static_cast<size_t>(v);
  return i < kNames.size() ? kNames[i] : "unknown";
}

uint64_t OutputCounters::Total() const {
  uint64_t total = 0;
  for (const auto& c : counts_) total += c.load(std::memory_order_relaxed);
  return total;
}

JudgeOutput ParseJudgeOutput(std::string_view answer, std::span<const std::string> ids,
                             const JudgmentStamp& stamp, OutputCounters* counters,
                             ParseOptions options) {
  auto count = [&](Violation v) {
    if (counters) counters->Add(v);
  };
  auto fail_all = [&](const std::string& message) {
    if (counters) counters->CountAnswer(false);
    return JudgeOutput(ids.size(), Result<Judgment>(Invalid(message)));
  };

  // Root keys in the order written, and which ones repeat (the parser keeps one).
  std::vector<std::string> keys;
  std::set<std::string> duplicates;
  ojson::parser_callback_t record = [&](int depth, ojson::parse_event_t event, ojson& parsed) {
    if (depth == 1 && event == ojson::parse_event_t::key && parsed.is_string()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) duplicates.insert(key);
      keys.push_back(key);
    }
    return true;
  };
  ojson root = ojson::parse(answer.begin(), answer.end(), record, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    count(Violation::kNotJson);
    return fail_all("answer is not JSON");
  }
  if (!root.is_object()) {
    count(Violation::kNotObject);
    return fail_all("answer is not a JSON object");
  }

  // Ids: each expected once, nothing else, in order.
  std::vector<std::string> expected_seen;
  for (const auto& key : keys) {
    if (std::find(ids.begin(), ids.end(), key) == ids.end()) {
      count(Violation::kUnexpectedId);
    } else if (std::find(expected_seen.begin(), expected_seen.end(), key) == expected_seen.end()) {
      expected_seen.push_back(key);
    }
  }
  for (size_t i = 0; i < duplicates.size(); ++i) count(Violation::kDuplicateId);
  {
    std::vector<std::string> in_order;
    for (const auto& id : ids) {
      if (std::find(expected_seen.begin(), expected_seen.end(), id) != expected_seen.end()) {
        in_order.push_back(id);
      }
    }
    if (in_order != expected_seen) count(Violation::kOutOfOrder);
  }

  JudgeOutput out;
  out.reserve(ids.size());
  bool all_ok = true;
  for (size_t k = 0; k < ids.size(); ++k) {
    const std::string& id = ids[k];
    const bool text_asked =
        options.with_text.empty() || (k < options.with_text.size() && options.with_text[k]);
    auto it = root.find(id);
    if (it == root.end()) {
      count(Violation::kMissingId);
      out.emplace_back(Invalid(id + ": missing"));
    } else if (duplicates.count(id) > 0) {
      out.emplace_back(Invalid(id + ": appears more than once"));
    } else {
      out.push_back(ParseItem(*it, id, stamp, counters, options, text_asked));
    }
    all_ok = all_ok && out.back().ok();
  }
  if (counters) counters->CountAnswer(all_ok);
  return out;
}

}  // namespace nunchi::llm
