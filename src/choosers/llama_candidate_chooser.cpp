#include "choosers/llama_candidate_chooser.h"

#include <algorithm>
#include <utility>

#include "choosers/choice_grammar.h"
#include "choosers/chooser_prompt.h"

namespace nunchi::choosers {

LlamaCandidateChooser::LlamaCandidateChooser(llm::TextEngine* engine, LlamaChooserOptions options)
    : engine_(engine), options_(options) {
  options_.max_candidates = std::max<size_t>(options_.max_candidates, 2);
  for (size_t n = 0; n <= options_.max_candidates; ++n) grammars_.push_back(ChoiceGrammar(n));
}

Result<std::unique_ptr<LlamaCandidateChooser>> LlamaCandidateChooser::Create(
    llm::TextEngine* engine, LlamaChooserOptions options) {
  std::unique_ptr<LlamaCandidateChooser> chooser(new LlamaCandidateChooser(engine, options));
  // The system message alone is a prefix of every rendered chat: compute it once.
  auto prefix = engine->ApplyChatTemplate({{"system", kChooserPrompt.system}},
                                          /*add_assistant=*/false);
  if (!prefix.ok()) return prefix.status();
  if (Status s = engine->WarmPrefix(*prefix); !s.ok()) return s;
  return chooser;
}

std::string_view LlamaCandidateChooser::prompt_version() const { return kChooserPrompt.version; }

Result<llm::EngineRequest> LlamaCandidateChooser::BuildRequest(
    const std::string& field, const std::vector<extract::Candidate>& candidates,
    const std::string& ocr_text, std::vector<size_t>* shown) const {
  *shown = ShownCandidates(candidates, options_.max_candidates);
  if (shown->empty()) return Status(ErrorCode::kInvalidArgument, "no candidates");
  std::string user =
      RenderChooserRequest(field, candidates, *shown, ocr_text, options_.max_ocr_bytes);
  auto chat = engine_->ApplyChatTemplate({{"system", kChooserPrompt.system}, {"user", user}},
                                         /*add_assistant=*/true);
  if (!chat.ok()) return chat.status();
  llm::EngineRequest req;
  req.prompt = std::move(*chat);
  req.grammar = grammars_[shown->size()];
  // Every token carries at least one byte: the grammar always ends first.
  req.max_tokens = static_cast<int>(MaxChoiceAnswerBytes(shown->size())) + 4;
  req.retry_on_loop = false;  // the answer is too short to loop
  req.id = "choose/" + field;
  return req;
}

std::optional<size_t> LlamaCandidateChooser::Choose(
    const std::string& field, const std::vector<extract::Candidate>& candidates,
    const std::string& ocr_text) {
  ++calls_;
  if (ShownCandidates(candidates, options_.max_candidates).size() < 2) {
    ++kept_;  // one value: nothing to choose
    return std::nullopt;
  }
  std::vector<size_t> shown;
  auto req = BuildRequest(field, candidates, ocr_text, &shown);
  if (!req.ok()) {
    ++errors_;
    return std::nullopt;
  }
  req->deadline = llm::EngineClock::now() + options_.timeout;
  auto result = engine_->Run(std::move(*req));
  if (!result.ok()) {
    ++(result.status().code() == ErrorCode::kDeadlineExceeded ? timeouts_ : errors_);
    return std::nullopt;
  }
  ParsedChoice answer = ParseChoice(result->text, shown.size());
  if (!answer.valid) {
    ++errors_;
    return std::nullopt;
  }
  if (!answer.index) {
    ++kept_;
    return std::nullopt;
  }
  const size_t index = shown[*answer.index];
  size_t best = 0;  // what the rules pick: the best score, the first of equals
  for (size_t i = 1; i < candidates.size(); ++i) {
    if (candidates[i].score > candidates[best].score) best = i;
  }
  ++picks_;
  if (candidates[index].value != candidates[best].value) ++overrides_;
  return index;
}

ChooserCounters LlamaCandidateChooser::Counters() const {
  return {calls_.load(), picks_.load(),    overrides_.load(),
          kept_.load(),  timeouts_.load(), errors_.load()};
}

}  // namespace nunchi::choosers
