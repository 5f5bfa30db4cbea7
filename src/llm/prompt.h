// Renders a JudgeTask into chat messages with a versioned prompt from
// prompts/<version>/ (compiled into the binary, see embed_prompts.cmake).
//
// Layout, for prefix reuse (DESIGN.md section 4), from most to least shared:
//   system   the instructions: identical for every request of one version;
//   context  the spot and the whole bundle in written order, every signal
//            labelled by a short local id ("#1" is the post, "#2" its first
//            comment, ...): stable while the backend resends a growing bundle,
//            because nothing in it depends on analyzed_at or on the targets;
//   request  "now" and the ids to judge, the only part that changes per call.
// The user message is context + request. The model answers with the compact
// object of schema.h keyed by the target ids; output.h parses it.
//
// Texts are sanitized (control characters and line breaks become spaces,
// overlong texts are cut) so that one signal is always one line.
// Pure functions over immutable data; safe from any thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "domain/status.h"
#include "judges/judge.h"

namespace nunchi::llm {

inline constexpr std::string_view kJudgePromptVersion = "judge-v1";
// The prompt for several bundles in one call (batch prompting): its context
// part is repeated once per bundle with {{block}} = "A", "B", ...
inline constexpr std::string_view kBatchPromptVersion = "judge-batch-v1";
// The cascade's escalation prompt (RenderEscalationPrompt): the spot and the
// post as the cached prefix, then the latest comments and the targets; the
// cause text is asked for the last target only.
inline constexpr std::string_view kEscalationPromptVersion = "judge-escalate-v1";
// Comments an escalation prompt shows besides the targets (EscalationOptions).
inline constexpr size_t kDefaultEscalationComments = 4;
// Most bundles one batch prompt may hold (one letter each).
inline constexpr size_t kMaxBatchBundles = 26;

// One prompt version as compiled in. Views into static storage.
struct PromptTemplate {
  std::string_view version;
  std::string_view system;
  std::string_view context;  // {{spot_name}} {{spot_description}} {{thread}} ({{block}})
  std::string_view request;  // {{now}} {{targets}}
};

// The prompt of that version, or nullopt when it was not compiled in.
std::optional<PromptTemplate> FindPrompt(std::string_view version);
// The default prompt (kJudgePromptVersion); always present.
const PromptTemplate& DefaultPrompt();
// Every compiled-in version, in build order.
std::vector<std::string_view> PromptVersions();

struct RenderedPrompt {
  std::string version;
  std::string system;                   // == SharedPrefix(template): cache it once per version
  std::string context;                  // spot + thread
  std::string request;                  // now + targets
  std::vector<std::string> target_ids;  // "#3", ... in task.targets order
  // Per target id: whether the answer carries a cause text ("t"). Empty: all do.
  std::vector<bool> with_text;

  std::string user() const { return context + request; }
};

// Local id of bundle index i (0 = the post): "#1" for 0, "#2" for 1, ...
std::string LocalId(size_t bundle_index);

// The text every request of this version starts with (the system message).
std::string_view SharedPrefix(const PromptTemplate& prompt = DefaultPrompt());

// Longest text of one signal put into the prompt, in code points.
inline constexpr size_t kMaxSignalChars = 600;

// How much of a bundle the prompt shows.
struct RenderOptions {
  // 0: the whole bundle. K > 0: the post, then only the latest comments: a
  // window of K to 1.5 K comments whose start moves in steps of K / 2, so it
  // stays a cached prefix while the bundle grows by up to K / 2 comments;
  // the window always reaches back to the first target. The comments left
  // out are named in one line ("#2-#40 not shown"). Attention over a long
  // thread costs more per token than the prefix cache saves (docs/benchmarks.md).
  size_t context_comments = 0;
};

// Renders the task. kInvalidArgument when targets are empty, out of range or
// not strictly ascending.
Result<RenderedPrompt> RenderJudgePrompt(const JudgeTask& task,
                                         const PromptTemplate& prompt = DefaultPrompt(),
                                         const RenderOptions& options = {});

// Renders several tasks (same analyzed_at) into one prompt of a batch
// version: the context blocks in task order, lettered "A", "B", ...; target
// ids are the letter then the local id ("B#3"), task by task. "Now" is in the
// first post's offset. kInvalidArgument for 0 or more than kMaxBatchBundles
// tasks, mixed analyzed_at, or bad targets.
Result<RenderedPrompt> RenderBatchPrompt(std::span<const JudgeTask* const> tasks,
                                         const PromptTemplate& prompt,
                                         const RenderOptions& options = {});
// The escalation layout (prompt kEscalationPromptVersion), from most to least shared:
//   system   the instructions, as for every version;
//   context  the spot and the post only: identical for every cycle and every
//            escalation of the bundle, whatever its targets, so the engine's
//            prefix cache serves it again;
//   request  the latest `latest_comments` comments and every target (in
//            written order; left-out runs named "#2-#9 not shown"), "now", the
//            ids to judge, and after "Text:" the one id whose cause text is
//            asked: the last target, the latest report and so the likeliest
//            representative (DESIGN.md section 2). The other items get the
//            cause code only; the cascade writes their cause text.
// Bundles have no reply-to field, so a comment's parent chain is the post.
struct EscalationOptions {
  size_t latest_comments = kDefaultEscalationComments;
};
// kInvalidArgument as RenderJudgePrompt.
Result<RenderedPrompt> RenderEscalationPrompt(const JudgeTask& task, const PromptTemplate& prompt,
                                              const EscalationOptions& options = {});

// The letter of block k of a batch prompt: "A" for 0.
std::string BlockLetter(size_t k);

// One line of text for the prompt: control characters and line breaks become
// spaces, runs of spaces collapse, invalid UTF-8 is dropped, at most max_chars.
std::string SanitizeForPrompt(std::string_view text, size_t max_chars = kMaxSignalChars);

}  // namespace nunchi::llm
