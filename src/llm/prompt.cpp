#include "llm/prompt.h"

#include <algorithm>
#include <map>

#include "domain/labels.h"
#include "llm/prompt_files.h"

namespace nunchi::llm {
namespace {

PromptTemplate FromEmbedded(const EmbeddedPrompt& e) {
  return PromptTemplate{e.version, e.system, e.context, e.request};
}

// Replaces every "{{name}}" in tmpl by its value; unknown placeholders stay.
std::string Fill(std::string_view tmpl,
                 std::initializer_list<std::pair<std::string_view, std::string_view>> values) {
  std::string out;
  out.reserve(tmpl.size() + 256);
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t open = tmpl.find("{{", i);
    if (open == std::string_view::npos) break;
    size_t close = tmpl.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(tmpl.substr(i, open - i));
    std::string_view name = tmpl.substr(open + 2, close - open - 2);
    bool found = false;
    for (const auto& [key, value] : values) {
      if (key == name) {
        out.append(value);
        found = true;
        break;
      }
    }
    if (!found) out.append(tmpl.substr(open, close + 2 - open));
    i = close + 2;
  }
  out.append(tmpl.substr(i));
  return out;
}

// The UTC offset written in an RFC 3339 text ("+09:00", "Z"), in ms; 0 if none.
TimeMs OffsetMs(std::string_view text) {
  if (text.size() < 6) return 0;
  std::string_view tail = text.substr(text.size() - 6);
  if ((tail[0] != '+' && tail[0] != '-') || tail[3] != ':') return 0;
  auto digit = [&](size_t k) { return tail[k] >= '0' && tail[k] <= '9' ? tail[k] - '0' : 0; };
  TimeMs minutes = (digit(1) * 10 + digit(2)) * 60 + digit(4) * 10 + digit(5);
  return (tail[0] == '-' ? -1 : 1) * minutes * kMinuteMs;
}

// "HH:MM" of ms in the given offset.
std::string ClockText(TimeMs ms, TimeMs offset) { return FormatUtc(ms + offset).substr(11, 5); }

// Decodes one code point at s[i]; returns its length (0 if invalid) and sets cp.
size_t DecodeUtf8(std::string_view s, size_t i, char32_t& cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  return n;
}

}  // namespace

std::optional<PromptTemplate> FindPrompt(std::string_view version) {
  for (size_t i = 0; i < kEmbeddedPromptCount; ++i) {
    if (version == kEmbeddedPrompts[i].version) return FromEmbedded(kEmbeddedPrompts[i]);
  }
  return std::nullopt;
}

const PromptTemplate& DefaultPrompt() {
  static const PromptTemplate prompt = *FindPrompt(kJudgePromptVersion);
  return prompt;
}

std::vector<std::string_view> PromptVersions() {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < kEmbeddedPromptCount; ++i) out.emplace_back(kEmbeddedPrompts[i].version);
  return out;
}

std::string LocalId(size_t bundle_index) { return "#" + std::to_string(bundle_index + 1); }

std::string_view SharedPrefix(const PromptTemplate& prompt) { return prompt.system; }

std::string SanitizeForPrompt(std::string_view text, size_t max_chars) {
  std::string out;
  out.reserve(text.size());
  size_t chars = 0;
  bool pending_space = false;
  for (size_t i = 0; i < text.size() && chars < max_chars;) {
    char32_t cp = 0;
    size_t n = DecodeUtf8(text, i, cp);
    if (n == 0) {  // invalid byte: drop it
      ++i;
      continue;
    }
    bool space = cp <= 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 ||
                 cp == 0x2029 || cp == 0x3000 || cp == 0xA0;
    if (space) {
      pending_space = !out.empty();
    } else {
      if (pending_space) {
        out.push_back(' ');
        ++chars;
        pending_space = false;
        if (chars >= max_chars) break;
      }
      out.append(text.substr(i, n));
      ++chars;
    }
    i += n;
  }
  return out;
}

