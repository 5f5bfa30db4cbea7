// DefaultJudge: the embedded judge that needs no model file. Per signal:
// prefilter (noise) -> Korean rules (answer when confident: injection, wait
// times, negation, replies ...) -> the embedded classifier. Replies are
// resolved against the judgment of the signal before them, so the whole
// bundle up to the last target is judged in order. Every judgment records
// which component answered ("prefilter", "rules", "classifier").
// Immutable after construction; JudgeBundle() is safe from any thread.
#pragma once

#include <memory>
#include <string_view>

#include "judges/classifier.h"
#include "judges/judge.h"
#include "judges/prefilter.h"
#include "judges/rules.h"

namespace nunchi::judges {

inline constexpr std::string_view kDefaultJudgeVersion = "default-v1";

struct DefaultJudgeOptions {
  // kFull: prefilter -> rules -> classifier. The others are for ablations (`--judge rules`):
  // kRulesOnly answers IRRELEVANT where the rules have no opinion; kClassifierOnly skips rules.
  enum class Mode { kFull, kRulesOnly, kClassifierOnly } mode = Mode::kFull;
  float rules_min_confidence = 0.65f;  // rules answer at or above this confidence
  float classifier_min_cause = 0.5f;   // classifier cause used when at least this sure
  // With no word the rules know, the classifier must be this sure a text is a report.
  float classifier_min_relevant = 0.6f;
  float classifier_min_relevant_unknown = 0.8f;  // ... and this sure when it cannot tell the level
};

class DefaultJudge : public Judge {
 public:
  // Uses the embedded classifier model.
  explicit DefaultJudge(DefaultJudgeOptions options = {});
  // Uses the given classifier (tests, experiments).
  DefaultJudge(std::shared_ptr<const Classifier> classifier, DefaultJudgeOptions options = {});

  std::string_view name() const override { return "default"; }
  JudgeOutput JudgeBundle(const JudgeTask& task) override;

  const Prefilter& prefilter() const { return *prefilter_; }

 private:
  DefaultJudgeOptions options_;
  std::shared_ptr<const Classifier> classifier_;
  std::unique_ptr<Prefilter> prefilter_;
  Rules rules_;
};

}  // namespace nunchi::judges
