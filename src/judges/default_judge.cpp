#include "judges/default_judge.h"

#include <algorithm>

#include "judges/cause_text.h"
#include "judges/text_util.h"

namespace nunchi::judges {
namespace {

std::shared_ptr<const Classifier> EmbeddedClassifier() {
  static const std::shared_ptr<const Classifier> c =
      std::make_shared<const Classifier>(EmbeddedClassifierModel());
  return c;
}

void Stamp(Judgment* j, std::string_view judge) {
  j->judge = std::string(judge);
  j->model = std::string(kDefaultJudgeVersion);
  j->prompt_version = std::string(kRulesVersion);
}

}  // namespace

DefaultJudge::DefaultJudge(DefaultJudgeOptions options)
    : DefaultJudge(EmbeddedClassifier(), options) {}

DefaultJudge::DefaultJudge(std::shared_ptr<const Classifier> classifier,
                           DefaultJudgeOptions options)
    : options_(options), classifier_(std::move(classifier)), prefilter_(new Prefilter()) {}

JudgeOutput DefaultJudge::JudgeBundle(const JudgeTask& task) {
  JudgeOutput out;
  out.reserve(task.targets.size());
  size_t last = 0;
  for (size_t t : task.targets) last = std::max(last, t);
  last = std::min(last, task.bundle.size() - 1);

  std::vector<Judgment> judged;
  judged.reserve(last + 1);
  RuleContext ctx;
  ctx.spot = &task.spot;
  ctx.spot_compact = MakeCompact(task.spot.name + " " + task.spot.description).text;
  bool event_spot = IsEventSpot(task.spot);
  for (size_t i = 0; i <= last; ++i) {
    const std::string& text = task.bundle.at(i).text;
    ctx.parent = i == 0 ? nullptr : &judged[i - 1];
    Judgment j;
    if (prefilter_->IsNoise(text)) {
      j = PrefilterJudgment();
      j.model = std::string(kDefaultJudgeVersion);
    } else {
      using Mode = DefaultJudgeOptions::Mode;
      RuleVerdict v;
      if (options_.mode != Mode::kClassifierOnly) v = rules_.Analyze(text, ctx);
      if (options_.mode == Mode::kRulesOnly) {
        j = v.decided ? std::move(v.judgment) : Judgment{};
        Stamp(&j, "rules");
      } else if (v.decided && v.confidence >= options_.rules_min_confidence) {
        j = std::move(v.judgment);
        Stamp(&j, "rules");
      } else {
        ClassifierPrediction p = classifier_->Predict(text);
        bool relevant =
            p.p_relevant >= (p.level == Level::kUnknown ? options_.classifier_min_relevant_unknown
                                                        : options_.classifier_min_relevant);
        if (v.decided && p.p_relevant > 0.3f && p.p_relevant < 0.7f) {
          // Both unsure: the rules' reading of the words wins.
          j = std::move(v.judgment);
          Stamp(&j, "rules");
        } else if (!relevant) {
          j.relevance = Relevance::kIrrelevant;
          Stamp(&j, "classifier");
        } else {
          j.relevance = Relevance::kRelevant;
          j.level = v.decided && v.judgment.relevance == Relevance::kRelevant ? v.judgment.level
                                                                              : p.level;
          bool busy = j.level == Level::kMedium || j.level == Level::kHigh;
          std::string key;
          Cause words = rules_.DetectCause(text, &key);
          if (words != Cause::kNone && (busy || words == Cause::kWeather)) {
            j.cause = words;
          } else if (p.cause != Cause::kNone && p.p_cause >= options_.classifier_min_cause &&
                     (busy || p.cause == Cause::kWeather)) {
            j.cause = p.cause;
            key.clear();
          } else if (busy && i > 0 && ctx.post_cause != Cause::kNone) {
            j.cause = ctx.post_cause;
            key = ctx.post_cause_key;
          } else if (busy && event_spot) {
            j.cause = Cause::kEvent;
          }
          j.cause_text = MakeCauseText(j.relevance, j.level, j.cause, key, v.wait);
          Stamp(&j, "classifier");
        }
      }
    }
    if (i == 0) {
      // The bundle's context cause: the post's own, else the words of the post, else the venue.
      if (j.relevance == Relevance::kRelevant && j.cause != Cause::kNone) {
        ctx.post_cause = j.cause;
        rules_.DetectCause(text, &ctx.post_cause_key);
      } else {
        ctx.post_cause = rules_.DetectCause(text, &ctx.post_cause_key);
        if (ctx.post_cause == Cause::kNone && event_spot) ctx.post_cause = Cause::kEvent;
      }
    }
    judged.push_back(std::move(j));
  }
  for (size_t t : task.targets) {
    if (t >= task.bundle.size()) {
      out.emplace_back(ErrorCode::kInvalidArgument, "target out of range");
    } else {
      out.emplace_back(judged[t]);
    }
  }
  return out;
}

}  // namespace nunchi::judges