namespace {

Status CheckTargets(const JudgeTask& task) {
  if (task.targets.empty()) return Status(ErrorCode::kInvalidArgument, "no targets to judge");
  for (size_t k = 0; k < task.targets.size(); ++k) {
    if (task.targets[k] >= task.bundle.size() ||
        (k > 0 && task.targets[k] <= task.targets[k - 1])) {
      return Status(ErrorCode::kInvalidArgument, "targets out of range or not ascending");
    }
  }
  return Status();
}

// The first comment (bundle index) the prompt shows; 1 shows them all.
size_t FirstShown(const JudgeTask& task, size_t k) {
  const size_t n = task.bundle.size();  // the post and n - 1 comments
  if (k == 0 || n - 1 <= k) return 1;
  const size_t step = std::max<size_t>(1, k / 2);
  size_t first = std::max<size_t>(1, (n - k) / step * step);
  if (task.targets.front() > 0) first = std::min(first, task.targets.front());
  return first;
}

// The context block of one task (spot and thread), its ids prefixed by `block`.
std::string RenderContext(const JudgeTask& task, const PromptTemplate& prompt,
                          std::string_view block, const RenderOptions& options) {
  const Bundle& bundle = task.bundle;
  // All clock times in the post's offset, so the thread text never depends on "now".
  const TimeMs offset = OffsetMs(bundle.post.created_at.text);
  const size_t first = FirstShown(task, options.context_comments);
  std::map<std::string, int> authors;  // author_id -> alias number, by first appearance
  std::string thread;
  for (size_t i = 0; i < bundle.size(); ++i) {
    const Signal& s = bundle.at(i);
    auto [it, inserted] = authors.emplace(s.author_id, static_cast<int>(authors.size()) + 1);
    if (i > 0 && i < first) {
      if (i == 1)
        thread += std::string(block) + LocalId(1) +
                  (first > 2 ? "-" + std::string(block) + LocalId(first - 1) : "") + " not shown\n";
      continue;
    }
    thread += std::string(block) + LocalId(i) + " u" + std::to_string(it->second) + " " +
              ClockText(s.created_at.ms, offset) + ": " + SanitizeForPrompt(s.text) + "\n";
  }
  if (!thread.empty()) thread.pop_back();  // the template supplies the line break
  std::string name = SanitizeForPrompt(task.spot.name, 100);
  std::string description = SanitizeForPrompt(task.spot.description, 300);
  return Fill(prompt.context, {{"block", block},
                               {"spot_name", name},
                               {"spot_description", description},
                               {"thread", thread}});
}

std::string RenderRequest(const JudgeTask& first, const PromptTemplate& prompt,
                          const std::vector<std::string>& ids) {
  std::string targets;
  for (const std::string& id : ids) {
    if (!targets.empty()) targets += ' ';
    targets += id;
  }
  const TimeMs offset = OffsetMs(first.bundle.post.created_at.text);
  std::string now = first.analyzed_at > 0 ? ClockText(first.analyzed_at, offset) : "unknown";
  return Fill(prompt.request, {{"now", now}, {"targets", targets}});
}

}  // namespace

Result<RenderedPrompt> RenderJudgePrompt(const JudgeTask& task, const PromptTemplate& prompt,
                                         const RenderOptions& options) {
  if (Status s = CheckTargets(task); !s.ok()) return s;
  RenderedPrompt out;
  out.version = std::string(prompt.version);
  out.system = std::string(prompt.system);
  out.context = RenderContext(task, prompt, "", options);
  for (size_t index : task.targets) out.target_ids.push_back(LocalId(index));
  out.request = RenderRequest(task, prompt, out.target_ids);
  return out;
}

Result<RenderedPrompt> RenderEscalationPrompt(const JudgeTask& task, const PromptTemplate& prompt,
                                              const EscalationOptions& options) {
  if (Status s = CheckTargets(task); !s.ok()) return s;
  const Bundle& bundle = task.bundle;
  const TimeMs offset = OffsetMs(bundle.post.created_at.text);
  std::map<std::string, int> authors;  // author_id -> alias number, over the whole bundle
  std::vector<int> alias(bundle.size());
  for (size_t i = 0; i < bundle.size(); ++i) {
    auto [it, inserted] =
        authors.emplace(bundle.at(i).author_id, static_cast<int>(authors.size()) + 1);
    alias[i] = it->second;
  }
  auto line = [&](size_t i) {
    const Signal& s = bundle.at(i);
    return LocalId(i) + " u" + std::to_string(alias[i]) + " " + ClockText(s.created_at.ms, offset) +
           ": " + SanitizeForPrompt(s.text);
  };
  // Shown comments: the latest K and every target.
  const size_t n = bundle.size();
  const size_t window = n - 1 > options.latest_comments ? n - options.latest_comments : 1;
  std::string recent;
  size_t gap_from = 0;  // first left-out index of the current run, 0: none
  for (size_t i = 1; i < n; ++i) {
    const bool shown =
        i >= window || std::binary_search(task.targets.begin(), task.targets.end(), i);
    if (!shown) {
      if (gap_from == 0) gap_from = i;
      continue;
    }
    if (gap_from != 0) {
      recent += LocalId(gap_from) + (i - 1 > gap_from ? "-" + LocalId(i - 1) : "") + " not shown\n";
      gap_from = 0;
    }
    recent += line(i) + "\n";
  }
  if (recent.empty()) recent = "none\n";
  recent.pop_back();  // the template supplies the line break

  RenderedPrompt out;
  out.version = std::string(prompt.version);
  out.system = std::string(prompt.system);
  out.context =
      Fill(prompt.context, {{"block", ""},
                            {"spot_name", SanitizeForPrompt(task.spot.name, 100)},
                            {"spot_description", SanitizeForPrompt(task.spot.description, 300)},
                            {"thread", line(0)}});
  for (size_t index : task.targets) out.target_ids.push_back(LocalId(index));
  out.with_text.assign(out.target_ids.size(), false);
  out.with_text.back() = true;
  std::string targets;
  for (const std::string& id : out.target_ids) targets += (targets.empty() ? "" : " ") + id;
  std::string now = task.analyzed_at > 0 ? ClockText(task.analyzed_at, offset) : "unknown";
  out.request = Fill(prompt.request, {{"recent", recent},
                                      {"now", now},
                                      {"targets", targets},
                                      {"text_targets", out.target_ids.back()}});
  return out;
}

std::string BlockLetter(size_t k) { return std::string(1, static_cast<char>('A' + k)); }

Result<RenderedPrompt> RenderBatchPrompt(std::span<const JudgeTask* const> tasks,
                                         const PromptTemplate& prompt,
                                         const RenderOptions& options) {
  if (tasks.empty() || tasks.size() > kMaxBatchBundles)
    return Status(ErrorCode::kInvalidArgument,
                  "a batch holds 1 to " + std::to_string(kMaxBatchBundles) + " bundles");
  RenderedPrompt out;
  out.version = std::string(prompt.version);
  out.system = std::string(prompt.system);
  for (size_t k = 0; k < tasks.size(); ++k) {
    if (tasks[k]->analyzed_at != tasks[0]->analyzed_at)
      return Status(ErrorCode::kInvalidArgument, "a batch has one analyzed_at");
    if (Status s = CheckTargets(*tasks[k]); !s.ok()) return s;
    const std::string block = BlockLetter(k);
    out.context += RenderContext(*tasks[k], prompt, block, options);
    for (size_t index : tasks[k]->targets) out.target_ids.push_back(block + LocalId(index));
  }
  out.request = RenderRequest(*tasks[0], prompt, out.target_ids);
  return out;
}

}  // namespace nunchi::llm
